import type { ApiResponse, VideoItem, VideoPage } from '../api/types';
import { isApiError } from '../api/errors';
import { insertItem } from '../store/items';
import { recordCredit } from '../store/ledger';
import {
  recordPage,
  setResolvedChannel,
  setWalkStatus,
  sourcesOfJob,
  type SourceRecord,
} from '../store/sources';
import { classifyFailure } from './failures';
import type { RunContext } from './run-context';

/** Largest `limit` search accepts: a search source is one page of at most this many videos. */
const SEARCH_LIMIT = 50;

/**
 * Walks every list source of the job that is not walked yet, one page at a time. Each page's
 * new items, its ledger row, the next cursor and the walk progress are written in one
 * transaction, so a walk stopped at any instant resumes from the stored cursor without buying a
 * page twice. Resolves when every source is walked or the run stops.
 */
export async function walkSources(ctx: RunContext): Promise<void> {
  await resolveChannels(ctx);
  for (const source of sourcesOfJob(ctx.db, ctx.jobId)) {
    if (ctx.control.stopped) return;
    if (source.walkStatus !== 'pending' || source.kind === 'video') continue;
    await walkSource(ctx, source);
  }
}

/** channel/resolve is free: every channel is resolved first and its id kept on the source row. */
async function resolveChannels(ctx: RunContext): Promise<void> {
  for (const source of sourcesOfJob(ctx.db, ctx.jobId)) {
    if (ctx.control.stopped) return;
    if (source.kind !== 'channel' || source.walkStatus !== 'pending' || source.resolvedChannelId !== null)
      continue;
    try {
      await ctx.pacer?.wait(ctx.control.signal);
      const { value } = await ctx.client.channelResolve(source.sourceId, ctx.control.signal);
      setResolvedChannel(ctx.db, source.id, value.channelId);
    } catch (error) {
      recordWalkFailure(ctx, source, error);
    }
  }
}

async function walkSource(ctx: RunContext, source: SourceRecord): Promise<void> {
  const maxVideos = ctx.options.maxVideos;
  let cursor = source.cursor;
  let videosFound = source.videosFound;
  while (!ctx.control.stopped) {
    if (!ctx.budget.reserve()) {
      ctx.control.stop({ kind: 'budget' });
      return;
    }
    let response: ApiResponse<VideoPage>;
    try {
      await ctx.pacer?.wait(ctx.control.signal);
      response = await requestPage(ctx, source, cursor);
    } catch (error) {
      ctx.budget.settle(isApiError(error) && error.charged);
      recordWalkFailure(ctx, source, error);
      return;
    }
    ctx.budget.settle(response.charged);

    const page = response.value;
    const room = maxVideos === undefined ? page.items.length : Math.max(0, maxVideos - videosFound);
    const listed = page.items.slice(0, room);
    const next = page.hasMore ? page.continuation : null;
    const done =
      next === null ||
      next === cursor || // a service handing back the same cursor would make us pay forever
      page.items.length === 0 ||
      source.kind === 'search' ||
      (maxVideos !== undefined && videosFound + listed.length >= maxVideos);
    const at = ctx.now();
    ctx.db.transaction(() => {
      listed.forEach((video, i) => insertListedVideo(ctx, source, video, videosFound + i + 1, at));
      if (response.charged) {
        recordCredit(ctx.db, {
          jobId: ctx.jobId,
          endpoint: endpointOf(source),
          sourceId: source.id,
          requestId: response.requestId ?? null,
          at,
        });
      }
      recordPage(ctx.db, source.id, {
        cursor: next,
        videos: listed.length,
        walkStatus: done ? 'done' : 'pending',
      });
    })();
    videosFound += listed.length;
    cursor = next;
    if (response.charged) ctx.emit('credit', { jobId: ctx.jobId, endpoint: endpointOf(source) });
    ctx.emit('page', { jobId: ctx.jobId, sourceId: source.id, videos: listed.length });
    ctx.control.notify();
    if (done) return;
  }
}

function insertListedVideo(
  ctx: RunContext,
  source: SourceRecord,
  video: VideoItem,
  listedPosition: number,
  at: string,
): void {
  // INSERT OR IGNORE: a video the job already has from another source is not added twice.
  insertItem(ctx.db, {
    jobId: ctx.jobId,
    sourceId: source.id,
    position: video.index ?? listedPosition,
    videoId: video.videoId,
    title: video.title,
    at,
  });
}

function requestPage(
  ctx: RunContext,
  source: SourceRecord,
  cursor: string | null,
): Promise<ApiResponse<VideoPage>> {
  const signal = ctx.control.signal;
  switch (source.kind) {
    case 'playlist':
      return ctx.client.playlistVideos(
        cursor === null ? { playlist: source.sourceId } : { continuation: cursor },
        signal,
      );
    case 'channel':
      return ctx.client.channelVideos(
        cursor === null ? { channel: source.resolvedChannelId ?? source.sourceId } : { continuation: cursor },
        signal,
      );
    case 'search':
      return searchPage(ctx, source.sourceId);
    case 'video':
      throw new Error('a single video has no pages to walk');
  }
}

async function searchPage(ctx: RunContext, query: string): Promise<ApiResponse<VideoPage>> {
  const limit = Math.min(SEARCH_LIMIT, ctx.options.maxVideos ?? SEARCH_LIMIT);
  const response = await ctx.client.search({ q: query, type: 'video', limit }, ctx.control.signal);
  const items = response.value.type === 'video' ? response.value.items : [];
  return { ...response, value: { items, continuation: null, hasMore: false } };
}

function endpointOf(source: SourceRecord): 'playlist/videos' | 'channel/videos' | 'search' {
  if (source.kind === 'channel') return 'channel/videos';
  return source.kind === 'search' ? 'search' : 'playlist/videos';
}

/** A 404 makes the source unavailable and other failures make it failed; the job goes on. 402/401/403 stop it. */
function recordWalkFailure(ctx: RunContext, source: SourceRecord, error: unknown): void {
  const failure = classifyFailure(error, ctx.control.signal);
  switch (failure.kind) {
    case 'aborted':
      return;
    case 'credits':
    case 'auth':
      ctx.control.stop(failure);
      return;
    case 'not_found':
      setWalkStatus(ctx.db, source.id, 'unavailable', { error: failure.message });
      return;
    case 'failed': {
      const at = ctx.now();
      ctx.db.transaction(() => {
        setWalkStatus(ctx.db, source.id, 'failed', { error: failure.message });
        if (failure.charged) {
          recordCredit(ctx.db, { jobId: ctx.jobId, endpoint: endpointOf(source), sourceId: source.id, at });
        }
      })();
      if (failure.charged) ctx.emit('credit', { jobId: ctx.jobId, endpoint: endpointOf(source) });
    }
  }
}
