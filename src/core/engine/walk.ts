import type { ApiResponse, VideoItem, VideoPage } from '../api/types';
import { isApiError } from '../api/errors';
import { insertItem, type ItemListing } from '../store/items';
import { dropPaidRequest, recordBeforeSending, settlePaidRequest } from './paid-requests';
import { askChannelLatest, withExactDate } from './channel-latest';
import { recordCut } from '../store/list-reads';
import {
  addMembership,
  adoptListing,
  AWAITING_LIST_SIZE,
  awaitingInList,
  judgeByEveryList,
  setListVerdict,
} from '../store/memberships';
import { pendingVersion, recordChange } from '../store/versions';
import { failWalk, recordPage, setResolvedChannel, sourcesOfJob, type SourceRecord } from '../store/sources';
import { classifyFailure } from './failures';
import { expectedVideosOf, LoopGuard } from './loop-guard';
import { failureToRecord, noteServiceTrouble, type RecordedFailure } from './request-failure';
import { checkContinuation, codePointLength, LIMITS } from '../../shared/limits';
import { ITEM_CODE, LIST_STATUS, SOURCE_KIND } from '../../shared/vocabulary';
import type { RunContext } from './run-context';
import { lengthSeconds, NEEDS_LIST_SIZE, Selection, viewCount } from './selection';

/** Largest `limit` search accepts: a search source is one page of at most this many videos. */
const SEARCH_LIMIT = 50;

/**
 * Walks every list source of the job that is not walked yet, one page at a time. Each page's
 * new items, its ledger row, the next cursor and the walk progress are written in one
 * transaction, so a walk stopped at any instant resumes from the stored cursor without buying a
 * page twice. A walk that cannot go on is recorded as failed (or unavailable) with its reason, and
 * the job goes on. Resolves when every source is walked or the run stops.
 */
export async function walkSources(ctx: RunContext): Promise<void> {
  await resolveChannels(ctx);
  for (const source of sourcesOfJob(ctx.db, ctx.jobId)) {
    if (ctx.control.stopped) return;
    if (source.walkStatus !== LIST_STATUS.pending || source.kind === SOURCE_KIND.video) continue;
    await walkSource(ctx, source);
  }
}

/** channel/resolve is free: every channel is resolved first and its id kept on the source row. */
async function resolveChannels(ctx: RunContext): Promise<void> {
  for (const source of sourcesOfJob(ctx.db, ctx.jobId)) {
    if (ctx.control.stopped) return;
    if (
      source.kind !== SOURCE_KIND.channel ||
      source.walkStatus !== LIST_STATUS.pending ||
      source.resolvedChannelId !== null
    )
      continue;
    try {
      await ctx.pacer?.wait(ctx.control.stopSignal);
      const { value } = await ctx.client.channelResolve(source.sourceId, ctx.call);
      ctx.health.answered();
      setResolvedChannel(ctx.db, source.id, value.channelId);
    } catch (error) {
      recordWalkFailure(ctx, source, error);
    }
  }
}

/** A page bought, with the ledger row its request was recorded in before it was sent (paid-requests.ts). */
export type BoughtPage = ApiResponse<VideoPage> & { ledgerId: number };

/**
 * Buys a list's page at `cursor`: within the job's budget (spent, the run stops for it), paced,
 * recorded as possibly charged before it is sent, its credit settled. Undefined when it cannot be
 * had: the run stopped, or the walk failed, which is then recorded on the source.
 */
export async function buyPage(
  ctx: RunContext,
  source: SourceRecord,
  cursor: string | null,
): Promise<BoughtPage | undefined> {
  // The service takes back a cursor of LIMITS.continuation characters at most: a longer one would
  // only make a request too large for it (HTTP 431, which reads as a refused key). Not sent, free.
  if (cursor !== null && checkContinuation(cursor) !== null) {
    failWalk(ctx.db, source.id, LIST_STATUS.failed, {
      message: `the service gave a continuation cursor of ${codePointLength(cursor).toLocaleString('en')} characters for the next page, more than the ${LIMITS.continuation.max.toLocaleString('en')} it takes back, so Scriptorium did not send it: the list is read up to that page`,
    });
    return undefined;
  }
  if (!(await ctx.budget.reserveOnceSettled())) {
    ctx.control.stop(ctx.budget.stopCause());
    return undefined;
  }
  let response: ApiResponse<VideoPage>;
  let ledgerId: number | undefined;
  try {
    await ctx.pacer?.wait(ctx.control.stopSignal);
    ledgerId = await recordBeforeSending(ctx, { endpoint: endpointOf(source), sourceId: source.id });
    response = await ctx.writer.onTheWire(() => requestPage(ctx, source, cursor));
  } catch (error) {
    ctx.budget.settle(isApiError(error) && error.charged);
    recordWalkFailure(ctx, source, error, ledgerId);
    return undefined;
  }
  ctx.budget.settle(response.charged);
  ctx.health.answered();
  return { ...response, ledgerId };
}

/** Settles the ledger row of a page bought, charged or not; call it in the page's transaction. */
export function recordPageCredit(ctx: RunContext, page: BoughtPage, at: string): void {
  settlePaidRequest(
    ctx,
    page.ledgerId,
    page.charged ? { charged: true, requestId: page.requestId ?? null, at } : { charged: false },
  );
}

async function walkSource(ctx: RunContext, source: SourceRecord): Promise<void> {
  const maxVideos = ctx.options.maxVideos;
  const loops = new LoopGuard(source);
  const selection = new Selection(ctx.options.filters);
  const version = pendingVersion(ctx.db, ctx.jobId);
  let listSize = source.expectedVideos;
  let cursor = source.cursor;
  let videosFound = source.videosFound;
  // A channel's latest videos come with their exact times (free): its pages say "3 years ago".
  const latest = source.kind === SOURCE_KIND.channel ? await askChannelLatest(ctx, source) : undefined;
  const exactDates = latest?.dates ?? new Map<string, string>();
  while (!ctx.control.stopped) {
    const response = await buyPage(ctx, source, cursor);
    if (response === undefined) return;
    const page = response.value;
    const room = maxVideos === undefined ? page.items.length : Math.max(0, maxVideos - videosFound);
    const listed = page.items.slice(0, room);
    const next = page.hasMore ? page.continuation : null;
    const done =
      next === null ||
      source.kind === SOURCE_KIND.search ||
      (maxVideos !== undefined && videosFound + listed.length >= maxVideos);
    const loop = done ? undefined : loops.check(ctx, page, listed, next);
    // A search is one page: its size is what it brought.
    listSize =
      expectedVideosOf(page) ?? listSize ?? (source.kind === SOURCE_KIND.search ? listed.length : null);
    const at = ctx.now();
    const tally = { added: 0, skipped: 0, settled: 0 };
    ctx.db
      .transaction(() => {
        if (!loop?.beforeListing) {
          listed.forEach((video, i) => {
            const outcome = insertListedVideo(
              ctx,
              source,
              withExactDate(video, exactDates),
              videosFound + i + 1,
              {
                selection,
                listSize,
                at,
                version,
              },
            );
            if (outcome !== undefined) tally[outcome] += 1;
          });
          // The rest of the page lies past the cap: no later read of the list takes them.
          recordCut(
            ctx.db,
            source.id,
            page.items.slice(listed.length).map((video) => video.videoId),
          );
        }
        // The walk's end tells the size of a list that never said it: decide what waited for it.
        if (done && selection.needsListSize) {
          tally.settled += settleAwaitingItems(ctx, source, selection, videosFound + listed.length, at);
        }
        recordPageCredit(ctx, response, at);
        // A reopened walk goes on from `next` even after a loop: at worst it buys one page to find it again.
        recordPage(ctx.db, source.id, {
          cursor: next,
          videos: loop?.beforeListing ? 0 : listed.length,
          walkStatus: done ? LIST_STATUS.done : LIST_STATUS.pending,
          expectedVideos: expectedVideosOf(page),
          title: page.info?.['title'] ?? null,
        });
        if (loop !== undefined) failWalk(ctx.db, source.id, LIST_STATUS.failed, { message: loop.message });
      })
      .immediate();
    videosFound += loop?.beforeListing ? 0 : listed.length;
    cursor = next;
    if (response.charged)
      ctx.emit('credit', { jobId: ctx.jobId, endpoint: endpointOf(source), possible: false });
    ctx.emit('page', { jobId: ctx.jobId, sourceId: source.id, videos: listed.length, ...tally });
    ctx.control.notify();
    if (done || loop !== undefined) return;
  }
}

/**
 * What listing a video did to the job: added it to fetch, added it as skipped, or took a video the
 * job had skipped (`settled`: another list had left it out); undefined when nothing changed.
 */
export type ListedOutcome = 'added' | 'skipped' | 'settled' | undefined;

/**
 * Adds a listed video to the job, with what its list page said of it; the job's filters, applied to
 * this list, decide whether it is to be fetched or skipped. Either way the list is recorded among the
 * video's sources with its own verdict. When the job already had the video (from another source:
 * INSERT OR IGNORE), it is judged by every list that holds it (taken when one takes it), a video given
 * by itself takes this list's data, and a version after the first records that the video is in one
 * more list.
 */
export function insertListedVideo(
  ctx: RunContext,
  source: SourceRecord,
  video: VideoItem,
  listedPosition: number,
  how: { selection: Selection; listSize: number | null; at: string; version: number },
): ListedOutcome {
  const position = video.index ?? listedPosition;
  // Plain properties, not spreads: this runs for every listed video.
  const listing: ItemListing = {
    channelId: video.channelId,
    channelTitle: video.channelTitle,
    published: video.publishedTimeText,
    durationSeconds: lengthSeconds(video.lengthText),
    viewCount: viewCount(video.viewCountText),
    hasCaptions: video.hasCaptions,
  };
  const verdict = how.selection.verdict(
    {
      title: video.title,
      position,
      durationSeconds: listing.durationSeconds,
      published: listing.published,
      listedAt: Date.parse(how.at),
      hasCaptions: listing.hasCaptions,
    },
    how.listSize,
  );
  const skipped =
    verdict === null
      ? undefined
      : verdict === NEEDS_LIST_SIZE
        ? AWAITING_LIST_SIZE
        : { code: ITEM_CODE.filteredOut, message: verdict };
  const inserted = insertItem(ctx.db, {
    jobId: ctx.jobId,
    sourceId: source.id,
    position,
    videoId: video.videoId,
    title: video.title,
    at: how.at,
    listedAt: how.at,
    version: how.version,
    listing,
    ...(skipped !== undefined && { skipped }),
  });
  const member = { jobId: ctx.jobId, videoId: video.videoId, sourceId: source.id };
  const newMember = addMembership(ctx.db, { ...member, position, listedAt: how.at, skipped });
  if (inserted) return skipped === undefined ? 'added' : 'skipped';
  if (!newMember) return undefined;
  adoptListing(ctx.db, { ...member, position, title: video.title, listing, listedAt: how.at });
  if (how.version > 1)
    recordChange(ctx.db, {
      ...member,
      version: how.version,
      detail: `also in ${source.input}`,
      at: how.at,
    });
  return judgeByEveryList(ctx.db, member, how.at) ? 'settled' : undefined;
}

/**
 * Decides the list's videos that waited for its size (null: still unknown), each then judged by every
 * list that holds it; returns how many are to be fetched after all.
 */
export function settleAwaitingItems(
  ctx: RunContext,
  source: SourceRecord,
  selection: Selection,
  size: number | null,
  at: string,
): number {
  let kept = 0;
  for (const member of awaitingInList(ctx.db, source.id)) {
    const verdict = size === null ? NEEDS_LIST_SIZE : selection.verdict(member, size);
    const skippedBy = verdict === NEEDS_LIST_SIZE ? 'the size of its list is unknown' : verdict;
    setListVerdict(
      ctx.db,
      { itemId: member.itemId, sourceId: source.id },
      skippedBy === null ? null : { code: ITEM_CODE.filteredOut, message: skippedBy },
    );
    if (judgeByEveryList(ctx.db, member, at)) kept += 1;
  }
  return kept;
}

function requestPage(
  ctx: RunContext,
  source: SourceRecord,
  cursor: string | null,
): Promise<ApiResponse<VideoPage>> {
  switch (source.kind) {
    case SOURCE_KIND.playlist:
      return ctx.client.playlistVideos(
        cursor === null ? { playlist: source.sourceId } : { continuation: cursor },
        ctx.call,
      );
    case SOURCE_KIND.channel:
      return ctx.client.channelVideos(
        cursor === null ? { channel: source.resolvedChannelId ?? source.sourceId } : { continuation: cursor },
        ctx.call,
      );
    case SOURCE_KIND.search:
      return searchPage(ctx, source.sourceId);
    case SOURCE_KIND.video:
      throw new Error('a single video has no pages to walk');
  }
}

async function searchPage(ctx: RunContext, query: string): Promise<ApiResponse<VideoPage>> {
  const limit = Math.min(SEARCH_LIMIT, ctx.options.maxVideos ?? SEARCH_LIMIT);
  const response = await ctx.client.search({ q: query, type: 'video', limit }, ctx.call);
  const items = response.value.type === 'video' ? response.value.items : [];
  return { ...response, value: { items, continuation: null, hasMore: false } };
}

export function endpointOf(source: SourceRecord): 'playlist/videos' | 'channel/videos' | 'search' {
  if (source.kind === SOURCE_KIND.channel) return 'channel/videos';
  return source.kind === SOURCE_KIND.search ? 'search' : 'playlist/videos';
}

/**
 * A 404 makes the walk unavailable and other failures make it failed, each with its reason, and the
 * job goes on; 402, 401/403 and a service that cannot be reached stop the run. `ledgerId`: the row of
 * the page's request, when it was recorded before being sent (channel/resolve is free).
 */
function recordWalkFailure(ctx: RunContext, source: SourceRecord, error: unknown, ledgerId?: number): void {
  // Stopped before an answer that costs anything, the walk resumes from its cursor.
  const failure = failureToRecord(ctx, classifyFailure(error, ctx.control.stopSignal));
  if (failure === undefined || failure.kind === 'not_found') {
    if (ledgerId !== undefined) dropPaidRequest(ctx, ledgerId);
  }
  if (failure === undefined) return;
  switch (failure.kind) {
    case 'not_found':
      ctx.health.answered();
      failWalk(ctx.db, source.id, LIST_STATUS.unavailable, failure);
      return;
    case 'uncertain':
    case 'final':
      recordFailedWalk(ctx, source, failure, ledgerId);
  }
}

function recordFailedWalk(
  ctx: RunContext,
  source: SourceRecord,
  failure: Exclude<RecordedFailure, { kind: 'not_found' }>,
  ledgerId: number | undefined,
): void {
  const charged = failure.kind === 'final' && failure.charged;
  const possible = failure.kind === 'uncertain';
  const at = ctx.now();
  ctx.db
    .transaction(() => {
      failWalk(ctx.db, source.id, LIST_STATUS.failed, {
        message: failure.message,
        ...(failure.kind === 'final' && { httpStatus: failure.httpStatus, code: failure.code }),
      });
      if (ledgerId !== undefined) {
        settlePaidRequest(
          ctx,
          ledgerId,
          possible
            ? { charged: 'possibly', at }
            : charged
              ? { charged: true, requestId: failure.kind === 'final' ? failure.requestId : null, at }
              : { charged: false },
        );
      }
    })
    .immediate();
  if (charged || possible) ctx.emit('credit', { jobId: ctx.jobId, endpoint: endpointOf(source), possible });
  noteServiceTrouble(ctx, failure);
}
