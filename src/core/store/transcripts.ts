import type { Database } from './database';
import { indexTranscript } from './library';
import { preparedFor } from './prepared';

/** What makes two transcripts the same purchase. */
export interface TranscriptKey {
  videoId: string;
  /** '' for the video's original track. */
  requestedLang: string;
  includeTimestamp: boolean;
  sendMetadata: boolean;
}

export interface NewTranscript extends TranscriptKey {
  language: string;
  title: string | null;
  segmentCount: number;
  /** The JSON body as received. */
  body: string;
  fetchedAt: string;
  /** The segments' text, for the Library's index. */
  segmentTexts: readonly string[];
}

const statements = preparedFor((db) => ({
  find: db.prepare<[string, string, number, number], { id: number }>(
    `SELECT id FROM transcripts
     WHERE video_id = ? AND requested_lang = ? AND include_timestamp = ? AND send_metadata = ?`,
  ),
  insert: db.prepare<[string, string, number, number, string, string | null, number, string, string]>(
    `INSERT INTO transcripts (video_id, requested_lang, include_timestamp, send_metadata, language, title,
       segment_count, body, fetched_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (video_id, requested_lang, include_timestamp, send_metadata) DO NOTHING
     RETURNING id`,
  ),
}));

export function findTranscriptId(db: Database, key: TranscriptKey): number | undefined {
  return statements(db).find.get(
    key.videoId,
    key.requestedLang,
    Number(key.includeTimestamp),
    Number(key.sendMetadata),
  )?.id;
}

/**
 * Stores a transcript in the shared cache, indexed for the Library in the same transaction, and
 * returns its id (the existing row's, already indexed, when another job won the race).
 */
export function storeTranscript(db: Database, transcript: NewTranscript): number {
  const inserted = statements(db).insert.get(
    transcript.videoId,
    transcript.requestedLang,
    Number(transcript.includeTimestamp),
    Number(transcript.sendMetadata),
    transcript.language,
    transcript.title,
    transcript.segmentCount,
    transcript.body,
    transcript.fetchedAt,
  ) as { id: number } | undefined;
  if (inserted !== undefined) {
    indexTranscript(db, inserted.id, transcript.segmentTexts);
    return inserted.id;
  }
  const id = findTranscriptId(db, transcript);
  if (id === undefined) throw new Error(`The transcript of ${transcript.videoId} could not be stored`);
  return id;
}
