import type { Database } from './database';
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
 * Stores a transcript in the shared cache and returns its id (the existing row's when another job won
 * the race). The Library indexes it afterwards (core/engine/transcript-preparation.ts).
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
  if (inserted !== undefined) return inserted.id;
  const id = findTranscriptId(db, transcript);
  if (id === undefined) throw new Error(`The transcript of ${transcript.videoId} could not be stored`);
  return id;
}
