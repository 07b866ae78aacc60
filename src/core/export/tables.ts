import { stringify } from 'csv-stringify/sync';
import { ITEM_STATUS } from '../../shared/vocabulary';
import { PATH_LIST_SEPARATOR } from './naming';
import { withoutControls } from './plain-text';
import { videoUrl } from './records';
import type { ExportSourceFailure, ExportVideo } from './types';

type CsvValue = string | number | undefined;

/** What a spreadsheet may run as a formula when a cell starts with it (OWASP "CSV injection"). */
const FORMULA_TRIGGERS = ['=', '+', '-', '@', '\t', '\r'];

const PLAIN_VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * The most characters a cell of index.csv or errors.csv holds: far above any real title or message,
 * and a bound `verify` holds the tables to, so that a crafted cell of gigabytes is refused.
 */
export const MAX_CSV_CELL_CHARS = 65_536;

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
 * The video_id cell: a plain video ID (11 letters, digits, '-' or '_') stays exact even when it starts
 * with '-', since it cannot hold a formula and researchers join tables on it; any other id, which
 * only a misbehaving service could send, is neutralised like every text cell.
 */
function videoIdCell(videoId: string): string {
  return PLAIN_VIDEO_ID.test(videoId) ? videoId : neutralisedCell(videoId);
}

/**
 * One CSV record with its '\n' ending. csv-stringify quotes commas, quotes and '\n' by itself, but
 * not a lone '\r', which readers take for the end of the record (RFC 4180 wants it quoted too).
 */
function csvRecord(values: readonly CsvValue[]): string {
  return stringify([values.map((value) => value ?? '')], { record_delimiter: 'unix', quoted_match: /\r/ });
}

/** A text cell neutralised; numbers stay numbers, a missing value stays empty. */
function textCell(value: string | undefined): string | undefined {
  return value === undefined ? undefined : neutralisedCell(value);
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
];
export const ERRORS_CSV_HEADER = ['video_id', 'status', 'http_status', 'code', 'message'];

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
 * `fetched_at` and `files` are empty unless ok; `position` (in its playlist or channel) and the
 * listing's columns are empty when unknown. `files` separates the paths with '|', which no path holds.
 * Status is ok, unavailable, failed, skipped, or pending in a corpus written before its job finished.
 */
export function indexRow(video: ExportVideo, written: WrittenTranscript | undefined): string {
  const ok = video.status === ITEM_STATUS.ok;
  const { listing } = video;
  return csvRecord([
    videoIdCell(video.videoId),
    textCell(video.title),
    ok ? textCell(video.language) : undefined,
    video.status,
    ok ? (video.segmentCount ?? 0) : undefined,
    textCell(video.source),
    video.position,
    textCell(listing?.channelTitle),
    textCell(listing?.channelId),
    textCell(listing?.published),
    finiteOrEmpty(listing?.durationSeconds),
    finiteOrEmpty(listing?.viewCount),
    videoUrl(video.videoId),
    ok ? textCell(video.requestedLanguage) : undefined,
    written?.wordCount,
    ok ? textCell(video.fetchedAt) : undefined,
    textCell(written?.files.join(PATH_LIST_SEPARATOR)),
  ]);
}

/**
 * errors.csv: first a row per source that could not be walked (its text in place of a video id),
 * then one row per video that is not ok.
 */
export function* errorsCsv(
  videos: Iterable<ExportVideo>,
  failedSources: readonly ExportSourceFailure[] = [],
): Generator<string> {
  yield csvRecord(ERRORS_CSV_HEADER);
  for (const source of failedSources) {
    yield csvRecord([
      textCell(source.source),
      source.status,
      source.httpStatus,
      textCell(source.code),
      textCell(source.message),
    ]);
  }
  for (const video of videos) {
    if (video.status === ITEM_STATUS.ok) continue;
    yield csvRecord([
      videoIdCell(video.videoId),
      video.status,
      video.httpStatus,
      textCell(video.code),
      textCell(video.message),
    ]);
  }
}
