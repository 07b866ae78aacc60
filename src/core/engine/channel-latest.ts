import type { VideoItem } from '../api/types';
import { recordExactDate } from '../store/exact-dates';
import { pendingVersion } from '../store/versions';
import type { SourceRecord } from '../store/sources';
import type { RunContext } from './run-context';

/**
 * channel/latest (free) gives a channel's latest videos, newest first, with the exact time each was
 * published, where the channel's pages say "3 years ago". Every walk and every sync of a channel asks
 * it first (issue 43): a video the pages bring next takes its exact time as it is listed
 * (withExactDate), and a video the job already holds is given it then (store/exact-dates.ts: appended,
 * a change of the next version).
 */
export interface LatestVideos {
  /** The videos it names, newest first. */
  ids: string[];
  /** The exact time of each it dates, by video. */
  dates: Map<string, string>;
}

/** Asks channel/latest about a channel source; undefined when unanswered (its pages will tell). */
export async function askChannelLatest(
  ctx: RunContext,
  source: SourceRecord,
): Promise<LatestVideos | undefined> {
  let latest: LatestVideos;
  try {
    await ctx.pacer?.wait(ctx.control.stopSignal);
    const channel = source.resolvedChannelId ?? source.sourceId;
    const { value } = await ctx.client.channelLatest(channel, ctx.call);
    ctx.health.answered();
    const dates = new Map<string, string>();
    for (const video of value.videos)
      if (video.published !== undefined) dates.set(video.videoId, video.published);
    latest = { ids: value.videos.map((video) => video.videoId), dates };
  } catch {
    return undefined;
  }
  datesOfKnownVideos(ctx, latest.dates);
  return latest;
}

/** The video with the exact publication time channel/latest gave it, where it gave one. */
export function withExactDate(video: VideoItem, exactDates: ReadonlyMap<string, string>): VideoItem {
  const published = exactDates.get(video.videoId);
  return published === undefined ? video : { ...video, publishedTimeText: published };
}

/** Gives the videos the job already holds the exact times channel/latest gave them, in one transaction. */
function datesOfKnownVideos(ctx: RunContext, dates: ReadonlyMap<string, string>): void {
  if (dates.size === 0) return;
  ctx.db
    .transaction(() => {
      const version = pendingVersion(ctx.db, ctx.jobId);
      const at = ctx.now();
      for (const [videoId, published] of dates)
        recordExactDate(ctx.db, { jobId: ctx.jobId, videoId, published, version, at });
    })
    .immediate();
}
