import type { VideoItem, VideoPage } from '../api/types';
import { countListedBySource } from '../store/items';
import type { SourceRecord } from '../store/sources';
import type { RunContext } from './run-context';

/** A pagination loop found on a page: why the walk stops, and whether the page's videos are kept. */
export interface Loop {
  message: string;
  /** The page itself is suspect (it repeats what was listed): its videos are not added. */
  beforeListing: boolean;
}

/**
 * Stops a walk that would otherwise buy pages without end: a cursor handed out before in this walk
 * (A -> B -> A), a page that brings no video this list had not already listed, an empty page that
 * promises more, and more pages than the number of videos the service announced can fill.
 */
export class LoopGuard {
  readonly #source: SourceRecord;
  /** A sync reads a list it knows from its start: pages of known videos are expected there. */
  readonly #repeatsExpected: boolean;
  readonly #cursors = new Set<string>();
  /**
   * The previous page's videos: a page that repeats them is a loop even when another source of the
   * job listed them first (the database check below sees only this source's). One page, so that
   * memory does not grow with the list.
   */
  #previousPage = new Set<string>();
  #pages: number;
  #largestPage = 0;
  #expected: number | null;

  /** `fromStart`: a sync's walk, which starts over from the first page and expects known videos. */
  constructor(source: SourceRecord, fromStart = false) {
    this.#source = source;
    this.#repeatsExpected = fromStart;
    this.#pages = fromStart ? 0 : source.pages;
    this.#expected = source.expectedVideos;
    if (!fromStart && source.cursor !== null) this.#cursors.add(source.cursor);
  }

  /** Checks a page that has a next cursor; undefined when following it is sound. */
  check(ctx: RunContext, page: VideoPage, listed: VideoItem[], next: string | null): Loop | undefined {
    this.#pages += 1;
    this.#largestPage = Math.max(this.#largestPage, page.items.length);
    this.#expected = expectedVideosOf(page) ?? this.#expected;
    if (page.items.length === 0) {
      return {
        message: 'the service sent an empty page that promised more (a pagination loop)',
        beforeListing: false,
      };
    }
    const ids = listed.map((video) => video.videoId);
    const repeated =
      ids.length > 0 &&
      (ids.every((id) => this.#previousPage.has(id)) ||
        (!this.#repeatsExpected &&
          countListedBySource(ctx.db, ctx.jobId, this.#source.id, ids) === ids.length));
    if (repeated) {
      return {
        message: 'the service sent a page of videos this list had already listed (a pagination loop)',
        beforeListing: true,
      };
    }
    this.#previousPage = new Set(ids);
    if (next !== null && this.#cursors.has(next)) {
      return {
        message: 'the service sent a continuation cursor it had sent before (a pagination loop)',
        beforeListing: false,
      };
    }
    if (next !== null) this.#cursors.add(next);
    // One page of slack: pages may hold fewer videos than the first (private videos are left out).
    const pagesItCanFill =
      this.#expected === null ? Infinity : Math.ceil(this.#expected / this.#largestPage) + 1;
    if (this.#pages >= pagesItCanFill) {
      return {
        message:
          `the service kept sending pages beyond the ${this.#expected} videos it says the list holds ` +
          '(a pagination loop)',
        beforeListing: false,
      };
    }
    return undefined;
  }
}

/** playlist_info.num_videos when it is a whole number ("1,234" included). */
export function expectedVideosOf(page: VideoPage): number | null {
  const text = page.info?.['num_videos']?.replaceAll(',', '').trim();
  if (text === undefined || !/^\d+$/.test(text)) return null;
  return Number(text);
}
