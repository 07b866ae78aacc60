import { endianness } from 'node:os';
import type { Database } from '../database';
import { readOnlyPreparedFor } from '../prepared';

/**
 * What the Library's trends, concordance and distinctive words read of the transcripts besides their
 * text: when each video was published (as list pages worded it), the channel and jobs of each
 * transcript, and each caption's airtime (caption_times, migration 012). Statements that read many
 * rows answer one row of JSON, as store/queries/library.ts explains.
 */
const statements = readOnlyPreparedFor((db) => ({
  changes: db.prepare<[], number>('SELECT total_changes()').pluck(),
  dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
  listings: db
    .prepare<[], string>(
      `SELECT json_group_array(json_array(video_id, published, listed_at))
       FROM (SELECT DISTINCT video_id, published, listed_at FROM items WHERE published IS NOT NULL)`,
    )
    .pluck(),
  itemChannels: db
    .prepare<[], string>(
      `SELECT json_group_array(json_array(transcript_id, channel_title))
       FROM (SELECT transcript_id, channel_title FROM items
             WHERE transcript_id IS NOT NULL AND channel_title IS NOT NULL GROUP BY transcript_id HAVING min(id))`,
    )
    .pluck(),
  authors: db
    .prepare<[], string>(
      `SELECT json_group_array(json_array(id, json_extract(body, '$.metadata.author_name')))
       FROM transcripts WHERE id NOT IN
         (SELECT transcript_id FROM items WHERE transcript_id IS NOT NULL AND channel_title IS NOT NULL)`,
    )
    .pluck(),
  jobTranscripts: db
    .prepare<[], string>(
      `SELECT json_group_array(json_array(job_id, transcript_id))
       FROM (SELECT DISTINCT job_id, transcript_id FROM items WHERE transcript_id IS NOT NULL)`,
    )
    .pluck(),
  airtimeTotals: db
    .prepare<[], string>('SELECT json_group_array(json_array(transcript_id, total_ms)) FROM caption_times')
    .pluck(),
  airtimes: db.prepare<[string], { transcript_id: number; caption_ms: Buffer }>(
    `SELECT transcript_id, caption_ms FROM caption_times
     WHERE transcript_id IN (SELECT value FROM json_each(?))`,
  ),
}));

/**
 * A number that changes whenever the database may have changed: a commit of this connection's or
 * another's. Equal twice, nothing was written between.
 */
export function changeMark(db: Database): string {
  const s = statements(db);
  return `${s.dataVersion.get() ?? 0}:${s.changes.get() ?? 0}`;
}

/** Every distinct (video, published as a list page worded it, when that page was read). */
export function publicationListings(db: Database): Array<[string, string, string | null]> {
  return parsed(statements(db).listings.get());
}

/**
 * Each transcript's channel as the Library names it: the first list page's that named the video's,
 * else the author its body's metadata gives (null when neither does).
 */
export function transcriptChannels(db: Database): Array<[number, string | null]> {
  const s = statements(db);
  return [
    ...parsed<[number, string]>(s.itemChannels.get()),
    ...parsed<[number, unknown]>(s.authors.get()),
  ].map(([id, channel]) => [id, typeof channel === 'string' && channel !== '' ? channel : null]);
}

/** Every (job, transcript) an item holds. */
export function jobTranscriptPairs(db: Database): Array<[number, number]> {
  return parsed(statements(db).jobTranscripts.get());
}

/** Each timed transcript's airtime in all, in whole milliseconds. */
export function airtimeTotals(db: Database): Array<[number, number]> {
  return parsed(statements(db).airtimeTotals.get());
}

/** Each caption's airtime (ms, one per segment) of the transcripts asked for that are timed. */
export function captionAirtimes(db: Database, transcriptIds: readonly number[]): Map<number, Uint32Array> {
  const found = new Map<number, Uint32Array>();
  for (const row of statements(db).airtimes.all(JSON.stringify(transcriptIds)))
    found.set(row.transcript_id, littleEndianWords(row.caption_ms));
  return found;
}

const LITTLE_ENDIAN = endianness() === 'LE';

/** The BLOB's 32-bit integers, written little-endian (library-index.ts): a copy viewed at once where the machine is. */
function littleEndianWords(bytes: Buffer): Uint32Array {
  if (LITTLE_ENDIAN)
    return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  const words = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < words.length; i++) words[i] = bytes.readUInt32LE(i * 4);
  return words;
}

function parsed<T>(json: string | undefined): T[] {
  return json === undefined ? [] : (JSON.parse(json) as T[]);
}
