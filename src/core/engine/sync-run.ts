import type { Database } from '../store';
import { itemCounts } from '../store/items';
import { creditsOfJob } from '../store/ledger';
import {
  listNamedAll,
  moveInList,
  placeUnreached,
  recordCut,
  wasCut,
  type ReadAgain,
} from '../store/list-reads';
import {
  failWalk,
  pagesOfJob,
  recordPageReadAgain,
  restartRead,
  setWalkStatus,
  sourcesOfJob,
  type SourceRecord,
} from '../store/sources';
import { finishSync, startSync } from '../store/syncs';
import { isSyncedSourceKind, LIST_STATUS, SOURCE_KIND } from '../../shared/vocabulary';
import { pendingVersion } from '../store/versions';
import type { ReadLists } from './run';
import type { RunContext } from './run-context';
import { Selection } from './selection';
import { expectedVideosOf, LoopGuard } from './loop-guard';
import { askChannelLatest, withExactDate } from './channel-latest';
import type { RunOutcome, SyncOutcome } from './types';
import {
  buyPage,
  endpointOf,
  insertListedVideo,
  recordPageCredit,
  settleAwaitingItems,
  walkSources,
} from './walk';

/**
 * A sync run, the kind of run beside a job's first run (docs/product.md, "Keeping a job current"):
 * `scriptorium sync`, Sync in the app and every automatic sync (the schedule's rounds, `sync --all`)
 * come here through Engine.sync, which refuses a job that has not finished. The sync is recorded in
 * `syncs` as it starts; `execute` runs the job (run.ts, under its lease) with its lists read again on
 * the first pass (readListsAgain, below) while the fetch loop buys what is new, then the sync is
 * recorded with what it found and cost: new videos, list pages, credits.
 */
export async function syncRun(
  db: Database,
  sync: { jobId: number; automatic: boolean; now: () => string },
  execute: (readLists: ReadLists) => Promise<RunOutcome>,
): Promise<SyncOutcome> {
  const { jobId } = sync;
  const before = tally(db, jobId);
  const syncId = startSync(db, jobId, sync.now(), sync.automatic);
  const outcome = await execute(readListsAgainFirst);
  const after = tally(db, jobId);
  const found = {
    newVideos: after.videos - before.videos,
    pages: after.pages - before.pages,
    credits: after.credits - before.credits,
  };
  // Another process runs the job ('busy'): nothing was done here, and its sync stays unfinished.
  if (outcome.status !== 'busy') finishSync(db, syncId, { at: sync.now(), ...found });
  return { outcome, ...found };
}

/**
 * A sync run's passes: the lists read again on the first, then those not read to their end walked on
 * as any run does; a later pass (failed videos put back meanwhile) walks them on.
 */
const readListsAgainFirst: ReadLists = (ctx, pass) =>
  pass === 0 ? readListsAgain(ctx).then(() => walkListsOn(ctx)) : walkListsOn(ctx);

/**
 * How every run reads the lists it has not read to their end: a list a sync could not read is read
 * again from its start, as a sync (readAgainFailedSyncs); the others walk on from their cursors
 * (walk.ts), a list a failure left unwalked included.
 */
export async function walkListsOn(ctx: RunContext): Promise<void> {
  await readAgainFailedSyncs(ctx);
  await walkSources(ctx);
}

/** What a sync counts its findings from: the job's videos, list pages bought and credits spent. */
function tally(db: Database, jobId: number): { videos: number; pages: number; credits: number } {
  return {
    videos: itemCounts(db, jobId).total,
    pages: pagesOfJob(db, jobId),
    credits: creditsOfJob(db, jobId),
  };
}

/**
 * Reads the lists of a finished job again, the first pass of a sync run (docs/product.md, "Keeping a
 * job current"), while its new videos are fetched like any others. Each list is read again from its
 * start and judged as read now: a video no earlier read of the list named is added when the job's
 * selection (`--max-videos`, positions, filters) takes it from the list as it is now, and a video an
 * earlier read named is never judged again, so a video left out once stays out, and one taken stays.
 * Every video the read finds moves to its place now (memberships, store/list-reads.ts). Channels list
 * their newest videos first, so a channel is first asked the free channel/latest: when an earlier
 * read named every video it names (within the cap) there is nothing to buy, else its pages are read
 * until one brings nothing new. Playlists are read again whole (a video may be added anywhere), up
 * to the cap. Transcripts the job holds are never bought again. Resolves with the number of new videos.
 */
export async function readListsAgain(ctx: RunContext): Promise<number> {
  let found = 0;
  for (const source of sourcesOfJob(ctx.db, ctx.jobId)) {
    if (ctx.control.stopped) break;
    // A list not read to its end yet is the run's to walk on (walkListsOn).
    if (!isSyncedSourceKind(source.kind) || source.walkStatus !== LIST_STATUS.done) continue;
    let exactDates = new Map<string, string>();
    if (source.kind === SOURCE_KIND.channel) {
      const latest = await askLatest(ctx, source);
      if (latest?.nothingNew === true) continue;
      exactDates = latest?.dates ?? exactDates;
    }
    found += await readListAgain(ctx, source, exactDates);
  }
  return found;
}

/**
 * Reads again, as a sync does, each list a sync could not read (its walk failed and was reopened for
 * this run, its cursor cleared: a list read before, pages bought): from its start, where pages of known
 * videos are expected rather than a loop, every video found moving to its place now. A first walk
 * resumed from its cursor is walk.ts's.
 */
export async function readAgainFailedSyncs(ctx: RunContext): Promise<void> {
  for (const source of sourcesOfJob(ctx.db, ctx.jobId)) {
    if (ctx.control.stopped) return;
    if (!isSyncedSourceKind(source.kind) || source.walkStatus !== LIST_STATUS.pending) continue;
    if (source.cursor !== null || source.pages === 0) continue;
    const latest = source.kind === SOURCE_KIND.channel ? await askLatest(ctx, source) : undefined;
    await readListAgain(ctx, source, latest?.dates ?? new Map());
  }
}

/**
 * The channel's latest videos (a free question, channel-latest.ts, which also gives the videos the
 * job holds their exact times): whether earlier reads named all those the cap lets in, and the
 * publication time each is given with (exact, where the pages say "3 years ago"). Undefined when
 * unanswered: the pages will tell.
 */
async function askLatest(
  ctx: RunContext,
  source: SourceRecord,
): Promise<{ nothingNew: boolean; dates: Map<string, string> } | undefined> {
  const latest = await askChannelLatest(ctx, source);
  if (latest === undefined) return undefined;
  const ids = latest.ids.slice(0, ctx.options.maxVideos);
  return {
    nothingNew: listNamedAll(ctx.db, { jobId: ctx.jobId, sourceId: source.id }, ids),
    dates: latest.dates,
  };
}

/**
 * A read of a list again while it goes: which of its known videos it reached, how far into the list
 * it went, and how far the known videos it found last had moved. Ended, it is the ReadAgain from which
 * store/list-reads.ts places the rest.
 */
class ReadSoFar {
  readonly reached = new Set<string>();
  count = 0;
  #shift: number | undefined;

  /** A video it found; with the place an earlier read gave it, when one did. */
  found(videoId: string, position: number, previous?: number | null): void {
    this.reached.add(videoId);
    if (previous !== undefined && previous !== null) this.#shift = position - previous;
  }

  /** The read as it ended: `whole` when it reached the list's end, `at` the time of its last page. */
  ended(whole: boolean, at: string): ReadAgain {
    // Without a known video found, all it read lies ahead of the known ones.
    return { reached: this.reached, count: this.count, shift: this.#shift ?? this.count, whole, at };
  }
}

/** Reads one list from its start and adds the videos new to it that the selection takes; returns how many. */
async function readListAgain(
  ctx: RunContext,
  source: SourceRecord,
  exactDates: Map<string, string>,
): Promise<number> {
  const loops = new LoopGuard(source, true);
  const selection = new Selection(ctx.options.filters);
  const version = pendingVersion(ctx.db, ctx.jobId);
  const cap = ctx.options.maxVideos ?? Infinity;
  const read = new ReadSoFar();
  let listSize = source.expectedVideos;
  let cursor: string | null = null;
  let added = 0;
  let ended = false;
  /** Places what the read did not reach; at the read's end, decides what waited for the list's size (how many it takes). */
  const end = (whole: boolean, at: string, stopped = false): number => {
    ended = true;
    placeUnreached(ctx.db, source.id, read.ended(whole, at));
    // A list a sync could not read, read again to its end, is read as a whole again (readAgainFailedSyncs).
    if (!stopped && source.walkStatus === LIST_STATUS.pending)
      setWalkStatus(ctx.db, source.id, LIST_STATUS.done);
    if (stopped || !selection.needsListSize) return 0;
    return settleAwaitingItems(ctx, source, selection, listSize ?? (whole ? read.count : null), at);
  };
  while (!ctx.control.stopped) {
    const response = await buyPage(ctx, source, cursor);
    if (response === undefined) break;
    const page = response.value;
    const next = page.hasMore ? page.continuation : null;
    listSize = expectedVideosOf(page) ?? listSize;
    const at = ctx.now();
    const tally = { added: 0, skipped: 0, settled: 0 };
    const loop = next === null ? undefined : loops.check(ctx, page, page.items, next);
    ctx.db
      .transaction(() => {
        let newToList = 0;
        for (const video of page.items) {
          read.count += 1;
          const position = video.index ?? read.count;
          const member = { jobId: ctx.jobId, videoId: video.videoId, sourceId: source.id };
          const known = moveInList(ctx.db, { ...member, position, listedAt: at });
          if (known !== undefined) {
            read.found(video.videoId, position, known.previous);
            continue;
          }
          // Past the cap, the selection takes nothing new from the list as it is now; nor does it take
          // what an earlier read named past it.
          if (read.count > cap) {
            recordCut(ctx.db, source.id, [video.videoId]);
            continue;
          }
          if (wasCut(ctx.db, source.id, video.videoId)) continue;
          read.found(video.videoId, position);
          newToList += 1;
          const listed = withExactDate(video, exactDates);
          const outcome = insertListedVideo(ctx, source, listed, read.count, {
            selection,
            listSize,
            at,
            version,
          });
          if (outcome !== undefined) tally[outcome] += 1;
        }
        recordPageCredit(ctx, response, at);
        recordPageReadAgain(ctx.db, source.id, next);
        if (loop !== undefined) failWalk(ctx.db, source.id, LIST_STATUS.failed, { message: loop.message });
        // A channel's older pages hold what earlier reads named: the first page with nothing new ends it.
        const channelCaughtUp = source.kind === SOURCE_KIND.channel && newToList === 0;
        if (next === null || loop !== undefined || read.count >= cap || channelCaughtUp) {
          tally.settled += end(next === null && loop === undefined, at);
        }
      })
      .immediate();
    added += tally.added + tally.skipped;
    if (response.charged)
      ctx.emit('credit', { jobId: ctx.jobId, endpoint: endpointOf(source), possible: false });
    ctx.emit('page', { jobId: ctx.jobId, sourceId: source.id, videos: page.items.length, ...tally });
    ctx.control.notify();
    cursor = next;
    if (ended) break;
  }
  // Stopped midway (credits, budget, an interruption): what it read still places the rest.
  if (!ended && read.count > 0) ctx.db.transaction(() => end(false, ctx.now(), true)).immediate();
  // It could not be read (the walk failed): the next run reads it again from its start.
  if (!ended && !ctx.control.stopped) restartRead(ctx.db, source.id);
  return added;
}
