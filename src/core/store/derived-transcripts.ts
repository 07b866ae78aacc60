import type { Database } from './database';
import { rangeOf } from './library-index';
import { preparedFor } from './prepared';

/**
 * What each stored transcript makes whatever job exports it (the derived-transcripts migration), and the stored
 * transcripts that background work is still to do for: deriving them, or indexing them for the
 * Library (library-index.ts). Both are done by core/engine after the transaction that stores a
 * transcript, a batch at a time in the order of their ids.
 */

/** A derived transcript as its row holds it; core/export/derived-transcript.ts says what the blobs hold. */
export interface DerivedTranscriptRow {
  wordCount: number;
  spokenSeconds: number;
  timed: boolean;
  title: string | null;
  authorName: string | null;
  recordTail: Buffer;
  files: Buffer;
}

/** A stored transcript not derived yet, with what reading it again needs. */
export interface UnderivedTranscript {
  id: number;
  videoId: string;
  /** '' for the original track. */
  requestedLang: string;
  includeTimestamp: boolean;
  sendMetadata: boolean;
  /** The JSON body as received. */
  body: string;
}

interface StoredUnderived {
  id: number;
  video_id: string;
  requested_lang: string;
  include_timestamp: number;
  send_metadata: number;
  body: string;
}

/**
 * The transcripts with an id in [@from, @to] still to prepare: not derived by @derivation (when one is
 * asked for), or in the index's older range (@olderFrom, @olderTo] or past its recent mark
 * @recentFrom. The lookup of a derived row reads only its index.
 */
const TO_PREPARE = `FROM transcripts t
  LEFT JOIN derived_transcripts d ON d.transcript_id = t.id AND d.derivation = @derivation
  WHERE t.id BETWEEN @from AND @to AND ((@derivation IS NOT NULL AND d.transcript_id IS NULL)
     OR (t.id > @olderFrom AND t.id <= @olderTo) OR t.id > @recentFrom)`;

interface ToPrepare {
  derivation: string | null;
  from: number;
  to: number;
  olderFrom: number;
  olderTo: number;
  recentFrom: number;
}

/** Ids of transcripts, both ends included. */
export interface TranscriptIds {
  from: number;
  to: number;
}

const EVERY_TRANSCRIPT: TranscriptIds = { from: 0, to: Number.MAX_SAFE_INTEGER };

const statements = preparedFor((db) => ({
  underived: db.prepare<[string, number, number, number], StoredUnderived>(
    `SELECT t.id, t.video_id, t.requested_lang, t.include_timestamp, t.send_metadata, t.body
     FROM transcripts t LEFT JOIN derived_transcripts d ON d.transcript_id = t.id AND d.derivation = ?
     WHERE t.id > ? AND t.id <= ? AND d.transcript_id IS NULL ORDER BY t.id LIMIT ?`,
  ),
  toPrepare: db.prepare<[ToPrepare], number>(`SELECT count(*) ${TO_PREPARE}`).pluck(),
  anyToPrepare: db.prepare<[ToPrepare], number>(`SELECT EXISTS (SELECT 1 ${TO_PREPARE})`).pluck(),
  latest: db.prepare<[], number>('SELECT coalesce(max(id), 0) FROM transcripts').pluck(),
  store: db.prepare<[number, string, number, number, number, string | null, string | null, Buffer, Buffer]>(
    `INSERT OR REPLACE INTO derived_transcripts
       (transcript_id, derivation, word_count, spoken_seconds, timed, title, author_name, record_tail, files)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
}));

/** The first `limit` transcripts with an id in (after, until] that `derivation` has not derived. */
export function underivedTranscripts(
  db: Database,
  { derivation, after, until, limit }: { derivation: string; after: number; until: number; limit: number },
): UnderivedTranscript[] {
  return statements(db)
    .underived.all(derivation, after, until, limit)
    .map((row) => ({
      id: row.id,
      videoId: row.video_id,
      requestedLang: row.requested_lang,
      includeTimestamp: row.include_timestamp === 1,
      sendMetadata: row.send_metadata === 1,
      body: row.body,
    }));
}

/**
 * How many stored transcripts are still to be derived by `derivation` (none asked for when null) or
 * indexed for the Library: each counts once.
 */
export function countTranscriptsToPrepare(db: Database, derivation: string | null): number {
  return statements(db).toPrepare.get(toPrepare(db, derivation, EVERY_TRANSCRIPT)) ?? 0;
}

/**
 * Whether any stored transcript (of `ids`, by default every one) is still to be derived by
 * `derivation` (none asked for when null) or indexed.
 */
export function anyTranscriptToPrepare(
  db: Database,
  derivation: string | null,
  ids: TranscriptIds = EVERY_TRANSCRIPT,
): boolean {
  return statements(db).anyToPrepare.get(toPrepare(db, derivation, ids)) === 1;
}

function toPrepare(db: Database, derivation: string | null, { from, to }: TranscriptIds): ToPrepare {
  const older = rangeOf(db, 'older');
  return {
    derivation,
    from,
    to,
    olderFrom: older.from,
    olderTo: older.to,
    recentFrom: rangeOf(db, 'recent').from,
  };
}

/** The id of the transcript stored last (0 when none is). */
export function latestTranscriptId(db: Database): number {
  return statements(db).latest.get() ?? 0;
}

/**
 * Keeps what transcripts derived by `derivation`, replacing what they derived another way; in the
 * caller's transaction.
 */
export function storeDerivedTranscripts(
  db: Database,
  derivation: string,
  rows: ReadonlyArray<{ transcriptId: number; derived: DerivedTranscriptRow }>,
): void {
  const { store } = statements(db);
  for (const { transcriptId, derived } of rows) {
    store.run(
      transcriptId,
      derivation,
      derived.wordCount,
      derived.spokenSeconds,
      derived.timed ? 1 : 0,
      derived.title,
      derived.authorName,
      derived.recordTail,
      derived.files,
    );
  }
}
