/**
 * The reference's reading of lists (docs/product.md, "Keeping a job current"), written apart from
 * src/core: a job's first walk of each list, resumed from where a stopped command left it, and a
 * sync's read again, as the service answered them (the command's log). Each read names videos for
 * the job (the first --max-videos of the list as it is then), places every video it finds, and judges
 * the videos new to the list by the job's selection on the list as read now.
 */
import { channelIdForHandle, type Describers, type VideoDescription } from '../../src/simulator';
import type { ModelItem, ModelJob, ModelList, Span, Status } from './job';
import type { Call, CommandLog } from './log';
import type { Violation } from './rules';
import { anySelects, selects, type Verdict } from './selection';

/** Why a command stopped before its end, as the service's answers tell. */
export type StopCause = 'credits' | 'auth' | 'budget' | 'service' | 'killed';

/** What a read needs of the world and the command it is part of. */
export interface ReadContext {
  catalog: Describers;
  pageSize: number;
  log: CommandLog;
  span: Span;
  /** Facts of a video (cached). */
  video(videoId: string): VideoDescription;
  /** Request-level problems found while following the log. */
  violations: Violation[];
  /** What stopped the command, once an answer told. */
  stops: Set<StopCause>;
  /** Answers that point at the service (a 5xx, no answer) and the normal ones, in order. */
  health: Array<'trouble' | 'answered'>;
  /** A read ended before its end: the run did not finish its work. */
  stopped?: boolean;
  /**
   * The request whose answer stopped the run (a 402, a refused key, the tenth failure in a row that
   * points at the service): an error answered after it finds the run stopping, and is not recorded
   * (the video or list waits for the next run). Infinity when none did.
   */
  stopSeq: number;
}

/** The seq of the answer that stopped the run (ReadContext.stopSeq), from the log in the order answered. */
export function stoppingAnswer(log: CommandLog): number {
  let streak = 0;
  for (const call of log.calls) {
    if (!call.answered) continue;
    if (call.status === 402 || call.status === 401 || call.status === 403) return call.seq;
    if (call.status >= 500) streak += 1;
    else if (call.status === 200 || call.status === 404) streak = 0;
    if (streak >= 10) return call.seq;
  }
  return Infinity;
}

/** Statuses the retry policy tries again (docs/product.md, Request policy), three attempts in all. */
export const RETRIED = new Set([408, 429, 502]);
export const ATTEMPTS = 3;

const ENDPOINT = { playlist: 'playlist/videos', channel: 'channel/videos', search: 'search' } as const;

/** The list as the simulator serves it now: every video, in order. */
export function listNow(ctx: Pick<ReadContext, 'catalog'>, job: ModelJob, list: ModelList): string[] {
  switch (list.kind) {
    case 'search':
      return ctx.catalog.describeSearch(list.name, Math.min(50, job.args.maxVideos ?? 50));
    case 'channel':
      return ctx.catalog.describeChannel(list.name).videoIds();
    default:
      return ctx.catalog.describePlaylist(list.name).videoIds();
  }
}

/**
 * One request as the client sends it: the answers to its attempts, taken from the log (a retryable
 * status is tried again, three attempts in all). Undefined when the command sent no such request.
 */
export function takeAttempts(ctx: ReadContext, endpoint: string, about: string): Call[] | undefined {
  const take = (): Call | undefined =>
    endpoint === 'channel/resolve' ? ctx.log.take(endpoint, about) : ctx.log.takeList(endpoint, about);
  const first = take();
  if (first === undefined) return undefined;
  const attempts = [first];
  while (RETRIED.has(attempts.at(-1)!.status) && attempts.length < ATTEMPTS && attempts.at(-1)!.answered) {
    const again = take();
    if (again === undefined) break;
    attempts.push(again);
  }
  return attempts;
}

/** What the service's requests for a list name it by: a playlist's ID, a channel's UC id, a search's words. */
export function subjectOfList(list: ModelList): string {
  if (list.kind !== 'channel') return list.name;
  return list.name.startsWith('@') ? channelIdForHandle(list.name) : list.name;
}

/** Notes what a final answer means for the whole command (402, a refused key, the service's health). */
export function noteAnswer(ctx: ReadContext, call: Call): void {
  if (!call.answered) return;
  if (call.status === 402) ctx.stops.add('credits');
  else if (call.status === 401 || call.status === 403) ctx.stops.add('auth');
  else if (call.status >= 500 || call.status === 0) ctx.health.push('trouble');
  else ctx.health.push('answered');
}

/**
 * Walks the list for the first time, or on from where an earlier command stopped its walk; resolves
 * a channel first. Returns whether the walk ended (done, failed or unavailable) in this command.
 */
export function walkList(ctx: ReadContext, job: ModelJob, list: ModelList): boolean {
  list.walkSpan ??= ctx.span;
  if (list.kind === 'channel' && !list.resolved) {
    const resolve = takeAttempts(ctx, 'channel/resolve', list.name);
    if (resolve === undefined) return false;
    const last = resolve.at(-1)!;
    noteAnswer(ctx, last);
    if (!last.answered) return false;
    if (last.status !== 200) return failWalk(ctx, list, last);
    list.resolved = true;
  }
  const videos = listNow(ctx, job, list);
  if (list.kind === 'channel') {
    const latest = ctx.log.takeList('channel/latest', subjectOfList(list));
    if (latest?.status === 200) datesOfKnownVideos(job, videos.slice(0, 15));
  }
  const cap = job.args.maxVideos ?? Infinity;
  for (;;) {
    const attempts = takeAttempts(ctx, ENDPOINT[list.kind as keyof typeof ENDPOINT], subjectOfList(list));
    if (attempts === undefined) return false;
    const call = attempts.at(-1)!;
    noteAnswer(ctx, call);
    if (!call.answered) return false;
    if (call.status !== 200) return failWalk(ctx, list, call);
    const offset = list.kind === 'search' ? 0 : (call.charge?.offset ?? list.walked);
    if (offset > list.walked)
      ctx.violations.push({
        rule: 'walks: a list is read page after page, none left out',
        detail: `job ${job.id}, ${list.typed}: the page at ${offset} was read before the one at ${list.walked}`,
      });
    const page = videos.slice(offset, offset + (list.kind === 'search' ? 50 : ctx.pageSize));
    const room = Math.max(0, cap - offset);
    const named = page.slice(0, room);
    named.forEach((videoId, i) => {
      if (!list.members.has(videoId))
        nameVideo(ctx, job, list, videoId, {
          position: offset + i + 1,
          size: videos.length,
          exact: firstWalkExact(ctx, list, videoId),
        });
    });
    for (const videoId of page.slice(named.length)) list.cuts.add(videoId);
    list.walked = offset + page.length;
    const done = list.kind === 'search' || list.walked >= videos.length || list.walked >= cap;
    if (done) {
      list.walk = 'done';
      list.failure = undefined;
      list.reads.push({
        videos,
        count: Math.min(list.walked, cap),
        whole: list.walked >= videos.length,
        span: { start: list.walkSpan.start, end: ctx.span.end },
      });
      return true;
    }
  }
}

/**
 * channel/latest answered a read of a channel: each video the job already holds that it dates takes
 * its exact time, a change of the next version when a version was released (docs/product.md, Keeping
 * a job current).
 */
function datesOfKnownVideos(job: ModelJob, newest: readonly string[]): void {
  for (const videoId of newest) {
    const item = job.items.get(videoId);
    if (item === undefined || item.exactDate === true) continue;
    item.exactDate = true;
    job.touched.add(videoId);
    if (job.released > 0) job.exactDated.add(`${job.pendingVersion}|${videoId}`);
  }
}

/** On a first walk, whether a channel's video takes channel/latest's exact date. */
function firstWalkExact(ctx: ReadContext, list: ModelList, videoId: string): boolean {
  if (list.kind !== 'channel') return false;
  return ctx.catalog.describeChannel(list.name).videoIds().slice(0, 15).includes(videoId);
}

function failWalk(ctx: ReadContext, list: ModelList, call: Call): boolean {
  if (call.status === 402 || call.status === 401 || call.status === 403) return false;
  // An error that comes once the run is stopping is not the list's: it is read again next time.
  if (call.seq > ctx.stopSeq) return false;
  list.walk = call.status === 404 ? 'unavailable' : 'failed';
  list.failure = { httpStatus: call.status === 0 ? null : call.status, code: null };
  return true;
}

/** Where a read found a video, and whether it had the video's exact date. */
interface Found {
  position: number;
  size: number;
  exact: boolean;
}

/**
 * A video a read of `list` names that the list never named before: judged by the job's selection at
 * its place now, and added to the job (its next corpus number), or, when another source brought it,
 * judged again by every list that holds it (docs/product.md, Selection filters).
 */
export function nameVideo(
  ctx: ReadContext,
  job: ModelJob,
  list: ModelList,
  videoId: string,
  found: Found,
): void {
  const video = ctx.video(videoId);
  const judge = (exact: boolean): Verdict =>
    selects(job.args, video, { position: found.position, size: found.size, at: ctx.span, exact });
  const sure = judge(found.exact);
  list.members.set(videoId, { position: found.position, since: ctx.span, verdict: sure });
  const known = job.items.get(videoId);
  if (known === undefined) {
    job.items.set(videoId, {
      videoId,
      number: job.items.size + 1,
      version: job.pendingVersion,
      source: list.index,
      firstPlace: { position: found.position, since: ctx.span },
      selected: sure,
      status: new Set<Status>(
        sure === 'yes' ? ['pending'] : sure === 'no' ? ['skipped'] : ['pending', 'skipped'],
      ),
      failure: undefined,
      exactDate: found.exact,
      language: undefined,
      requested: undefined,
    });
    return;
  }
  if (known.firstPlace === undefined && known.version > job.released) {
    // A video given by itself takes the data of the first list that names it, before a version holds it.
    known.source = list.index;
    known.firstPlace = { position: found.position, since: ctx.span };
    known.exactDate = found.exact;
    job.touched.add(videoId);
  }
  if (job.pendingVersion > 1)
    job.changes.push({
      version: job.pendingVersion,
      videoId,
      change: 'changed',
      detail: `also in ${list.typed}`,
    });
  judgeAgain(job, known);
}

/** A video not fetched yet is taken when some list (or its own source) takes it. */
function judgeAgain(job: ModelJob, item: ModelItem): void {
  if (!item.status.has('skipped')) return;
  const alone = job.videoSources.some((source) => source.videoId === item.videoId);
  const verdicts: Verdict[] = alone ? ['yes'] : [];
  for (const list of job.lists) {
    const member = list.members.get(item.videoId);
    if (member !== undefined) verdicts.push(member.verdict);
  }
  item.selected = anySelects(verdicts);
  if (item.selected === 'yes') item.status = new Set(['pending']);
  else if (item.selected === 'either') item.status.add('pending');
}

/**
 * How a sync's read of a list ended: read to where it stops, failed (the service answered an error),
 * stopped midway by the run (what it read still places the rest), or in a way the model does not
 * follow (the job becomes inexact).
 */
export type SyncRead = 'done' | 'failed' | 'stopped' | 'lost';

/**
 * A sync's read of a playlist or channel again (docs/product.md, "Keeping a job current"): a channel
 * first asks channel/latest, free, and is not read when earlier reads named every video it gives
 * (within the cap); else pages from the start until the list's end, the cap, or (a channel) a page
 * with nothing new. Every known video found moves to its place now; the new ones within the cap are
 * judged; those the read did not reach are placed after it (placeUnreached).
 */
export function syncList(
  ctx: ReadContext,
  job: ModelJob,
  list: ModelList,
  how: { killed: boolean; again?: boolean },
): SyncRead {
  const { killed } = how;
  const cap = job.args.maxVideos ?? Infinity;
  const videos = listNow(ctx, job, list);
  let exact = new Set<string>();
  // A list read again after a failed sync is read from its start, whatever channel/latest names.
  if (list.kind === 'channel') {
    const latest = ctx.log.takeList('channel/latest', subjectOfList(list));
    if (latest === undefined) return 'stopped';
    noteAnswer(ctx, latest);
    if (latest.status === 200) {
      const newest = videos.slice(0, 15);
      datesOfKnownVideos(job, newest);
      const named = newest.slice(0, cap).every((id) => list.members.has(id) || list.cuts.has(id));
      if (named && how.again !== true) return 'done';
      exact = new Set(newest);
    }
  }
  const read = { reached: new Set<string>(), count: 0, shift: undefined as number | undefined };
  for (let offset = 0; ; offset += ctx.pageSize) {
    const attempts = takeAttempts(ctx, ENDPOINT[list.kind as keyof typeof ENDPOINT], subjectOfList(list));
    if (attempts === undefined) {
      // Stopped midway (credits, budget, an interruption): what it read still places the rest.
      if (read.count === 0) return 'stopped';
      if (killed) return 'lost';
      placeUnreached(job, list, { ...read, whole: false, span: ctx.span });
      list.reads.push({ videos, count: read.count, whole: false, span: ctx.span });
      return 'stopped';
    }
    const call = attempts.at(-1)!;
    noteAnswer(ctx, call);
    if (!call.answered) return 'lost';
    if (call.status !== 200) {
      if (call.status === 402 || call.status === 401 || call.status === 403 || call.seq > ctx.stopSeq)
        return 'stopped';
      // The list could not be read again: it fails (the next run walks it on from its cursor), what
      // the read found is placed, and the sync goes on with the next list.
      if (read.count > 0) placeUnreached(job, list, { ...read, whole: false, span: ctx.span });
      failWalk(ctx, list, call);
      list.failedBySync = true;
      return 'failed';
    }
    if (call.charge?.offset !== undefined && call.charge.offset !== offset)
      ctx.violations.push({
        rule: 'walks: a list is read page after page, none left out',
        detail: `job ${job.id}, sync of ${list.typed}: read the page at ${call.charge.offset} for the one at ${offset}`,
      });
    let newToList = 0;
    videos.slice(offset, offset + ctx.pageSize).forEach((videoId, i) => {
      const position = offset + i + 1;
      read.count += 1;
      const member = list.members.get(videoId);
      if (member !== undefined) {
        if (member.position !== null) read.shift = position - member.position;
        moveTo(member, position, ctx.span);
        read.reached.add(videoId);
      } else if (read.count > cap) list.cuts.add(videoId);
      else if (!list.cuts.has(videoId)) {
        read.reached.add(videoId);
        newToList += 1;
        nameVideo(ctx, job, list, videoId, { position, size: videos.length, exact: exact.has(videoId) });
      }
    });
    const end = offset + ctx.pageSize >= videos.length;
    if (end || read.count >= cap || (list.kind === 'channel' && newToList === 0)) {
      placeUnreached(job, list, { ...read, whole: end, span: ctx.span });
      list.reads.push({ videos, count: read.count, whole: end, span: ctx.span });
      if (how.again === true) {
        list.walk = 'done';
        list.failure = undefined;
        list.failedBySync = false;
      }
      return 'done';
    }
  }
}

/** A membership moved to `position` by a read: a read that finds it where it was keeps its time. */
function moveTo(member: { position: number | null; since: Span }, position: number | null, span: Span): void {
  if (member.position === position) return;
  member.position = position;
  member.since = span;
}

/**
 * Places the list's videos a read again did not reach: read whole, the list no longer holds them;
 * read in part, they keep their order after the read's own, each moved as far as the last known
 * video the read found (or as far as the read went, when it found none).
 */
function placeUnreached(
  job: ModelJob,
  list: ModelList,
  read: {
    reached: ReadonlySet<string>;
    count: number;
    shift: number | undefined;
    whole: boolean;
    span: Span;
  },
): void {
  const shift = read.shift ?? read.count;
  const number = (videoId: string): number => job.items.get(videoId)?.number ?? 0;
  const unreached = [...list.members.entries()]
    .filter(([videoId, member]) => !read.reached.has(videoId) && member.position !== null)
    .sort(([a, first], [b, second]) => first.position! - second.position! || number(a) - number(b));
  let last = read.count;
  for (const [, member] of unreached) {
    if (read.whole) {
      moveTo(member, null, read.span);
      continue;
    }
    last = Math.max(member.position! + shift, last + 1);
    moveTo(member, last, read.span);
  }
}
