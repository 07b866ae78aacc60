import { stringify } from 'csv-stringify/sync';
import { withoutControls } from './plain-text';
import type { ExportSourceFailure, ExportVideo } from './types';

type CsvValue = string | number | undefined;

/** What a spreadsheet may run as a formula when a cell starts with it (OWASP "CSV injection"). */
const FORMULA_TRIGGERS = ['=', '+', '-', '@', '\t', '\r'];

const PLAIN_VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * A text cell made safe to open in a spreadsheet: control characters removed (tab, CR and LF stay:
 * quoting carries them), then an apostrophe put before a formula trigger, which spreadsheets hide
 * and read as "this is text".
 */
function neutralisedCell(text: string): string {
  const cell = withoutControls(text);
  return FORMULA_TRIGGERS.some((trigger) => cell.startsWith(trigger)) ? `'${cell}` : cell;
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

export const INDEX_CSV_HEADER = ['video_id', 'title', 'language', 'status', 'segments', 'source', 'position'];
export const ERRORS_CSV_HEADER = ['video_id', 'status', 'http_status', 'code', 'message'];

/**
 * index.csv: one row per video; `segments` and `language` empty unless ok, `position` empty when none.
 * Status is ok, unavailable, failed, skipped, or pending in a corpus written before its job finished.
 */
export function* indexCsv(videos: Iterable<ExportVideo>): Generator<string> {
  yield csvRecord(INDEX_CSV_HEADER);
  for (const video of videos) {
    const ok = video.status === 'ok';
    yield csvRecord([
      videoIdCell(video.videoId),
      textCell(video.title),
      ok ? textCell(video.language) : undefined,
      video.status,
      ok ? (video.segmentCount ?? 0) : undefined,
      textCell(video.source),
      video.position,
    ]);
  }
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
    if (video.status === 'ok') continue;
    yield csvRecord([
      videoIdCell(video.videoId),
      video.status,
      video.httpStatus,
      textCell(video.code),
      textCell(video.message),
    ]);
  }
}

/**
 * Line breaks JSON.stringify leaves raw (it escapes those of C0 only). Readers that split on every
 * Unicode line break, such as Python's str.splitlines, would cut the record there: escaped, the line
 * stays one line and still parses to the text as received.
 */
const LINE_BREAKS_JSON_KEEPS = /[\u0085\u2028\u2029]/g;

const escapeCharacter = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Fields of a transcripts.jsonl line that metadata may not overwrite. */
const OWN_FIELDS = new Set(['video_id', 'language', 'source', 'segments']);

/**
 * The transcripts.jsonl line of one ok video: video_id, language, source, the metadata fields when they
 * were sent (flattened), then the segments with their times as received.
 */
export function transcriptLine(video: ExportVideo): string {
  const metadata = Object.entries(video.metadata ?? {}).filter(([key]) => !OWN_FIELDS.has(key));
  const segments = (video.segments ?? []).map(({ text, start, duration }) => ({ text, start, duration }));
  // fromEntries defines own properties, so a metadata key such as "__proto__" stays plain data.
  const line = Object.fromEntries([
    ['video_id', video.videoId],
    ['language', video.language],
    ['source', video.source],
    ...metadata,
    ['segments', segments],
  ]);
  return `${JSON.stringify(line).replace(LINE_BREAKS_JSON_KEEPS, escapeCharacter)}\n`;
}
