import { DEFAULT_CHUNKING } from '../../../shared/vocabulary';
import { clampSeconds, isTimed, roundToMs } from './cues';
import { plainLine } from './plain-text';
import type { ExportSegment } from './types';

/** How passages are cut: their target length and the overlap between consecutive ones, in seconds. */
export interface Chunking {
  targetSeconds: number;
  overlapSeconds: number;
}

export { DEFAULT_CHUNKING };

/** A passage of a transcript, in whole milliseconds, with its plain text. */
export interface Chunk {
  startMs: number;
  endMs: number;
  text: string;
}

/** A segment as passages use it: its times clamped and rounded as in subtitles (cues.ts), its text on one line. */
interface Piece {
  startMs: number;
  endMs: number;
  text: string;
}

/**
 * The passages of a transcript for chunks.jsonl, or undefined when its segments carry no times
 * (then it has no passages). The rule, with T the target and O the overlap (O < T, checked upstream):
 *
 * - Segments whose plain text is empty are left out; the others are taken in the order sent.
 * - A passage starts at a segment and takes the following segments one by one for as long as it
 *   spans at most T seconds: from its first segment's start to the latest end (start + duration)
 *   among its segments. It holds at least one segment, so a segment longer than T is a passage alone.
 * - Its start is its first segment's start, its end that latest end; its text the segments' plain
 *   text joined by spaces.
 * - The next passage starts at the first segment after this one's first that starts at or after
 *   (end - O), so that it repeats the segments of this one's last O seconds; but never later than
 *   the segment after this one's last, so that every segment is in a passage. The last passage is the
 *   one that reaches the last segment.
 *
 * Passages are made of whole segments, so two consecutive ones overlap by about O seconds, not exactly.
 */
export function buildChunks(segments: readonly ExportSegment[], chunking: Chunking): Chunk[] | undefined {
  if (!segments.every(isTimed)) return undefined;
  const targetMs = roundToMs(chunking.targetSeconds);
  const overlapMs = roundToMs(chunking.overlapSeconds);
  const pieces: Piece[] = segments
    .filter(isTimed)
    .map((segment) => {
      const startMs = roundToMs(clampSeconds(segment.start));
      const endMs = roundToMs(clampSeconds(segment.start + segment.duration));
      return { startMs, endMs: Math.max(startMs, endMs), text: plainLine(segment.text) };
    })
    .filter((piece) => piece.text !== '');

  const chunks: Chunk[] = [];
  let first = 0;
  for (;;) {
    const opening = pieces[first];
    if (opening === undefined) return chunks;
    let last = first;
    let endMs = opening.endMs;
    for (let next = pieces[last + 1]; next !== undefined; next = pieces[last + 1]) {
      const widerEndMs = Math.max(endMs, next.endMs);
      if (widerEndMs - opening.startMs > targetMs) break;
      last += 1;
      endMs = widerEndMs;
    }
    const text = pieces
      .slice(first, last + 1)
      .map((piece) => piece.text)
      .join(' ');
    chunks.push({ startMs: opening.startMs, endMs, text });
    if (last === pieces.length - 1) return chunks;
    let following = first + 1;
    while (following <= last && (pieces[following]?.startMs ?? Infinity) < endMs - overlapMs) following += 1;
    first = following;
  }
}
