/**
 * The reference model's selection, written from docs/product.md apart from src/core: which videos a
 * read of a list names (its first --max-videos), and whether the job's filters select a video at its
 * place in that read. A verdict is 'either' where two honest readings of a date differ: the words of
 * the listing ("3 years ago", an interval) and the exact date channel/latest gives.
 */
import type { VideoDescription } from '../../src/simulator';

/** --items as the model generates it: whole ranges from the start, and perhaps the last few. */
export interface ItemsSpec {
  ranges: Array<[number, number]>;
  last?: number;
}

export interface JobArgs {
  sources: string[];
  maxVideos?: number;
  items?: ItemsSpec;
  matchTitle?: string;
  rejectTitle?: string;
  minDuration?: number;
  maxDuration?: number;
  publishedAfter?: string;
  publishedBefore?: string;
  publishedOverlap?: boolean;
  skipUncaptioned?: boolean;
  formats: string;
}

export type Verdict = 'yes' | 'no' | 'either';

/** "1-5,8-9,-3:": yt-dlp's --playlist-items syntax. */
export function itemsText(spec: ItemsSpec): string {
  const parts = spec.ranges.map(([from, to]) => `${from}-${to}`);
  if (spec.last !== undefined) parts.push(`-${spec.last}:`);
  return parts.join(',');
}

function itemsSelect(spec: ItemsSpec, position: number, size: number): boolean {
  if (spec.ranges.some(([from, to]) => position >= from && position <= to)) return true;
  return spec.last !== undefined && position > size - spec.last;
}

const DAY_MS = 86_400_000;
/** The service's units, largest first, each with the shortest and longest it can mean. */
const UNITS: ReadonlyArray<readonly [number, number, number]> = [
  // [how the service counts it, shortest, longest]
  [365 * DAY_MS, 365 * DAY_MS, 366 * DAY_MS],
  [30 * DAY_MS, 28 * DAY_MS, 31 * DAY_MS],
  [7 * DAY_MS, 7 * DAY_MS, 7 * DAY_MS],
  [DAY_MS, DAY_MS, DAY_MS],
  [3_600_000, 3_600_000, 3_600_000],
  [60_000, 60_000, 60_000],
  [1_000, 1_000, 1_000],
];

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The days a listing's words allow, read at `at`: "N units ago" is at least N and less than N+1. */
export function wordedInterval(publishedMs: number, at: number): { from: string; to: string } {
  const age = Math.max(0, at - publishedMs);
  const [counted, shortest, longest] = UNITS.find(([unit]) => age >= unit) ?? UNITS[UNITS.length - 1]!;
  const amount = Math.floor(age / counted);
  return { from: day(at - (amount + 1) * longest), to: day(at - amount * shortest) };
}

/** Whether an interval of days lies in the window (wholly, or with --published-overlap partly). */
export function dateWindowKeeps(args: JobArgs, interval: { from: string; to: string }): boolean {
  const { publishedAfter: after, publishedBefore: before } = args;
  if (after !== undefined && interval.to < after) return false;
  if (before !== undefined && interval.from > before) return false;
  const whole =
    (after === undefined || interval.from >= after) && (before === undefined || interval.to <= before);
  return whole || args.publishedOverlap === true;
}

function dateVerdict(args: JobArgs, video: VideoDescription, at: number): Verdict {
  if (args.publishedAfter === undefined && args.publishedBefore === undefined) return 'yes';
  const published = Date.parse(video.published);
  const worded = dateWindowKeeps(args, wordedInterval(published, at));
  const exact = dateWindowKeeps(args, { from: day(published), to: day(published) });
  if (worded !== exact) return 'either';
  return worded ? 'yes' : 'no';
}

/** Whether the job's filters select `video`, at `position` of a list of `size` read at `at`. */
export function selects(
  args: JobArgs,
  video: VideoDescription,
  place: { position: number; size: number; at: number },
): Verdict {
  if (args.items !== undefined && !itemsSelect(args.items, place.position, place.size)) return 'no';
  if (args.matchTitle !== undefined && !new RegExp(args.matchTitle, 'iu').test(video.title)) return 'no';
  if (args.rejectTitle !== undefined && new RegExp(args.rejectTitle, 'iu').test(video.title)) return 'no';
  if (args.minDuration !== undefined && video.lengthSeconds < args.minDuration) return 'no';
  if (args.maxDuration !== undefined && video.lengthSeconds > args.maxDuration) return 'no';
  if (args.skipUncaptioned === true && !video.hasCaptions) return 'no';
  return dateVerdict(args, video, place.at);
}

/** The strongest of several lists' verdicts: kept when some list selects it. */
export function anySelects(verdicts: Iterable<Verdict>): Verdict {
  let best: Verdict = 'no';
  for (const verdict of verdicts) {
    if (verdict === 'yes') return 'yes';
    if (verdict === 'either') best = 'either';
  }
  return best;
}
