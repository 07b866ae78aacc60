/**
 * Uploads added while the simulator runs (admin.addUploads): the one state of the catalog, so that
 * tests can watch a channel grow. An upload is its channel's newest video when it appears: published
 * minutes or hours before it was added (on the simulator's clock), after every earlier upload, under
 * its channel's own name.
 */
import { rngFor } from './random';

const MINUTE_MS = 60_000;
/** How old the oldest of a batch can be when it appears: "N hours ago" at most. */
const BATCH_SPAN_MS = 12 * 60 * MINUTE_MS;

/** Which channel uploaded a video added while the simulator runs, and when (epoch ms). */
export interface AddedUpload {
  channelId: string;
  publishedAt: number;
}

export class UploadBook {
  readonly #seed: number;
  /** Each channel's added uploads' publication times, oldest first: the k-th added is at k - 1. */
  readonly #times = new Map<string, number[]>();
  readonly #byVideo = new Map<string, AddedUpload>();

  constructor(seed: number) {
    this.#seed = seed;
  }

  /** How many uploads were added to the channel. */
  count(channelId: string): number {
    return this.#times.get(channelId)?.length ?? 0;
  }

  /** The video ID of the k-th upload added to a channel (1-based, oldest first). */
  videoId(channelId: string, k: number): string {
    return rngFor(this.#seed, 'added-upload', channelId, k).idChars(11);
  }

  /** The channel and publication time of an added upload, or undefined for a catalog video. */
  find(videoId: string): AddedUpload | undefined {
    return this.#byVideo.get(videoId);
  }

  /**
   * The channel uploads `count` videos, seen at `at`: the newest a seeded 1-59 minutes before `at`, each
   * earlier one as much before the next, all of them after the channel's earlier uploads and at most
   * BATCH_SPAN_MS before `at` (closer together when many come at once).
   */
  add(channelId: string, count: number, at: number): void {
    const times = this.#times.get(channelId) ?? [];
    this.#times.set(channelId, times);
    const floor = Math.max(times.at(-1) ?? -Infinity, at - BATCH_SPAN_MS);
    const minutes = rngFor(this.#seed, 'upload-gap', channelId, times.length).int(1, 59);
    const gap = Math.min(minutes * MINUTE_MS, (at - floor) / (count + 1));
    for (let older = count; older >= 1; older--) {
      const publishedAt = Math.round(at - older * gap);
      times.push(publishedAt);
      this.#byVideo.set(this.videoId(channelId, times.length), { channelId, publishedAt });
    }
  }

  clear(): void {
    this.#times.clear();
    this.#byVideo.clear();
  }
}
