import { z } from 'zod';
import { tooLong } from './limits';

/**
 * Selection filters: applied to what list pages say of a video, before any transcript is bought.
 * A video a filter leaves out is recorded as skipped, with the filter's words, and never charged.
 * Filters are part of a job's identity. A video given by itself (not from a list) has no listing,
 * so filters do not apply to it.
 */
/** The longest filter values a job takes, in characters; checkFilters says which one is too long. */
export const FILTER_LIMITS = { titlePattern: 500, positions: 1000 } as const;

export const FiltersSchema = z.object({
  /** A regular expression the title must match (case-insensitive). */
  matchTitle: z.string().max(FILTER_LIMITS.titlePattern).optional(),
  /** A regular expression the title must not match (case-insensitive). */
  rejectTitle: z.string().max(FILTER_LIMITS.titlePattern).optional(),
  /** Seconds, from the listing's length text; a video whose length is not given is kept. */
  minDuration: z.number().int().nonnegative().optional(),
  maxDuration: z.number().int().nonnegative().optional(),
  /**
   * YYYY-MM-DD, both days included. A listing's date is an interval (published.ts): a video is kept
   * when its whole interval lies in the window, or, with publishedOverlap, when the two overlap.
   */
  publishedAfter: z.string().optional(),
  publishedBefore: z.string().optional(),
  publishedOverlap: z.boolean().optional(),
  /** Positions within each list, in yt-dlp's --playlist-items syntax: "1-50,100,-10:". */
  items: z.string().max(FILTER_LIMITS.positions).optional(),
  /** Leave out videos the listing says have no captions (off by default: see docs/product.md). */
  skipUncaptioned: z.boolean().optional(),
});

export type Filters = z.infer<typeof FiltersSchema>;

/** One part of a positions spec: from `start` to `stop` (inclusive) by `step`; null means "the end". */
export interface PositionRange {
  start: number | null;
  stop: number | null;
  step: number;
}

const WHOLE = String.raw`-?\d+`;
const SINGLE = new RegExp(`^(${WHOLE})$`);
const DASHED = /^(\d+)-(\d+)$/;
const SLICE = new RegExp(`^(${WHOLE})?:(${WHOLE})?(?::(${WHOLE}))?$`);

/**
 * Parses yt-dlp's playlist-items syntax: comma-separated `N` (negative counts from the end: -1 is the
 * last), `START-STOP`, and `[START]:[STOP][:STEP]`, all inclusive ("1:3" is 1, 2 and 3; "-10:" the
 * last ten; "::2" every other one).
 */
export function parsePositions(
  text: string,
): { ok: true; ranges: PositionRange[] } | { ok: false; reason: string } {
  const ranges: PositionRange[] = [];
  for (const raw of text.split(',')) {
    const part = raw.trim();
    const single = SINGLE.exec(part);
    const dashed = DASHED.exec(part);
    const slice = SLICE.exec(part);
    if (single !== null) {
      const n = Number(single[1]);
      if (n === 0) return { ok: false, reason: 'positions start at 1 (and -1 is the last)' };
      ranges.push({ start: n, stop: n, step: 1 });
    } else if (dashed !== null) {
      const [start, stop] = [Number(dashed[1]), Number(dashed[2])];
      if (start === 0) return { ok: false, reason: 'positions start at 1 (and -1 is the last)' };
      // A range that selects nothing is a slip, refused as 0 is, never a silent empty selection.
      if (start > stop)
        return {
          ok: false,
          reason: `"${part}" runs backwards: write the first position first (${stop}-${start})`,
        };
      ranges.push({ start, stop, step: 1 });
    } else if (slice !== null) {
      const step = slice[3] === undefined ? 1 : Number(slice[3]);
      if (step === 0) return { ok: false, reason: `"${part}": the step cannot be 0` };
      const start = slice[1] === undefined ? null : Number(slice[1]);
      const stop = slice[2] === undefined ? null : Number(slice[2]);
      if (start === 0 || stop === 0)
        return { ok: false, reason: 'positions start at 1 (and -1 is the last)' };
      if (
        start !== null &&
        stop !== null &&
        Math.sign(start) === Math.sign(stop) &&
        (stop - start) * step < 0
      )
        return { ok: false, reason: `"${part}" selects no position: its step goes away from its stop` };
      ranges.push({ start, stop, step });
    } else {
      return {
        ok: false,
        reason: `"${part}" is not a position: use N, START-STOP or START:STOP[:STEP], e.g. 1-50,100,-10:`,
      };
    }
  }
  return { ok: true, ranges };
}

/** Whether the ranges need the list's size (a negative position, or a reverse step from its end). */
export function positionsNeedSize(ranges: readonly PositionRange[]): boolean {
  return ranges.some(
    (range) =>
      (range.start !== null && range.start < 0) ||
      (range.stop !== null && range.stop < 0) ||
      (range.step < 0 && range.start === null),
  );
}

/** Whether 1-based `position` is selected, in a list of `size` videos (needed only when positionsNeedSize). */
export function positionSelected(ranges: readonly PositionRange[], position: number, size: number): boolean {
  const at = (n: number): number => (n < 0 ? size + 1 + n : n);
  return ranges.some(({ start, stop, step }) => {
    const first = start === null ? (step > 0 ? 1 : size) : at(start);
    const last = stop === null ? (step > 0 ? Infinity : 1) : at(stop);
    const [low, high] = step > 0 ? [first, last] : [last, first];
    if (position < low || position > high) return false;
    return (position - first) % step === 0;
  });
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Milliseconds since the epoch of a YYYY-MM-DD date (UTC midnight), or undefined when it is not one. */
export function parseDay(text: string): number | undefined {
  if (!DATE.test(text)) return undefined;
  const at = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== text ? undefined : at;
}

/** The first problem with a set of filters, in plain words, or null when they can be used. */
export function checkFilters(filters: Filters): string | null {
  const long =
    tooLong('--match-title', filters.matchTitle, FILTER_LIMITS.titlePattern) ??
    tooLong('--reject-title', filters.rejectTitle, FILTER_LIMITS.titlePattern) ??
    tooLong('--items', filters.items, FILTER_LIMITS.positions);
  if (long !== null) return long;
  for (const [name, pattern] of [
    ['--match-title', filters.matchTitle],
    ['--reject-title', filters.rejectTitle],
  ] as const) {
    if (pattern === undefined) continue;
    try {
      new RegExp(pattern, 'iu');
    } catch (error) {
      return `${name} ${pattern}: not a regular expression (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  for (const [name, day] of [
    ['--published-after', filters.publishedAfter],
    ['--published-before', filters.publishedBefore],
  ] as const) {
    if (day !== undefined && parseDay(day) === undefined)
      return `${name} ${day}: expected a date such as 2024-05-31`;
  }
  if (
    filters.publishedAfter !== undefined &&
    filters.publishedBefore !== undefined &&
    filters.publishedAfter > filters.publishedBefore
  ) {
    return `--published-after ${filters.publishedAfter} is later than --published-before ${filters.publishedBefore}`;
  }
  if (
    filters.publishedOverlap === true &&
    filters.publishedAfter === undefined &&
    filters.publishedBefore === undefined
  ) {
    return '--published-overlap needs --published-after or --published-before';
  }
  if (
    filters.minDuration !== undefined &&
    filters.maxDuration !== undefined &&
    filters.minDuration > filters.maxDuration
  ) {
    return `--min-duration ${filters.minDuration} is more than --max-duration ${filters.maxDuration}`;
  }
  if (filters.items !== undefined) {
    const positions = parsePositions(filters.items);
    if (!positions.ok) return `--items ${filters.items}: ${positions.reason}`;
  }
  return null;
}

/** The filters in words, one each, for the preview, the job's detail and the corpus's datasheet. */
export function describeFilters(filters: Filters): string[] {
  const words: string[] = [];
  if (filters.matchTitle !== undefined) words.push(`title matches /${filters.matchTitle}/i`);
  if (filters.rejectTitle !== undefined) words.push(`title does not match /${filters.rejectTitle}/i`);
  if (filters.minDuration !== undefined) words.push(`at least ${filters.minDuration} s long`);
  if (filters.maxDuration !== undefined) words.push(`at most ${filters.maxDuration} s long`);
  if (filters.publishedAfter !== undefined) words.push(`published on or after ${filters.publishedAfter}`);
  if (filters.publishedBefore !== undefined) words.push(`published on or before ${filters.publishedBefore}`);
  if (filters.publishedOverlap === true)
    words.push('a date known only roughly ("3 weeks ago") counts when it may fall in the window');
  if (filters.items !== undefined) words.push(`positions ${filters.items} of each list`);
  if (filters.skipUncaptioned === true) words.push('captioned, as the listing says');
  return words;
}

/** True when no filter is set. */
export function noFilters(filters: Filters | undefined): boolean {
  return (
    filters === undefined || Object.values(filters).every((value) => value === undefined || value === false)
  );
}
