import { z } from 'zod';
import type { Database } from './database';
import { ITEM_STATUS, ITEM_STATUSES, type ItemStatus } from '../../shared/vocabulary';
import { preparedFor, sqlLiterals } from './prepared';
import type { ItemListing } from './items';
import { SOURCE_KINDS, type SourceKindName } from './sources';

const ITEM = sqlLiterals(ITEM_STATUS);

/**
 * One row of the page query, as SQLite returns it. Every column comes from this version's schema
 * (migrations bring older files up to it), and the two enumerations are checked row by row in
 * checkedRow: the export reads a whole job several times, so a schema parse of every row would be
 * most of its time.
 */
interface StoredRow {
  item_id: number;
  video_id: string;
  item_title: string;
  status: ItemStatus;
  position: number;
  attempts: number;
  http_status: number | null;
  code: string | null;
  message: string | null;
  source_id: number;
  source_position: number;
  source_kind: SourceKindName;
  source_input: string;
  transcript_id: number | null;
  language: string | null;
  requested_lang: string | null;
  transcript_title: string | null;
  segment_count: number | null;
  fetched_at: string | null;
  channel_id: string | null;
  channel_title: string | null;
  published: string | null;
  duration_seconds: number | null;
  view_count: number | null;
  has_captions: number | null;
}

const ITEM_STATUS_SET: ReadonlySet<string> = new Set(ITEM_STATUSES);
const SOURCE_KIND_SET: ReadonlySet<string> = new Set(SOURCE_KINDS);

function checkedRow(row: StoredRow): StoredRow {
  if (!ITEM_STATUS_SET.has(row.status) || !SOURCE_KIND_SET.has(row.source_kind)) {
    throw new Error(`item ${row.item_id} has a status or source kind this version does not know`);
  }
  return row;
}

const StoredBodySchema = z.object({ body: z.string() });

/** A stored transcript as the export sees it. */
export interface ExportTranscript {
  id: number;
  language: string;
  /** '' when the original track was asked for. */
  requestedLang: string;
  title: string | null;
  segmentCount: number;
  fetchedAt: string;
  /**
   * The JSON body as received, read from the database on first use: a pass over the rows that
   * needs only the columns above (index.csv, errors.csv) never loads the bodies.
   */
  readonly body: string;
}

/** One video of a job for export, with its source and (when ok) its transcript. */
export interface ExportRow {
  itemId: number;
  videoId: string;
  /** The listing's title, else the transcript metadata's, else ''. */
  title: string;
  status: ItemStatus;
  /** 1-based position in its source's listing (1 for a single video). */
  position: number;
  attempts: number;
  httpStatus: number | null;
  code: string | null;
  message: string | null;
  sourceId: number;
  sourcePosition: number;
  sourceKind: SourceKindName;
  /** The source as the user typed it. */
  sourceInput: string;
  /** What the list page said of the video (empty for a video given by itself). */
  listing: ItemListing;
  transcript: ExportTranscript | null;
}

/** Rows read per query: small enough for flat memory, large enough to be quick. */
const PAGE_SIZE = 256;

/** A page of a source's rows, with their source and transcript; the WHERE clause follows. */
const PAGE_SELECT = `SELECT i.id AS item_id, i.video_id, i.title AS item_title, i.status, i.position, i.attempts,
       i.http_status, i.code, i.message, s.id AS source_id, s.position AS source_position, s.kind AS source_kind,
       s.input AS source_input, t.id AS transcript_id, t.language,
       t.requested_lang, t.title AS transcript_title, t.segment_count, t.fetched_at, i.channel_id,
       i.channel_title, i.published, i.duration_seconds, i.view_count, i.has_captions
     FROM items i
     JOIN sources s ON s.id = i.source_id
     LEFT JOIN transcripts t ON t.id = i.transcript_id`;

const statements = preparedFor((db) => ({
  sources: db.prepare<[number], { id: number }>('SELECT id FROM sources WHERE job_id = ? ORDER BY position'),
  firstPage: db.prepare<[number, number], StoredRow>(
    `${PAGE_SELECT} WHERE i.source_id = ? ORDER BY i.position, i.id LIMIT ?`,
  ),
  nextPage: db.prepare<[number, number, number, number], StoredRow>(
    `${PAGE_SELECT} WHERE i.source_id = ? AND (i.position, i.id) > (?, ?) ORDER BY i.position, i.id LIMIT ?`,
  ),
  body: db.prepare<[number], unknown>('SELECT body FROM transcripts WHERE id = ?'),
  languages: db.prepare<[number], { language: string; n: number }>(
    `SELECT t.language, count(*) AS n FROM items i JOIN transcripts t ON t.id = i.transcript_id
     WHERE i.job_id = ? AND i.status = ${ITEM.ok} GROUP BY t.language ORDER BY n DESC, t.language`,
  ),
}));

/**
 * The job's videos in export order (source position, then position in the source). Reads
 * page by page rather than through one open cursor: an open cursor would keep the connection
 * busy, and a job running meanwhile on the same connection could not write. Each page starts after
 * the last row read; the first has no lower bound, since a position is whatever the list said
 * (an earlier version stored a service's negative ones as they came) and bounds nothing.
 */
export function* exportRowsOf(db: Database, jobId: number): Generator<ExportRow, void, undefined> {
  for (const { id: sourceId } of statements(db).sources.all(jobId)) {
    let after: { position: number; itemId: number } | undefined;
    for (;;) {
      const rows =
        after === undefined
          ? statements(db).firstPage.all(sourceId, PAGE_SIZE)
          : statements(db).nextPage.all(sourceId, after.position, after.itemId, PAGE_SIZE);
      for (const raw of rows) {
        const row = toExportRow(db, checkedRow(raw));
        after = { position: row.position, itemId: row.itemId };
        yield row;
      }
      if (rows.length < PAGE_SIZE) break;
    }
  }
}

/** The job's transcripts by the language they came in, most first. */
export function languagesOfJob(db: Database, jobId: number): Record<string, number> {
  return Object.fromEntries(
    statements(db)
      .languages.all(jobId)
      .map((row) => [row.language, row.n]),
  );
}

function toExportRow(db: Database, row: StoredRow): ExportRow {
  return {
    itemId: row.item_id,
    videoId: row.video_id,
    title: row.item_title || row.transcript_title || '',
    status: row.status,
    position: row.position,
    attempts: row.attempts,
    httpStatus: row.http_status,
    code: row.code,
    message: row.message,
    sourceId: row.source_id,
    sourcePosition: row.source_position,
    sourceKind: row.source_kind,
    sourceInput: row.source_input,
    listing: {
      ...(row.channel_id !== null && { channelId: row.channel_id }),
      ...(row.channel_title !== null && { channelTitle: row.channel_title }),
      ...(row.published !== null && { published: row.published }),
      ...(row.duration_seconds !== null && { durationSeconds: row.duration_seconds }),
      ...(row.view_count !== null && { viewCount: row.view_count }),
      ...(row.has_captions !== null && { hasCaptions: row.has_captions === 1 }),
    },
    transcript: row.transcript_id === null ? null : storedTranscript(db, row.transcript_id, row),
  };
}

function storedTranscript(db: Database, id: number, row: StoredRow): ExportTranscript {
  let body: string | undefined;
  return {
    id,
    language: row.language ?? '',
    requestedLang: row.requested_lang ?? '',
    title: row.transcript_title,
    segmentCount: row.segment_count ?? 0,
    fetchedAt: row.fetched_at ?? '',
    get body(): string {
      body ??= StoredBodySchema.parse(statements(db).body.get(id)).body;
      return body;
    },
  };
}
