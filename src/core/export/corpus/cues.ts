import { MAX_SEGMENT_SECONDS } from '../../../shared/limits';
import { plainText } from './plain-text';
import type { ExportSegment } from './types';

/** A subtitle cue in whole milliseconds, with its text split into non-empty lines. */
export interface Cue {
  startMs: number;
  endMs: number;
  lines: string[];
}

/**
 * Seconds to the nearest whole millisecond, never negative.
 *
 * Rounds the decimal the service sent, not its binary approximation: 0.5005 * 1000 gives
 * 500.49999999999994, yet a reader of the JSON expects 00:00:00,501, so the product is first cut
 * to 15 significant digits (what a double reliably holds). That cut moves the product by less than
 * 1e-14 of itself, so it can only change the rounding of a product that close to a half
 * millisecond: only those pay for it (it is slow, and a transcript has thousands of times).
 */
export function roundToMs(seconds: number): number {
  const ms = seconds * 1000;
  const nearHalf = Math.abs(ms - Math.floor(ms) - 0.5) <= Math.abs(ms) * 1e-12;
  const rounded = nearHalf || !Number.isFinite(ms) ? Math.round(Number(ms.toPrecision(15))) : Math.round(ms);
  return Math.max(0, rounded);
}

// Two subtitle files per transcript, two timestamps per cue: these beat padStart by far.
const twoDigits = (value: number): string => (value < 10 ? `0${value}` : `${value}`);
const threeDigits = (value: number): string =>
  value < 10 ? `00${value}` : value < 100 ? `0${value}` : `${value}`;

/** `HH:MM:SS,mmm` (SRT, separator ',') or `HH:MM:SS.mmm` (WebVTT, separator '.'); hours grow past 99. */
export function formatTimestamp(ms: number, separator: ',' | '.'): string {
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}${separator}${threeDigits(ms % 1000)}`;
}

/** Line breaks as they may arrive in caption text, including the Unicode line and paragraph separators. */
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/;

/**
 * The text's plain-text lines (plain-text.ts: no markup, references decoded), trimmed, without the
 * empty ones (an empty line would end a cue early). Tabs become spaces, since subtitle players show
 * them inconsistently.
 */
export function captionLines(text: string): string[] {
  return plainText(text)
    .split(LINE_BREAK)
    .map((line) => line.replaceAll('\t', ' ').trim())
    .filter((line) => line.length > 0);
}

export type TimedSegment = ExportSegment & { start: number; duration: number };

export function isTimed(segment: ExportSegment): segment is TimedSegment {
  return Number.isFinite(segment.start) && Number.isFinite(segment.duration);
}

/**
 * Seconds brought within 0 to MAX_SEGMENT_SECONDS, so that no cue line carries an absurd time. Fresh
 * bodies with times outside that range are refused (api/schemas.ts), but bodies stored by earlier
 * versions took any number. Clamping keeps their text and the timing of every sound cue, where
 * calling the whole transcript untimed would drop its subtitle files; a slightly negative start, the
 * likeliest such time, means 0 anyway.
 */
export function clampSeconds(seconds: number): number {
  return Math.min(Math.max(seconds, 0), MAX_SEGMENT_SECONDS);
}

/**
 * The cues of a transcript, or undefined when its segments carry no timestamps (fetched with
 * include_timestamp=false) or a time that is not a finite number (which no cue can place), in which
 * case no subtitle file can be made. Times are clamped (clampSeconds).
 *
 * Segments with blank text are dropped first, so that they neither make empty cues nor cut the
 * previous cue short. A cue ends at start + duration, or at the next cue's start where that falls
 * within it (as youtube-transcript-api's formatters do). No cue has zero length, which WebVTT forbids
 * and players skip (docs/product.md, the cue rule): a segment starting on the same millisecond as the
 * next one shares the next one's cue, its lines first; one whose duration is zero (or rounds to zero)
 * lasts until the next cue starts, or ZERO_DURATION_MS when no later cue does.
 */
export function buildCues(segments: readonly ExportSegment[]): Cue[] | undefined {
  if (!segments.every(isTimed)) return undefined;
  const shown = segments
    .filter(isTimed)
    .map((segment) => ({
      startMs: roundToMs(clampSeconds(segment.start)),
      endMs: roundToMs(clampSeconds(segment.start + segment.duration)),
      lines: captionLines(segment.text),
    }))
    .filter(({ lines }) => lines.length > 0);
  const cues: Cue[] = [];
  let sharing: string[] = [];
  shown.forEach((cue, index) => {
    const lines = [...sharing, ...cue.lines];
    sharing = [];
    const nextStartMs = shown[index + 1]?.startMs;
    if (nextStartMs === cue.startMs) {
      sharing = lines;
      return;
    }
    const later = nextStartMs !== undefined && nextStartMs > cue.startMs ? nextStartMs : undefined;
    let endMs = later === undefined ? cue.endMs : Math.min(cue.endMs, later);
    if (endMs <= cue.startMs) endMs = later ?? Math.min(cue.startMs + ZERO_DURATION_MS, MAX_CUE_MS);
    // Only a start clamped to the very end of time can still meet its end: it starts a moment before.
    cues.push({ startMs: Math.min(cue.startMs, endMs - 1), endMs, lines });
  });
  return cues;
}

/** How long a cue of zero duration is shown when no later cue starts: long enough to be read. */
export const ZERO_DURATION_MS = 1000;

const MAX_CUE_MS = MAX_SEGMENT_SECONDS * 1000;
