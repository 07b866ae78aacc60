import { plainLine } from '../../shared/caption-text';
import { indexText } from '../../shared/search-text';
import type { Database } from './database';
import { SEGMENT_SLOTS } from './queries/library';
import { preparedFor } from './prepared';

/**
 * Writing the Library's index (migrations 008 and 009): a row per segment of every stored
 * transcript, holding its text as the corpus's files read it (shared/caption-text.ts), folded
 * (shared/search-text.ts). Transcripts are indexed after the transaction that stores them, a batch at
 * a time in the order of their ids, each batch with the mark of how far indexing has come, in one
 * transaction: a process killed between batches loses nothing and indexes nothing twice.
 */

/** Which transcripts a batch indexes: those stored before this version (the backfill), or since. */
export type IndexPart = 'older' | 'recent';

/** A segment of a stored transcript as received: its text, and its times when it has them. */
export interface IndexedSegment {
  text: string;
  start?: number | undefined;
  duration?: number | undefined;
}

/** The segments of a stored transcript, as received (the caller reads the body). */
export type SegmentsOf = (transcriptId: number) => readonly IndexedSegment[];

const statements = preparedFor((db) => ({
  index: db.prepare<[number, string]>('INSERT INTO segment_index (rowid, text) VALUES (?, ?)'),
  marks: db.prepare<[], { done_through: number; until_id: number; indexed_through: number }>(
    'SELECT done_through, until_id, indexed_through FROM transcript_index_backfill WHERE id = 1',
  ),
  batch: db.prepare<[number, number, number], { id: number; video_id: string; language: string }>(
    'SELECT id, video_id, language FROM transcripts WHERE id > ? AND id <= ? ORDER BY id LIMIT ?',
  ),
  count: db
    .prepare<[number, number], number>('SELECT count(*) FROM transcripts WHERE id > ? AND id <= ?')
    .pluck(),
  olderMark: db.prepare<[number]>('UPDATE transcript_index_backfill SET done_through = ? WHERE id = 1'),
  recentMark: db.prepare<[number]>('UPDATE transcript_index_backfill SET indexed_through = ? WHERE id = 1'),
  earlier: db
    .prepare<[string, string, number], number>(
      'SELECT id FROM transcripts WHERE video_id = ? AND language = ? AND id < ? ORDER BY id',
    )
    .pluck(),
  copies: db.prepare<[number, number, string]>(
    'INSERT OR IGNORE INTO caption_copies (transcript_id, copy_of, exceptions) VALUES (?, ?, ?)',
  ),
  times: db.prepare<[number, number, Buffer]>(
    'INSERT OR REPLACE INTO caption_times (transcript_id, total_ms, caption_ms) VALUES (?, ?, ?)',
  ),
}));

/** The transcripts a part covers: ids in (from, to]. */
function rangeOf(db: Database, part: IndexPart): { from: number; to: number } {
  const marks = statements(db).marks.get();
  if (marks === undefined) return { from: 0, to: 0 };
  return part === 'older'
    ? { from: marks.done_through, to: marks.until_id }
    : { from: marks.indexed_through, to: Number.MAX_SAFE_INTEGER };
}

/** How many stored transcripts are not indexed yet, in each part. */
export function unindexedCounts(db: Database): Record<IndexPart, number> {
  const { count } = statements(db);
  const older = rangeOf(db, 'older');
  const recent = rangeOf(db, 'recent');
  return { older: count.get(older.from, older.to) ?? 0, recent: count.get(recent.from, recent.to) ?? 0 };
}

/** The id of the last transcript of the part indexed so far. */
export function indexedThrough(db: Database, part: IndexPart): number {
  return rangeOf(db, part).from;
}

/**
 * Indexes the next `size` transcripts of the part, reading their segments with `segmentsOf`, records
 * their captions' airtime, and moves the part's mark past them in the same transaction. Returns how
 * many it indexed (0: none left).
 */
export function indexNextTranscripts(
  db: Database,
  part: IndexPart,
  size: number,
  segmentsOf: SegmentsOf,
): number {
  const s = statements(db);
  return db
    .transaction(() => {
      // Read under the write lock: another process may have indexed this batch meanwhile.
      const { from, to } = rangeOf(db, part);
      const rows = s.batch.all(from, to, size);
      const textsOf = (id: number) => segmentsOf(id).map((segment) => plainLine(segment.text));
      for (const row of rows) {
        const segments = segmentsOf(row.id);
        const lines = segments.map((segment) => plainLine(segment.text));
        indexLines(db, row.id, lines);
        recordAirtime(db, row.id, segments, lines);
        const earlier = s.earlier.all(row.video_id, row.language, row.id);
        if (earlier.length > 0) recordCopies(db, row.id, lines, earlier, textsOf);
      }
      const last = rows[rows.length - 1];
      if (last !== undefined) (part === 'older' ? s.olderMark : s.recentMark).run(last.id);
      return rows.length;
    })
    .immediate();
}

/**
 * A row per non-blank segment. A segment past SEGMENT_SLOTS (a million captions) would take the next
 * transcript's rowids: it is left out.
 */
function indexLines(db: Database, transcriptId: number, lines: readonly string[]): void {
  const { index } = statements(db);
  const first = transcriptId * SEGMENT_SLOTS;
  const count = Math.min(lines.length, SEGMENT_SLOTS);
  for (let i = 0; i < count; i++) {
    const line = lines[i] ?? '';
    if (line !== '') index.run(first + i, indexText(line));
  }
}

/**
 * Records which of the transcript's captions an earlier transcript of the same video and language
 * holds: a caption is the same when its place in the transcript and its text are. Each caption
 * copies the earliest transcript that holds it.
 */
function recordCopies(
  db: Database,
  transcriptId: number,
  lines: readonly string[],
  earlier: readonly number[],
  textsOf: (transcriptId: number) => readonly string[],
): void {
  const earlierLines = earlier.map(textsOf);
  const origins = lines.map((line, i) => {
    const at = earlierLines.findIndex((other) => other[i] === line);
    return at < 0 ? transcriptId : (earlier[at] ?? transcriptId);
  });
  const tally = new Map<number, number>();
  for (const origin of origins) tally.set(origin, (tally.get(origin) ?? 0) + 1);
  const copyOf = [...tally].reduce(
    (best, entry) => (entry[1] > best[1] ? entry : best),
    [transcriptId, 0],
  )[0];
  if (copyOf === transcriptId && tally.size === 1) return;
  const exceptions = origins.flatMap((origin, i) => (origin === copyOf ? [] : [[i, origin]]));
  statements(db).copies.run(transcriptId, copyOf, JSON.stringify(exceptions));
}

/**
 * Records each caption's airtime in whole milliseconds (docs/product.md, "Trends"): from its start to
 * its end (start + duration), cut at the start of the next caption when that comes between them, as
 * a subtitle file's cue ends; so captions that overlap (automatic captions roll) are not counted
 * twice. A blank segment is no caption (0), and neither is one without times (a transcript bought
 * without timestamps has no airtime).
 */
function recordAirtime(
  db: Database,
  transcriptId: number,
  segments: readonly IndexedSegment[],
  lines: readonly string[],
): void {
  const airtime = Buffer.alloc(segments.length * 4);
  let total = 0;
  let nextStart = Infinity;
  for (let i = segments.length - 1; i >= 0; i--) {
    const start = msOf(segments[i]?.start);
    const duration = msOf(segments[i]?.duration);
    if (lines[i] === '' || start === null || duration === null) continue;
    const end = nextStart > start ? Math.min(start + duration, nextStart) : start + duration;
    airtime.writeUInt32LE(Math.min(end - start, 0xffffffff), i * 4);
    total += end - start;
    nextStart = start;
  }
  statements(db).times.run(transcriptId, total, airtime);
}

/** Seconds as whole milliseconds, never negative; null when not a finite number. */
function msOf(seconds: number | undefined): number | null {
  return seconds === undefined || !Number.isFinite(seconds) ? null : Math.max(0, Math.round(seconds * 1000));
}
