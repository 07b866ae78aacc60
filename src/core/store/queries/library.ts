import type { SearchQuery, SearchTerm } from '../../../shared/search-query';
import type { Database } from '../database';
import { readOnlyPreparedFor } from '../prepared';

/**
 * Reading the Library's full-text index (migrations 008 and 009; library-index.ts writes it): one
 * contentless FTS5 row per segment of every stored transcript, its rowid the transcript's id times
 * SEGMENT_SLOTS plus the segment's index, so that a match names the very segments that are hits and
 * their transcripts without reading a body.
 */

/** Rowids a transcript's segments may take: segment `i` of transcript `t` is `t * SEGMENT_SLOTS + i`. */
export const SEGMENT_SLOTS = 2 ** 20;

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

// Statements that read many rows answer one row of JSON: better-sqlite3 pays about a microsecond a
// row, JSON.parse far less.
const statements = readOnlyPreparedFor((db) => ({
  matches: db
    .prepare<[string], string>(
      'SELECT json_group_array(rowid) FROM segment_index WHERE segment_index MATCH ?',
    )
    .pluck(),
  matchesWithin: db
    .prepare<[string, number, number], number>(
      'SELECT rowid FROM segment_index WHERE segment_index MATCH ? AND rowid >= ? AND rowid < ?',
    )
    .pluck(),
  factsAfter: db
    .prepare<[number], string>(
      `SELECT json_group_array(json_array(id, video_id, segment_count, language))
       FROM (SELECT id, video_id, segment_count, language FROM transcripts INDEXED BY transcripts_facts
             WHERE id > ? ORDER BY id)`,
    )
    .pluck(),
  jobTranscripts: db
    .prepare<[number], number>(
      'SELECT DISTINCT transcript_id FROM items WHERE job_id = ? AND transcript_id IS NOT NULL',
    )
    .pluck(),
  channelTitles: db
    .prepare<[], string>(
      `SELECT DISTINCT channel_title FROM items WHERE transcript_id IS NOT NULL AND channel_title IS NOT NULL`,
    )
    .pluck(),
  transcriptsOfChannels: db
    .prepare<[string], string>(
      `SELECT json_group_array(DISTINCT transcript_id) FROM items
       WHERE transcript_id IS NOT NULL AND channel_title IN (SELECT value FROM json_each(?))`,
    )
    .pluck(),
  transcriptsNamingChannels: db
    .prepare<[], string>(
      `SELECT json_group_array(DISTINCT transcript_id) FROM items
       WHERE transcript_id IS NOT NULL AND channel_title IS NOT NULL`,
    )
    .pluck(),
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
  purchase: db.prepare<
    [number],
    { video_id: string; requested_lang: string; include_timestamp: number; send_metadata: number }
  >('SELECT video_id, requested_lang, include_timestamp, send_metadata FROM transcripts WHERE id = ?'),
  body: db.prepare<[number], string>('SELECT body FROM transcripts WHERE id = ?').pluck(),
  copiesAfter: db
    .prepare<[number], string>(
      `SELECT json_group_array(json_array(id, transcript_id, copy_of, json(exceptions)))
       FROM (SELECT * FROM caption_copies WHERE id > ? ORDER BY id)`,
    )
    .pluck(),
  jobExists: db.prepare<[number], number>('SELECT 1 FROM jobs WHERE id = ?').pluck(),
}));

/**
 * The query in FTS5's syntax. Every term is a quoted string of its tokens, folded as the index's text
 * was (letters, digits and marks only, so no quote can occur inside),
 * with * after it for a prefix: nothing the user typed is read as syntax. A row is a segment, so the
 * excluded terms are FTS5's NOT: a segment that says one is not a hit, while the video's other
 * segments still may be.
 */
export function matchExpression(query: SearchQuery): string {
  const term = (t: SearchTerm) => `"${t.tokens.join(' ')}"${t.prefix ? '*' : ''}`;
  const any = (terms: readonly SearchTerm[]) => `(${terms.map(term).join(' OR ')})`;
  const all = `(${query.groups.map(any).join(' AND ')})`;
  return query.excluded.length === 0 ? all : `${all} NOT ${any(query.excluded)}`;
}

/**
 * The rowids of the segments the query matches, ascending: segment `i` of transcript `t` is
 * `t * SEGMENT_SLOTS + i`, so a transcript's matching segments come one after another.
 */
export function matchingRowids(db: Database, query: SearchQuery): number[] {
  return parsedIds(statements(db).matches.get(matchExpression(query)));
}

/** The indices of one transcript's segments the query matches, ascending. */
export function matchingSegmentsOf(db: Database, query: SearchQuery, transcriptId: number): number[] {
  const first = transcriptId * SEGMENT_SLOTS;
  return statements(db)
    .matchesWithin.all(matchExpression(query), first, first + SEGMENT_SLOTS)
    .map((rowid) => rowid - first);
}

/**
 * What never changes about the transcripts stored after `afterId`, in the order of their ids: the
 * id, the video, how many segments it has and its language.
 */
export function transcriptFactsAfter(db: Database, afterId: number): Array<[number, string, number, string]> {
  const json = statements(db).factsAfter.get(afterId);
  return json === undefined ? [] : (JSON.parse(json) as Array<[number, string, number, string]>);
}

/** Whether the job exists: a search narrowed to one that does not is refused, not found empty. */
export function jobExists(db: Database, jobId: number): boolean {
  return statements(db).jobExists.get(jobId) !== undefined;
}

/** The transcripts the items of a job hold. */
export function jobTranscriptIds(db: Database, jobId: number): Set<number> {
  return new Set(statements(db).jobTranscripts.all(jobId));
}

/** Every channel title list pages gave for the videos of stored transcripts, each once. */
export function itemChannelTitles(db: Database): string[] {
  return statements(db).channelTitles.all();
}

/** The transcripts held for a video a list page gave one of `titles` as channel. */
export function transcriptsOfChannels(db: Database, titles: readonly string[]): Set<number> {
  return new Set(parsedIds(statements(db).transcriptsOfChannels.get(JSON.stringify(titles))));
}

/** The transcripts held for a video some list page named the channel of. */
export function transcriptsNamingChannels(db: Database): Set<number> {
  return new Set(parsedIds(statements(db).transcriptsNamingChannels.get()));
}

function parsedIds(json: string | undefined): number[] {
  return json === undefined ? [] : (JSON.parse(json) as number[]);
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

/** How a stored transcript was bought (the key a job asks the cache with), without its body. */
export interface TranscriptPurchase {
  videoId: string;
  /** '' when the original track was asked for. */
  requestedLang: string;
  includeTimestamp: boolean;
  sendMetadata: boolean;
}

export function transcriptPurchase(db: Database, transcriptId: number): TranscriptPurchase | undefined {
  const row = statements(db).purchase.get(transcriptId);
  if (row === undefined) return undefined;
  return {
    videoId: row.video_id,
    requestedLang: row.requested_lang,
    includeTimestamp: row.include_timestamp === 1,
    sendMetadata: row.send_metadata === 1,
  };
}

/** How a stored transcript was bought, and its body as received. */
export function storedTranscript(
  db: Database,
  transcriptId: number,
): (TranscriptPurchase & { body: string }) | undefined {
  const purchase = transcriptPurchase(db, transcriptId);
  const body = statements(db).body.get(transcriptId);
  return purchase === undefined || body === undefined ? undefined : { ...purchase, body };
}

/** A row of caption_copies: its id, its transcript, the transcript it mostly copies, the exceptions. */
export type CaptionCopies = [number, number, number, Array<[number, number]>];

/** The rows of caption_copies added after `afterId`, in order (library-index.ts writes them). */
export function captionCopiesAfter(db: Database, afterId: number): CaptionCopies[] {
  const json = statements(db).copiesAfter.get(afterId);
  return json === undefined ? [] : (JSON.parse(json) as CaptionCopies[]);
}
