/**
 * When a video was published, as an interval of days: what a listing's words allow, no more. A date
 * ("2024-05-31", an ISO time) is exact: both ends are its day. Relative text ("3 weeks ago") is read as
 * the service words it, rounding down: at least 3 and less than 4 weeks before the page was read; a
 * month counts from 28 to 31 days and a year from 365 to 366, so that the interval holds the day
 * whatever length the service gave them.
 */

/** From and to, YYYY-MM-DD (UTC), both included; equal when the listing gives a date. */
export interface PublishedInterval {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;

/** The shortest and longest a unit of relative text can be, in ms. */
const UNIT_MS: Readonly<Record<string, readonly [number, number]>> = {
  second: [1_000, 1_000],
  minute: [60_000, 60_000],
  hour: [3_600_000, 3_600_000],
  day: [DAY_MS, DAY_MS],
  week: [7 * DAY_MS, 7 * DAY_MS],
  month: [28 * DAY_MS, 31 * DAY_MS],
  year: [365 * DAY_MS, 366 * DAY_MS],
};

const RELATIVE = /(\d+)\s*(second|minute|hour|day|week|month|year)s?\s+ago/i;
const DAY_ONLY = /^\s*(\d{4}-\d{2}-\d{2})\s*$/;
/** An ISO time with its zone; a time without one is not read (its day would depend on the reader's zone). */
const ISO_TIME = /^\s*\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})\s*$/;

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The interval a listing's `published` text allows, read at `listedAt` (ms since the epoch);
 * undefined when the text says nothing readable, or is relative and the time of reading is unknown.
 */
export function publishedInterval(
  text: string | undefined | null,
  listedAt: number | undefined | null,
): PublishedInterval | undefined {
  if (text === undefined || text === null) return undefined;
  const relative = RELATIVE.exec(text);
  if (relative !== null) {
    if (listedAt === undefined || listedAt === null || !Number.isFinite(listedAt)) return undefined;
    const count = Number(relative[1]);
    const [shortest, longest] = UNIT_MS[relative[2]!.toLowerCase()]!;
    const from = listedAt - (count + 1) * longest;
    const to = listedAt - count * shortest;
    return Number.isFinite(from) && Math.abs(from) < 8.64e15
      ? { from: dayOf(from), to: dayOf(to) }
      : undefined;
  }
  const day = DAY_ONLY.exec(text)?.[1];
  if (day !== undefined) {
    const at = Date.parse(`${day}T00:00:00Z`);
    return !Number.isNaN(at) && dayOf(at) === day ? { from: day, to: day } : undefined;
  }
  const at = ISO_TIME.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return { from: dayOf(at), to: dayOf(at) };
}

/** Where an interval lies against a window of days (YYYY-MM-DD, both included; an end may be open). */
export type WindowPlace = 'inside' | 'before' | 'after' | 'straddles-start' | 'straddles-end';

export function placeInWindow(
  interval: PublishedInterval,
  window: { after?: string | undefined; before?: string | undefined },
): WindowPlace {
  const { after, before } = window;
  // YYYY-MM-DD strings sort as the days they name.
  if (after !== undefined && interval.to < after) return 'before';
  if (before !== undefined && interval.from > before) return 'after';
  if (after !== undefined && interval.from < after) return 'straddles-start';
  if (before !== undefined && interval.to > before) return 'straddles-end';
  return 'inside';
}
