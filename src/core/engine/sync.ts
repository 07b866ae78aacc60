import { jobHasVideos, lastItemId, shiftPositions } from '../store/items';
import { failWalk, recordSyncPage, sourcesOfJob, type SourceRecord } from '../store/sources';
import { LIST_STATUS } from '../../shared/vocabulary';
import { pendingVersion } from '../store/versions';
import type { RunContext } from './run-context';
import { Selection } from './selection';
import {
  buyPage,
  endpointOf,
  expectedVideosOf,
  insertListedVideo,
  LoopGuard,
  recordPageCredit,
} from './walk';

/**
 * Brings the lists of a finished job up to date, before its new videos are fetched like any
 * others: a sync. Channels list their newest videos first, so a channel is first asked the free
 * channel/latest; when every video it names is known there is nothing to buy, else its pages are
 * read from the start until one brings no new video. Playlists are read again whole (a video may be
 * added anywhere). Only new videos are added; transcripts the job holds are never bought again.
 * Resolves with the number of new videos to fetch.
 */
export async function syncLists(ctx: RunContext): Promise<number> {
  let found = 0;
  for (const source of sourcesOfJob(ctx.db, ctx.jobId)) {
    if (ctx.control.stopped) break;
    if (source.kind !== 'playlist' && source.kind !== 'channel') continue;
    if (source.kind === 'channel' && (await latestAreKnown(ctx, source))) continue;
    found += await syncList(ctx, source);
  }
  return found;
}

/** Whether the channel's latest videos (a free question) are all in the job already. */
async function latestAreKnown(ctx: RunContext, source: SourceRecord): Promise<boolean> {
  try {
    await ctx.pacer?.wait(ctx.control.stopSignal);
    const channel = source.resolvedChannelId ?? source.sourceId;
    const { value } = await ctx.client.channelLatest(channel, ctx.call);
    ctx.health.answered();
    const ids = value.videos.map((video) => video.videoId);
    return jobHasVideos(ctx.db, ctx.jobId, ids);
  } catch {
    // Unanswered, the free question decides nothing: the pages will tell.
    return false;
  }
}

/** Reads one list from its start and adds the videos the job does not have; returns how many. */
async function syncList(ctx: RunContext, source: SourceRecord): Promise<number> {
  const loops = new LoopGuard(source, true);
  const selection = new Selection(ctx.options.filters);
  const version = pendingVersion(ctx.db, ctx.jobId);
  let listSize = source.expectedVideos;
  let cursor: string | null = null;
  let listed = 0;
  let added = 0;
  // Items are numbered in the order they are added: those above this one are the sync's.
  const lastKnownItem = lastItemId(ctx.db, ctx.jobId);
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
        page.items.forEach((video, i) => {
          const kept = insertListedVideo(ctx, source, video, listed + i + 1, {
            selection,
            listSize,
            at,
            version,
          });
          if (kept !== undefined) tally[kept ? 'added' : 'skipped'] += 1;
        });
        recordPageCredit(ctx, source, response, at);
        recordSyncPage(ctx.db, source.id, next);
        if (loop !== undefined) failWalk(ctx.db, source.id, LIST_STATUS.failed, { message: loop.message });
      })
      .immediate();
    const newOnPage = tally.added + tally.skipped;
    listed += page.items.length;
    added += newOnPage;
    if (response.charged)
      ctx.emit('credit', { jobId: ctx.jobId, endpoint: endpointOf(source), possible: false });
    ctx.emit('page', { jobId: ctx.jobId, sourceId: source.id, videos: page.items.length, ...tally });
    ctx.control.notify();
    cursor = next;
    // A channel's older pages hold what the job has: the first page with nothing new ends the sync.
    if (next === null || loop !== undefined || (source.kind === 'channel' && newOnPage === 0)) break;
  }
  if (source.kind === 'channel' && added > 0) {
    // The new videos lead the channel's listing now: the known ones move down by as many places.
    shiftPositions(ctx.db, source.id, lastKnownItem + 1, added);
  }
  return added;
}
