/**
 * The reference model's selection, written from docs/product.md apart from src/core: whether the job's
 * filters select a video at its place in one read of a list. A verdict is 'either' where the model
 * cannot tell: a listing's words ("3 hours ago") that crossed a boundary while the command ran.
 */
import type { VideoDescription } from '../../src/simulator';

/**
 * One part of --items, yt-dlp's --playlist-items syntax: a position (negative: from the end), a
 * dashed range, or a slice `[START]:[STOP][:STEP]` (inclusive; negative ends count from the end).
 */
export type ItemsPart =
  { at: number } | { from: number; to: number } | { start?: number; stop?: number; step?: number };

/** --items as the model generates it; `ranges` and `last` are the form of earlier recorded sequences. */
export interface ItemsSpec {
  parts?: ItemsPart[];
  ranges?: Array<[number, number]>;
  last?: number;
}

export interface JobArgs {
  sources: string[];
  /** --lang as typed ('es,en,orig'); absent: the original track. */
  lang?: string;
  noTimestamps?: boolean;
  noMetadata?: boolean;
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
  chunkSeconds?: number;
  chunkOverlap?: number;
}

export type Verdict = 'yes' | 'no' | 'either';

/** Every part of an ItemsSpec, whichever form it was written in. */
function partsOf(spec: ItemsSpec): ItemsPart[] {
  return [
    ...(spec.parts ?? []),
    ...(spec.ranges ?? []).map(([from, to]) => ({ from, to })),
    ...(spec.last === undefined ? [] : [{ start: -spec.last }]),
  ];
}

/** "1-5,8,-3:,2:9:3": the spec as --items takes it. */
export function itemsText(spec: ItemsSpec): string {
  return partsOf(spec)
    .map((part) => {
      if ('at' in part) return String(part.at);
      if ('from' in part) return `${part.from}-${part.to}`;
      const slice = `${part.start ?? ''}:${part.stop ?? ''}`;
      return part.step === undefined ? slice : `${slice}:${part.step}`;
    })
    .join(',');
}

/** Whether the spec counts from the list's end, so that its verdict needs the list's size. */
export function itemsNeedSize(spec: ItemsSpec): boolean {
  return partsOf(spec).some((part) =>
    'at' in part ? part.at < 0 : 'from' in part ? false : (part.start ?? 0) < 0 || (part.stop ?? 0) < 0,
  );
}

function itemsSelect(spec: ItemsSpec, position: number, size: number): boolean {
  const at = (n: number): number => (n < 0 ? size + 1 + n : n);
  return partsOf(spec).some((part) => {
    if ('at' in part) return position === at(part.at);
    if ('from' in part) return position >= part.from && position <= part.to;
    const first = part.start === undefined ? 1 : at(part.start);
    const last = part.stop === undefined ? Infinity : at(part.stop);
    return position >= first && position <= last && (position - first) % (part.step ?? 1) === 0;
  });
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

export const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

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

/**
 * Where a read found a video: its position in a list of `size`, when the page was read (some time
 * within the command's span), and whether the read had its exact publication time (channel/latest).
 */
export interface Place {
  position: number;
  size: number;
  at: { start: number; end: number };
  exact: boolean;
}

/** The interval of days the app reads for a video found at `place` (the words read at `at`). */
export function intervalAt(
  video: VideoDescription,
  exact: boolean,
  at: number,
): { from: string; to: string } {
  const published = Date.parse(video.published);
  return exact ? { from: day(published), to: day(published) } : wordedInterval(published, at);
}

function dateVerdict(args: JobArgs, video: VideoDescription, place: Place): Verdict {
  if (args.publishedAfter === undefined && args.publishedBefore === undefined) return 'yes';
  // The page was read some time within the span: its words may have crossed a boundary meanwhile.
  const first = dateWindowKeeps(args, intervalAt(video, place.exact, place.at.start));
  const last = dateWindowKeeps(args, intervalAt(video, place.exact, place.at.end));
  if (first !== last) return 'either';
  return first ? 'yes' : 'no';
}

/** Whether the job's filters select `video` at its place in one read of a list. */
export function selects(args: JobArgs, video: VideoDescription, place: Place): Verdict {
  if (args.items !== undefined && !itemsSelect(args.items, place.position, place.size)) return 'no';
  if (args.matchTitle !== undefined && !new RegExp(args.matchTitle, 'iu').test(video.title)) return 'no';
  if (args.rejectTitle !== undefined && new RegExp(args.rejectTitle, 'iu').test(video.title)) return 'no';
  if (args.minDuration !== undefined && video.lengthSeconds < args.minDuration) return 'no';
  if (args.maxDuration !== undefined && video.lengthSeconds > args.maxDuration) return 'no';
  if (args.skipUncaptioned === true && !video.hasCaptions) return 'no';
  return dateVerdict(args, video, place);
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
