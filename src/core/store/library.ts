import type { SearchQuery, SearchTerm } from '../../shared/search-query';
import { indexText } from '../../shared/search-text';
import type { Database } from './database';
import { preparedFor } from './prepared';

/**
 * The Library's full-text index (migration 007): one contentless FTS5 row per stored transcript,
 * its segments' tokens one segment a line. Segments are told apart when a transcript is read back
 * (core/app/library.ts), so the index needs no row per segment.
 */

/** A stored transcript as the Library shows it. */
export interface LibraryTranscript {
  id: number;
  videoId: string;
  requestedLang: string;
  includeTimestamp: boolean;
  sendMetadata: boolean;
  language: string;
  /** The transcript's title, else the one a list page gave; '' when neither did. */
  title: string;
  /** The channel a list page named; null when none did (the body's metadata may). */
  channelTitle: string | null;
  body: string;
}

export interface LibraryFilters {
  jobId: number | null;
  language: string | null;
}

/** Where backfilling transcripts stored before migration 007 stands. */
export interface BackfillState {
  doneThrough: number;
  untilId: number;
}

const statements = preparedFor((db) => ({
  index: db.prepare<[number, string]>('INSERT INTO transcript_index (rowid, text) VALUES (?, ?)'),
  candidates: db.prepare<
    { match: string; jobId: number | null; language: string | null },
    { id: number; rank: number }
  >(
    `SELECT transcript_index.rowid AS id, bm25(transcript_index) AS rank
     FROM transcript_index
     JOIN transcripts t ON t.id = transcript_index.rowid
     WHERE transcript_index MATCH :match
       AND (:language IS NULL OR lower(t.language) = lower(:language))
       AND (:jobId IS NULL OR EXISTS (SELECT 1 FROM items i WHERE i.job_id = :jobId AND i.transcript_id = t.id))
     ORDER BY rank`,
  ),
  transcript: db.prepare<
    [number],
    {
      id: number;
      video_id: string;
      requested_lang: string;
      include_timestamp: number;
      send_metadata: number;
      language: string;
      title: string | null;
      item_title: string | null;
      channel_title: string | null;
      body: string;
    }
  >(
    `SELECT t.id, t.video_id, t.requested_lang, t.include_timestamp, t.send_metadata, t.language, t.title,
       (SELECT i.title FROM items i WHERE i.transcript_id = t.id AND i.title <> '' LIMIT 1) AS item_title,
       (SELECT i.channel_title FROM items i WHERE i.transcript_id = t.id AND i.channel_title IS NOT NULL
        LIMIT 1) AS channel_title,
       t.body
     FROM transcripts t WHERE t.id = ?`,
  ),
  backfillState: db.prepare<[], { done_through: number; until_id: number }>(
    'SELECT done_through, until_id FROM transcript_index_backfill WHERE id = 1',
  ),
  backfillBatch: db.prepare<[number, number, number], { id: number }>(
    `SELECT id FROM transcripts WHERE id > ? AND id <= ? ORDER BY id LIMIT ?`,
  ),
  backfillCount: db.prepare<[number, number], { n: number }>(
    'SELECT count(*) AS n FROM transcripts WHERE id > ? AND id <= ?',
  ),
  backfillMark: db.prepare<[number]>('UPDATE transcript_index_backfill SET done_through = ? WHERE id = 1'),
}));

/** Indexes a transcript just stored; runs in the transaction that stores it. */
export function indexTranscript(db: Database, transcriptId: number, segmentTexts: readonly string[]): void {
  statements(db).index.run(transcriptId, indexText(segmentTexts.join('\n')));
}

/**
 * The query in FTS5's syntax. Every term is a quoted string of its tokens as typed (letters, digits
 * and marks only, so no quote can occur inside; the tokenizer folds them as it folded the index),
 * with * after it for a prefix: nothing the user typed is read
 * as syntax. Exclusions are left to the segments' check (a hit is a segment), so that a video is
 * not dropped for an excluded word it says elsewhere.
 */
export function matchExpression(query: SearchQuery): string {
  const term = (t: SearchTerm) => `"${t.spelled.join(' ')}"${t.prefix ? '*' : ''}`;
  return query.groups.map((group) => `(${group.map(term).join(' OR ')})`).join(' AND ');
}

/** The transcripts the index finds for the query, best first (bm25). */
export function searchCandidates(
  db: Database,
  query: SearchQuery,
  filters: LibraryFilters,
): Array<{ id: number; rank: number }> {
  return statements(db).candidates.all({ match: matchExpression(query), ...filters });
}

export function libraryTranscript(db: Database, transcriptId: number): LibraryTranscript | undefined {
  const row = statements(db).transcript.get(transcriptId);
  if (row === undefined) return undefined;
  return {
    id: row.id,
    videoId: row.video_id,
    requestedLang: row.requested_lang,
    includeTimestamp: row.include_timestamp === 1,
    sendMetadata: row.send_metadata === 1,
    language: row.language,
    title: row.title ?? row.item_title ?? '',
    channelTitle: row.channel_title,
    body: row.body,
  };
}

export function backfillState(db: Database): BackfillState {
  const row = statements(db).backfillState.get();
  return { doneThrough: row?.done_through ?? 0, untilId: row?.until_id ?? 0 };
}

/** How many transcripts the backfill has still to index. */
export function backfillRemaining(db: Database): number {
  const { doneThrough, untilId } = backfillState(db);
  return statements(db).backfillCount.get(doneThrough, untilId)?.n ?? 0;
}

/**
 * Indexes the next `size` transcripts the backfill has not reached, with `segmentTextsOf` reading
 * each body, and moves its mark past them in the same transaction: a process killed between batches
 * loses nothing and indexes nothing twice. Returns how many it indexed (0: the backfill is done).
 */
export function backfillBatch(
  db: Database,
  size: number,
  segmentTextsOf: (transcript: { id: number }) => readonly string[],
): number {
  const s = statements(db);
  return db
    .transaction(() => {
      // Read under the write lock: another process may have indexed this batch meanwhile.
      const { doneThrough, untilId } = backfillState(db);
      const rows = s.backfillBatch.all(doneThrough, untilId, size);
      for (const row of rows) indexTranscript(db, row.id, segmentTextsOf(row));
      const last = rows[rows.length - 1];
      if (last !== undefined) s.backfillMark.run(last.id);
      return rows.length;
    })
    .immediate();
}
