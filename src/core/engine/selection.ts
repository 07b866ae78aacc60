import {
  parsePositions,
  positionSelected,
  positionsNeedSize,
  type Filters,
  type PositionRange,
} from '../../shared/filters';
import { placeInWindow, publishedInterval } from '../../shared/published';

/** What a list page says of one video, as the filters read it. */
export interface ListedVideo {
  title: string;
  /** 1-based place in its list. */
  position: number;
  durationSeconds?: number | undefined;
  /** As given: an ISO date, or relative text ("3 weeks ago"). */
  published?: string | undefined;
  /** When its list page was read (ms since the epoch), which dates relative text. */
  listedAt?: number | undefined;
  hasCaptions?: boolean | undefined;
}

/** The filters cannot tell yet: a position counted from the end of a list whose size is not known. */
export const NEEDS_LIST_SIZE = Symbol('needs the list size');

/** "1:02:03", "12:34" or "45" as seconds; undefined for anything else (a live stream, say). */
export function lengthSeconds(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+(:\d{1,2}){0,2}$/.test(text.trim())) return undefined;
  return text
    .trim()
    .split(':')
    .reduce((total, part) => total * 60 + Number(part), 0);
}

/** "1,234 views", "1.2M views" or "987" as a number; undefined when it cannot be read. */
export function viewCount(text: string | undefined): number | undefined {
  const match = text === undefined ? null : /([\d.,]+)\s*([KMB])?/i.exec(text.replaceAll('\u00a0', ' '));
  if (match === null) return undefined;
  const scale = { k: 1e3, m: 1e6, b: 1e9 }[match[2]?.toLowerCase() ?? ''] ?? 1;
  const digits = scale === 1 ? match[1]!.replaceAll(/[.,]/g, '') : match[1]!.replaceAll(',', '');
  const value = Number(digits) * scale;
  return Number.isFinite(value) ? Math.round(value) : undefined;
}

/**
 * A job's filters, ready to judge each video a list page brings: null to take it, else the words of
 * the first filter that leaves it out.
 */
export class Selection {
  readonly #filters: Filters;
  readonly #match: RegExp | undefined;
  readonly #reject: RegExp | undefined;
  readonly #positions: PositionRange[] | undefined;

  constructor(filters: Filters | undefined) {
    this.#filters = filters ?? {};
    this.#match =
      this.#filters.matchTitle === undefined ? undefined : new RegExp(this.#filters.matchTitle, 'iu');
    this.#reject =
      this.#filters.rejectTitle === undefined ? undefined : new RegExp(this.#filters.rejectTitle, 'iu');
    const positions = this.#filters.items === undefined ? undefined : parsePositions(this.#filters.items);
    this.#positions = positions?.ok ? positions.ranges : undefined;
  }

  /** Whether positions from the end of a list are asked for: then the list's size must be known. */
  get needsListSize(): boolean {
    return this.#positions !== undefined && positionsNeedSize(this.#positions);
  }

  /**
   * `listSize` is the list's size when known (from its first page), else null. The words name the
   * filter only, never this video's length or date (the listing columns keep those), so that what
   * each filter left out can be counted by its words.
   */
  verdict(video: ListedVideo, listSize: number | null): string | null | typeof NEEDS_LIST_SIZE {
    const f = this.#filters;
    if (this.#positions !== undefined) {
      if (this.needsListSize && listSize === null) return NEEDS_LIST_SIZE;
      if (!positionSelected(this.#positions, video.position, listSize ?? 0))
        return `not at positions ${f.items}`;
    }
    if (this.#match !== undefined && !this.#match.test(video.title))
      return `title does not match /${f.matchTitle}/i`;
    if (this.#reject?.test(video.title) === true) return `title matches /${f.rejectTitle}/i`;
    const seconds = video.durationSeconds;
    if (seconds !== undefined && f.minDuration !== undefined && seconds < f.minDuration)
      return `shorter than ${f.minDuration} s`;
    if (seconds !== undefined && f.maxDuration !== undefined && seconds > f.maxDuration)
      return `longer than ${f.maxDuration} s`;
    const dates = this.#datesVerdict(video);
    if (dates !== null) return dates;
    if (f.skipUncaptioned === true && video.hasCaptions === false)
      return 'the listing says it has no captions';
    return null;
  }

  /**
   * Whether the publication interval lies in the window: wholly (or, with publishedOverlap, partly).
   * A video whose listing gives no date it can read is kept.
   */
  #datesVerdict(video: ListedVideo): string | null {
    const { publishedAfter: after, publishedBefore: before, publishedOverlap } = this.#filters;
    if (after === undefined && before === undefined) return null;
    const interval = publishedInterval(video.published, video.listedAt);
    if (interval === undefined) return null;
    switch (placeInWindow(interval, { after, before })) {
      case 'inside':
        return null;
      case 'before':
        return `published before ${after}`;
      case 'after':
        return `published after ${before}`;
      case 'straddles-start':
        return publishedOverlap === true ? null : `perhaps published before ${after}`;
      case 'straddles-end':
        return publishedOverlap === true ? null : `perhaps published after ${before}`;
    }
  }

  /** Whether the video's interval crosses an end of the date window: the filters cannot be sure of it. */
  uncertainDate(video: Pick<ListedVideo, 'published' | 'listedAt'>): boolean {
    const { publishedAfter: after, publishedBefore: before } = this.#filters;
    if (after === undefined && before === undefined) return false;
    const interval = publishedInterval(video.published, video.listedAt);
    if (interval === undefined) return false;
    const place = placeInWindow(interval, { after, before });
    return place === 'straddles-start' || place === 'straddles-end';
  }
}
