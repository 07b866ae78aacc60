import { CORPUS_STATUSES, ITEM_STATUS } from '../../../shared/vocabulary';

/**
 * The corpus's schema: the names of its entries, what a reader of its tables relies on, and the
 * columns of its tables and the fields of its JSON Lines records. It is the one module of corpus/ that
 * `verify` reads (eslint/layers.js): a corpus is checked against what it says of itself here, never
 * against how it is rendered.
 */

/** The entries every corpus holds by these names (docs/product.md, "ZIP layout"), besides its videos' files. */
export const CORPUS_ENTRY = {
  manifest: 'manifest.json',
  datasheet: 'README.md',
  citation: 'CITATION.cff',
  dataPackage: 'datapackage.json',
  index: 'index.csv',
  errors: 'errors.csv',
  memberships: 'memberships.csv',
  changes: 'changes.csv',
  transcripts: 'transcripts.jsonl',
  chunks: 'chunks.jsonl',
  /** The last entry: the SHA-256 of every other one, in sha256sum's format. */
  checksums: 'SHA256SUMS',
} as const;

/**
 * What separates the paths of a video's files in index.csv's `files` cell. No entry path holds it
 * (naming.ts replaces it in every name), so splitting the cell on it gives the paths back exactly
 * (names hold spaces: `txt/001 - Title [id].txt`).
 */
export const PATH_LIST_SEPARATOR = '|';

/**
 * The most characters a cell of index.csv or errors.csv holds: far above any real title or message,
 * and a bound `verify` holds the tables to, so that a crafted cell of gigabytes is refused.
 */
export const MAX_CSV_CELL_CHARS = 65_536;

/*
 * The columns and fields below are described once for datapackage.json (as Table Schema fields) and for
 * README.md (as a list). Each list follows the order in which tables.ts and json-records.ts write them.
 */

/** A Table Schema field (https://specs.frictionlessdata.io/table-schema/), with the few keys used here. */
export interface SchemaField {
  name: string;
  type: 'string' | 'integer' | 'number' | 'date' | 'datetime' | 'array';
  /** 'uri' for a URL; 'any' for a datetime: an ISO 8601 time, with or without fractions of a second. */
  format?: 'uri' | 'any';
  description: string;
  constraints?: { enum: string[] };
}

const text = (name: string, description: string): SchemaField => ({ name, type: 'string', description });
const integer = (name: string, description: string): SchemaField => ({ name, type: 'integer', description });
const seconds = (name: string, description: string): SchemaField => ({ name, type: 'number', description });
const url = (name: string, description: string): SchemaField => ({
  ...text(name, description),
  format: 'uri',
});
const day = (name: string, description: string): SchemaField => ({ name, type: 'date', description });
const time = (name: string, description: string): SchemaField => ({
  ...day(name, description),
  type: 'datetime',
  format: 'any',
});

const INDEX_FIELDS: readonly SchemaField[] = [
  text('video_id', 'The video ID.'),
  text('title', 'The video title, as the service gave it.'),
  text('language', 'The language of the transcript obtained (ok only).'),
  {
    ...text('status', 'ok, unavailable (no transcript), failed, skipped (left out by a filter), or pending.'),
    constraints: { enum: [...CORPUS_STATUSES] },
  },
  integer('segments', 'How many segments the transcript has (ok only).'),
  text(
    'source',
    'The first list that holds the video (memberships.csv has every source), as typed; the source that named it by itself when no list holds it.',
  ),
  integer(
    'position',
    'The position of the video in that list as the latest read of the list gave it; none for a video given by itself, or one that read no longer found there.',
  ),
  text('channel_title', 'The channel, as the list page gave it (for a video given by itself, its author).'),
  text('channel_id', 'The channel ID, as the list page gave it.'),
  text(
    'published',
    'When the video was published, as the list page that first numbered it worded it (such as "3 weeks ago"), or the exact time channel/latest gave it (on the read that listed it or a later one; changes.csv says when it replaced the words).',
  ),
  seconds('duration_seconds', 'The length of the video in seconds, read from the list page.'),
  integer('view_count', 'The view count, read from the list page.'),
  url('url', 'The video page.'),
  text('requested_language', 'The language asked for; orig for the original track (ok only).'),
  integer('word_count', 'How many words the plain text of the transcript has (ok only).'),
  time('fetched_at', 'When the transcript was fetched (ok only).'),
  text(
    'files',
    "The video's files in the ZIP, separated by | (which no file name holds); each path starts with its folder (txt/, json/, srt/, vtt/).",
  ),
  integer(
    'number',
    "The video's corpus number, fixed when the job first listed it and never reused; its file names start with it (six digits).",
  ),
  day(
    'published_from',
    'The earliest day it can have been published (UTC), from the list page that first numbered it.',
  ),
  day(
    'published_to',
    'The latest day it can have been published (UTC); equal to published_from when the list page gave a date.',
  ),
  time(
    'listed_at',
    'When the read of the list that gave `position` was made; none for a video given by itself.',
  ),
];

const ERRORS_FIELDS: readonly SchemaField[] = [
  text('video_id', 'The video ID; none for a playlist, channel or search that could not be walked.'),
  {
    ...text('status', 'unavailable, failed, skipped or pending.'),
    constraints: { enum: CORPUS_STATUSES.filter((status) => status !== ITEM_STATUS.ok) },
  },
  integer('http_status', "The service's HTTP status, when it answered."),
  text('code', "The service's error code; 'filter' for a video a filter left out."),
  text(
    'message',
    'What happened, in words; for a skipped video, the filter that left it out of each list that holds it ("in <list>: <filter>" when several do).',
  ),
  text('source', 'The source that brought the video, or the list that could not be walked, as typed.'),
];

const MEMBERSHIP_FIELDS: readonly SchemaField[] = [
  text('video_id', 'The video ID.'),
  text('source', 'A source that holds the video, as typed.'),
  text('list_id', "The playlist's ID or the channel's ID; none for a search or a video given by itself."),
  text('list_title', "The list's title, as its first page gave it."),
  integer(
    'position',
    'The position of the video in that list as the latest read of the list gave it (each position once); none for a video given by itself, or one that read no longer found there.',
  ),
  time('listed_at', 'When that read of the list was made; none for a video given by itself.'),
];

const CHANGE_FIELDS: readonly SchemaField[] = [
  integer(
    'version',
    'The version of the corpus that made the change (2 and up; version 1 is the first corpus).',
  ),
  text('video_id', 'The video ID; empty for a change of the corpus itself (metadata).'),
  {
    ...text(
      'change',
      'added (new to the corpus), retried (fetched again on request and changed), changed (listed by one ' +
        'more source) or metadata (what the corpus says of itself: title, description, authors, license, ' +
        'formats, passages, the tool that wrote it).',
    ),
    constraints: { enum: ['added', 'retried', 'changed', 'metadata'] },
  },
  text(
    'detail',
    'For added, the source that brought it; for retried, its status before and after; for changed, what ' +
      'changed; for metadata, which part, before -> after ("none" when absent).',
  ),
];

const TRANSCRIPT_FIELDS: readonly SchemaField[] = [
  text('video_id', 'The video ID.'),
  integer('number', "The video's corpus number, as in index.csv and its file names."),
  text('title', 'The video title (from the list page, else from the metadata).'),
  url('url', 'The video page.'),
  text('source', 'The first list that holds the video, as typed (as in index.csv).'),
  integer(
    'position',
    'The position of the video in that list when it first numbered the video (a later sync leaves it); none for a video given by itself.',
  ),
  text('channel_title', 'The channel, as the list page gave it (for a video given by itself, its author).'),
  text('channel_id', 'The channel ID, as the list page gave it.'),
  text(
    'published',
    'When the video was published, as the list page worded it (or the exact time channel/latest gave it).',
  ),
  day('published_from', 'The earliest day it can have been published (UTC).'),
  day('published_to', 'The latest day it can have been published (UTC).'),
  time('listed_at', 'When the list page that first numbered it was read (a later sync leaves it).'),
  seconds('duration_seconds', 'The length of the video in seconds, read from the list page.'),
  integer('view_count', 'The view count, read from the list page.'),
  text('language', 'The language of the transcript.'),
  text('requested_language', 'The language asked for; orig for the original track.'),
  time('fetched_at', 'When the transcript was fetched.'),
  text('author_name', 'From the metadata, when it was asked for.'),
  url('author_url', 'From the metadata, when it was asked for.'),
  url('thumbnail_url', 'From the metadata, when it was asked for.'),
  integer('segment_count', 'How many segments the transcript has.'),
  integer('word_count', 'How many words the plain text has.'),
  text('text', 'The plain text: one line per segment, markup removed, character references decoded.'),
  {
    name: 'segments',
    type: 'array',
    description:
      'The segments: {text, start, duration}, text exactly as sent, times in seconds (null when not sent).',
  },
];

const CHUNK_FIELDS: readonly SchemaField[] = [
  text('chunk_id', 'The passage: <video_id>@<start in milliseconds>, unique in the corpus.'),
  text('video_id', 'The video ID.'),
  text('language', 'The language of the transcript.'),
  text('title', 'The video title.'),
  seconds('start', 'Where the passage starts, in seconds.'),
  seconds('end', 'Where the passage ends, in seconds.'),
  text('text', 'The plain text of the passage.'),
  url('url', 'The video page, opening at the start of the passage (whole seconds).'),
];

/** The fields of each table and JSON Lines file, by its key in CORPUS_ENTRY. */
export const ENTRY_FIELDS = {
  index: INDEX_FIELDS,
  errors: ERRORS_FIELDS,
  memberships: MEMBERSHIP_FIELDS,
  changes: CHANGE_FIELDS,
  transcripts: TRANSCRIPT_FIELDS,
  chunks: CHUNK_FIELDS,
} as const satisfies Partial<Record<keyof typeof CORPUS_ENTRY, readonly SchemaField[]>>;
