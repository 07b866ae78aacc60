import { ITEM_STATUS } from '../../../shared/vocabulary';
import { withoutControls } from './plain-text';
import { videoUrl } from '../../../shared/video-links';
import { channelTitleOf, publishedOf, requestedLanguageOf } from './json-records';
import { MAX_CSV_CELL_CHARS, PATH_LIST_SEPARATOR } from './schema';
import type { ExportChange, ExportMembership, ExportSourceFailure, ExportVideo } from './types';

export type CsvValue = string | number | undefined;

/** What a spreadsheet may run as a formula when a cell starts with it (OWASP "CSV injection"). */
const FORMULA_TRIGGERS = ['=', '+', '-', '@', '\t', '\r'];

/**
 * A text cell made safe to open in a spreadsheet: control characters removed (tab, CR and LF stay:
 * quoting carries them), then an apostrophe put before a formula trigger, which spreadsheets hide
 * and read as "this is text"; cut to MAX_CSV_CELL_CHARS (only a broken service sends a longer title,
 * which the records of transcripts.jsonl keep whole).
 */
function neutralisedCell(text: string): string {
  const cell = withoutControls(text);
  const neutral = FORMULA_TRIGGERS.some((trigger) => cell.startsWith(trigger)) ? `'${cell}` : cell;
  return neutral.length <= MAX_CSV_CELL_CHARS ? neutral : cutBetweenCodePoints(neutral, MAX_CSV_CELL_CHARS);
}

/** The first `length` UTF-16 units of `text`, one fewer if that would split a surrogate pair. */
function cutBetweenCodePoints(text: string, length: number): string {
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/**
 * After a leading '@' or '-', what an identifier may hold and still be no formula: a spreadsheet reads
 * `@ch_n10` or `-dQw4w9WgXc` as a name or a sum at worst, never as a function call.
 */
const HARMLESS_AFTER_SIGN = /^[@-][\p{L}\p{N}_.-]*$/u;

/**
 * An identifier cell (a video ID, a source, a list or channel ID, a code, a language, a URL, a date,
 * a path): exact, so that tables join on it (`@channel` in index.csv is `@channel` in manifest.json);
 * control characters removed. Only a value that could run as a formula, which no real identifier is
 * and only a misbehaving service could send, is neutralised like free text.
 */
function identifierCell(text: string): string {
  const cell = withoutControls(text);
  const first = cell[0];
  const risky =
    first === '=' ||
    first === '+' ||
    first === '\t' ||
    first === '\r' ||
    ((first === '@' || first === '-') && !HARMLESS_AFTER_SIGN.test(cell));
  if (risky) return neutralisedCell(cell);
  return cell.length <= MAX_CSV_CELL_CHARS ? cell : cutBetweenCodePoints(cell, MAX_CSV_CELL_CHARS);
}

/** An identifier cell; a missing value stays empty. */
export function idCell(value: string | null | undefined): string | undefined {
  return value === undefined || value === null ? undefined : identifierCell(value);
}

/** A cell that must be quoted (RFC 4180): it holds a comma, a quote, '\n' or a lone '\r'. */
const NEEDS_QUOTES = /[",\n\r]/;

/**
 * One CSV record with its '\n' ending: a cell with a comma, a quote or a line break is quoted, its
 * quotes doubled, as csv-stringify writes them (with '\r' quoted too); written here by hand, since the
 * tables hold a row per video and csv-stringify's per-call set-up cost more than the rows.
 */
export function csvRecord(values: readonly CsvValue[]): string {
  let record = '';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const cell = value === undefined ? '' : typeof value === 'number' ? String(value) : value;
    if (i > 0) record += ',';
    record += NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
  }
  return `${record}\n`;
}

/** A free-text cell (a title, a channel's name, a message) neutralised; a missing value stays empty. */
export function textCell(value: string | null | undefined): string | undefined {
  return value === undefined || value === null ? undefined : neutralisedCell(value);
}

export const INDEX_CSV_HEADER = [
  'video_id',
  'title',
  'language',
  'status',
  'segments',
  'source',
  'position',
  'channel_title',
  'channel_id',
  'published',
  'duration_seconds',
  'view_count',
  'url',
  'requested_language',
  'word_count',
  'fetched_at',
  'files',
  'number',
  'published_from',
  'published_to',
  'listed_at',
];
export const ERRORS_CSV_HEADER = ['video_id', 'status', 'http_status', 'code', 'message', 'source'];
export const MEMBERSHIPS_CSV_HEADER = [
  'video_id',
  'source',
  'list_id',
  'list_title',
  'position',
  'listed_at',
];
export const CHANGES_CSV_HEADER = ['version', 'video_id', 'change', 'detail'];

/** A header line. */
export function csvHeader(columns: readonly string[]): string {
  return csvRecord(columns);
}

/** A number cell; NaN and the infinities, which no reader would take for numbers, stay empty. */
function finiteOrEmpty(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}

/** What writing an ok video's transcript gave index.csv. */
export interface WrittenTranscript {
  wordCount: number;
  /** The video's paths in the ZIP. */
  files: readonly string[];
}

/**
 * One row of index.csv. `language` (the one obtained), `segments`, `requested_language`, `word_count`,
 * `fetched_at` and `files` are empty unless ok; `position` (in its playlist or channel, as last read) and the
 * listing's columns are empty when unknown. `files` separates the paths with '|', which no path holds.
 * Status is ok, unavailable, failed, skipped, or pending in a corpus written before its job finished.
 * Free text (the title, the channel's name, the listing's wording of the date) is neutralised for
 * spreadsheets; identifiers, numbers and dates are written as they are.
 */
export function indexRow(video: ExportVideo, written: WrittenTranscript | undefined): string {
  const ok = video.status === ITEM_STATUS.ok;
  const { listing } = video;
  const published = publishedOf(video);
  return csvRecord([
    identifierCell(video.videoId),
    textCell(video.title),
    ok ? idCell(video.language) : undefined,
    video.status,
    ok ? (video.segmentCount ?? 0) : undefined,
    identifierCell(video.source),
    video.latestRead === undefined ? video.position : (video.latestRead.position ?? undefined),
    textCell(ok ? channelTitleOf(video) : listing?.channelTitle),
    idCell(listing?.channelId),
    textCell(listing?.published),
    finiteOrEmpty(listing?.durationSeconds),
    finiteOrEmpty(listing?.viewCount),
    videoUrl(video.videoId),
    ok ? idCell(requestedLanguageOf(video)) : undefined,
    written?.wordCount,
    ok ? idCell(video.fetchedAt) : undefined,
    idCell(written?.files.join(PATH_LIST_SEPARATOR)),
    video.number,
    published?.from,
    published?.to,
    idCell(video.latestRead?.listedAt ?? video.listedAt),
  ]);
}

/** One row of memberships.csv: a source that holds a video, with its place and when it was read. */
export function membershipRow(membership: ExportMembership): string {
  return csvRecord([
    identifierCell(membership.videoId),
    identifierCell(membership.source),
    idCell(membership.listId),
    textCell(membership.listTitle),
    membership.position ?? undefined,
    idCell(membership.listedAt),
  ]);
}

/** One row of changes.csv. */
export function changeRow(change: ExportChange): string {
  // The detail is made of statuses, codes and sources, written as they are.
  return csvRecord([
    change.version,
    identifierCell(change.videoId),
    change.change,
    identifierCell(change.detail),
  ]);
}

/**
 * errors.csv: first a row per source that could not be walked (no video ID; the source in `source`),
 * then one row per video that is not ok, with the source that brought it.
 */
export function* errorsCsv(
  videos: Iterable<ExportVideo>,
  failedSources: readonly ExportSourceFailure[] = [],
): Generator<string> {
  yield csvRecord(ERRORS_CSV_HEADER);
  for (const source of failedSources) {
    yield csvRecord([
      undefined,
      source.status,
      source.httpStatus,
      idCell(source.code),
      textCell(source.message),
      identifierCell(source.source),
    ]);
  }
  for (const video of videos) {
    if (video.status === ITEM_STATUS.ok) continue;
    yield csvRecord([
      identifierCell(video.videoId),
      video.status,
      video.httpStatus,
      idCell(video.code),
      textCell(video.message),
      identifierCell(video.source),
    ]);
  }
}
