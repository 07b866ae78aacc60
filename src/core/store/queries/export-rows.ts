import { z } from 'zod';
import type { Database } from '../database';
import {
  ITEM_STATUS,
  ITEM_STATUSES,
  SOURCE_KIND,
  SOURCE_KINDS,
  type ItemStatus,
  type SourceKind,
} from '../../../shared/vocabulary';
import { readOnlyPreparedFor, sqlLiterals } from '../prepared';
import type { ItemListing } from '../items';

const ITEM = sqlLiterals(ITEM_STATUS);

/**
 * One row of the page query, as SQLite returns it. Every column comes from this version's schema
 * (migrations bring older files up to it), and the two enumerations are checked row by row in
 * checkedRow: the export reads a whole job several times, so a schema parse of every row would be
 * most of its time.
 */
export interface StoredRow {
  item_id: number;
  number: number;
  video_id: string;
  item_title: string;
  status: ItemStatus;
  position: number;
  list_position: number | null;
  list_listed_at: string | null;
  attempts: number;
  http_status: number | null;
  code: string | null;
  message: string | null;
  source_id: number;
  source_position: number;
  source_kind: SourceKind;
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
  listed_at: string | null;
  /** The positions (in the job) of every source holding the video, comma-separated. */
  member_of: string | null;
}

const ITEM_STATUS_SET: ReadonlySet<string> = new Set(ITEM_STATUSES);
const SOURCE_KIND_SET: ReadonlySet<string> = new Set(SOURCE_KINDS);

export function checkedRow(row: StoredRow): StoredRow {
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
  /** Its corpus number: fixed when the job first listed it, never changed nor reused. */
  number: number;
  videoId: string;
  /** The listing's title, else the transcript metadata's, else ''. */
  title: string;
  status: ItemStatus;
  /**
   * 1-based position in its source's listing when that list first numbered it (1 for a single video):
   * a later read of the list changes latestPosition only, so its record stays the same.
   */
  position: number;
  /**
   * Its position in that list as the latest read of it gave it (a channel's sync moves it down); null
   * for a single video, or when that read no longer found it in the list.
   */
  latestPosition: number | null;
  /** When that latest read was made; null for a single video. */
  latestListedAt: string | null;
  attempts: number;
  httpStatus: number | null;
  code: string | null;
  message: string | null;
  sourceId: number;
  sourcePosition: number;
  sourceKind: SourceKind;
  /** The source as the user typed it. */
  sourceInput: string;
  /** What the list page said of the video (empty for a video given by itself). */
  listing: ItemListing;
  /** When the page of its source that first numbered it was read; null for a video given by itself. */
  listedAt: string | null;
  /** The positions in the job of every source holding it, its own among them. */
  memberOf: number[];
  transcript: ExportTranscript | null;
}

/**
 * The date a video `i` of the job carries now: the latest exact time learned for it (migration 014,
 * store/exact-dates.ts), else what its list page said.
 */
export const CURRENT_PUBLISHED_SQL = `coalesce(
  (SELECT e.published FROM exact_dates e WHERE e.item_id = i.id ORDER BY e.id DESC LIMIT 1), i.published)`;

/** Rows read per query: small enough for flat memory, large enough to be quick. */
export const PAGE_SIZE = 256;

/**
 * A video's row as the export reads it, column by column (the name the row gives it, and where it
 * comes from in items i, sources s and transcripts t): one list for the page query below and for the
 * rows a released version keeps (store/versions.ts), so that a version is written again from the same
 * columns it was first written from. What comes from the video's memberships (its latest place in
 * its list, the sources that hold it) is kept apart, with the memberships.
 */
export const ITEM_COLUMNS: ReadonlyArray<readonly [name: string, expression: string]> = [
  ['item_id', 'i.id'],
  ['number', 'i.number'],
  ['video_id', 'i.video_id'],
  ['item_title', 'i.title'],
  ['status', 'i.status'],
  ['position', 'i.position'],
  ['attempts', 'i.attempts'],
  ['http_status', 'i.http_status'],
  ['code', 'i.code'],
  ['message', 'i.message'],
  ['source_id', 's.id'],
  ['source_position', 's.position'],
  ['source_kind', 's.kind'],
  ['source_input', 's.input'],
  ['transcript_id', 't.id'],
  ['language', 't.language'],
  ['requested_lang', 't.requested_lang'],
  ['transcript_title', 't.title'],
  ['segment_count', 't.segment_count'],
  ['fetched_at', 't.fetched_at'],
  ['channel_id', 'i.channel_id'],
  ['channel_title', 'i.channel_title'],
  ['published', CURRENT_PUBLISHED_SQL],
  ['duration_seconds', 'i.duration_seconds'],
  ['view_count', 'i.view_count'],
  ['has_captions', 'i.has_captions'],
  ['listed_at', 'i.listed_at'],
];

/** The tables ITEM_COLUMNS reads, joined. */
export const ITEM_TABLES = `items i
     JOIN sources s ON s.id = i.source_id
     LEFT JOIN transcripts t ON t.id = i.transcript_id`;

/** A page of the job's rows by corpus number, with their source, membership and transcript. */
const PAGE_SELECT = `SELECT ${ITEM_COLUMNS.map(([name, expression]) => `${expression} AS ${name}`).join(', ')},
       m.position AS list_position, m.listed_at AS list_listed_at,
       (SELECT group_concat(ms.position) FROM memberships mm JOIN sources ms ON ms.id = mm.source_id
         WHERE mm.item_id = i.id) AS member_of
     FROM ${ITEM_TABLES}
     LEFT JOIN memberships m ON m.item_id = i.id AND m.source_id = i.source_id
     WHERE i.job_id = ? AND i.number > ? ORDER BY i.number LIMIT ?`;
/** A page of memberships.csv: every source of each video, by corpus number and then source. */
/** The columns of a line of memberships.csv, from items i, memberships (or what a version kept) m and sources s. */
export const MEMBERSHIP_COLUMNS = `i.number, i.video_id, s.position AS source_position, s.kind, s.input,
       s.source_id AS list_id, s.resolved_channel_id, s.title AS list_title, m.position, m.listed_at`;
const MEMBERSHIPS_SELECT = `SELECT ${MEMBERSHIP_COLUMNS}
     FROM items i
     JOIN memberships m ON m.item_id = i.id
     JOIN sources s ON s.id = m.source_id
     WHERE i.job_id = ? AND (i.number, s.position) > (?, ?)
     ORDER BY i.number, s.position LIMIT ?`;

/** A row of MEMBERSHIPS_SELECT: columns SQLite types itself (a row per video and source: no schema parse). */
export interface StoredMembership {
  number: number;
  video_id: string;
  source_position: number;
  kind: SourceKind;
  input: string;
  list_id: string;
  resolved_channel_id: string | null;
  list_title: string | null;
  position: number | null;
  listed_at: string | null;
}

/** One line of memberships.csv: a source that holds a video. */
export interface MembershipRow {
  videoId: string;
  /** The source as the user typed it. */
  source: string;
  /** The playlist's ID, the channel's UC id; null for a search or a video given by itself. */
  listId: string | null;
  /** The list's title, as its first page gave it. */
  listTitle: string | null;
  /** The video's place in the list; null for a video given by itself. */
  position: number | null;
  listedAt: string | null;
}

const statements = readOnlyPreparedFor((db) => ({
  page: db.prepare<[number, number, number], StoredRow>(PAGE_SELECT),
  memberships: db.prepare<[number, number, number, number], StoredMembership>(MEMBERSHIPS_SELECT),
  body: db.prepare<[number], unknown>('SELECT body FROM transcripts WHERE id = ?'),
  languages: db.prepare<[number], { language: string; n: number }>(
    `SELECT t.language, count(*) AS n FROM items i JOIN transcripts t ON t.id = i.transcript_id
     WHERE i.job_id = ? AND i.status = ${ITEM.ok} GROUP BY t.language ORDER BY n DESC, t.language`,
  ),
}));

/**
 * The job's videos in export order: by corpus number, the order in which the job first listed them,
 * so that a later version only adds rows at the end. Reads page by page rather than through one open
 * cursor: an open cursor would keep the connection busy, and a job running meanwhile on the same
 * connection could not write. Each page starts after the last number read (numbers start at 1;
 * positions, whatever a list said, bound nothing).
 */
export function* exportRowsOf(db: Database, jobId: number): Generator<ExportRow, void, undefined> {
  const { page } = statements(db);
  let after = 0;
  for (;;) {
    const rows = page.all(jobId, after, PAGE_SIZE);
    for (const raw of rows) {
      const row = toExportRow(db, checkedRow(raw));
      after = row.number;
      yield row;
    }
    if (rows.length < PAGE_SIZE) return;
  }
}

/** memberships.csv's rows, page by page as exportRowsOf reads its own. */
export function* membershipRowsOf(db: Database, jobId: number): Generator<MembershipRow, void, undefined> {
  let after = { number: 0, sourcePosition: -1 };
  for (;;) {
    const rows = statements(db).memberships.all(jobId, after.number, after.sourcePosition, PAGE_SIZE);
    for (const raw of rows) {
      after = { number: raw.number, sourcePosition: raw.source_position };
      yield toMembershipRow(raw);
    }
    if (rows.length < PAGE_SIZE) return;
  }
}

/** A line of memberships.csv from its stored columns. */
export function toMembershipRow(raw: StoredMembership): MembershipRow {
  const row = checkedMembership(raw);
  return {
    videoId: row.video_id,
    source: row.input,
    listId: listIdOf(row),
    listTitle: row.list_title,
    position: row.position,
    listedAt: row.listed_at,
  };
}

/** A playlist's ID, a channel's UC id (as resolved); a search or a single video is no list with an ID. */
function checkedMembership(row: StoredMembership): StoredMembership {
  if (!SOURCE_KIND_SET.has(row.kind))
    throw new Error(`video ${row.video_id} has a source kind this version does not know`);
  return row;
}

function listIdOf(row: StoredMembership): string | null {
  if (row.kind === SOURCE_KIND.playlist) return row.list_id;
  if (row.kind === SOURCE_KIND.channel) return row.resolved_channel_id ?? row.list_id;
  return null;
}

/** The job's transcripts by the language they came in, most first. */
export function languagesOfJob(db: Database, jobId: number): Record<string, number> {
  return Object.fromEntries(
    statements(db)
      .languages.all(jobId)
      .map((row) => [row.language, row.n]),
  );
}

export function toExportRow(db: Database, row: StoredRow): ExportRow {
  return {
    itemId: row.item_id,
    number: row.number,
    videoId: row.video_id,
    title: row.item_title || row.transcript_title || '',
    status: row.status,
    position: row.position,
    latestPosition: row.list_position,
    latestListedAt: row.list_listed_at,
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
    listedAt: row.listed_at,
    memberOf: row.member_of === null ? [row.source_position] : row.member_of.split(',').map(Number),
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
