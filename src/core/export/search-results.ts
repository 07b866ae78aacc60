import { writeFileSync } from 'node:fs';
import type { ConcordanceRow } from '../../shared/contract';
import { clockTime } from '../../shared/video-links';
import { csvRecord, idCell, textCell, type CsvValue } from './corpus/tables';

/** One hit of a Library search, as its CSV line says it. */
export interface SearchResultRow {
  videoId: string;
  transcriptId: number;
  /** The transcript's language, as stored. */
  language: string;
  title: string;
  /** mm:ss or h:mm:ss; '' for a transcript without times. */
  time: string;
  /** The same time in seconds, as the service gave it; null for a transcript without times. */
  startSeconds: number | null;
  url: string;
  /** The segment as the corpus's files read it. */
  snippet: string;
}

export const SEARCH_RESULTS_HEADER = [
  'video_id',
  'transcript_id',
  'language',
  'title',
  'time',
  'start_seconds',
  'url',
  'snippet',
];

/**
 * Writes a search's hits as CSV into `file`, a new file (tempPathBeside the target: never one that
 * is there), with the same cell rules as the corpus's tables (formulas neutralised, control
 * characters removed). The text is written in one synchronous write once every row is known, so
 * that a thread ended meanwhile (Export results in a worker, cancelled) has written either all of
 * the file or none of it, and nothing is left writing after it. Returns the bytes and the rows written.
 */
export async function writeSearchResultsFile(
  rows: AsyncIterable<SearchResultRow>,
  file: string,
): Promise<{ bytes: number; rows: number }> {
  return writeCsvFile(SEARCH_RESULTS_HEADER, rows, file, (row) => [
    idCell(row.videoId),
    String(row.transcriptId),
    idCell(row.language),
    textCell(row.title),
    row.time,
    row.startSeconds === null ? '' : String(row.startSeconds),
    idCell(row.url),
    textCell(row.snippet),
  ]);
}

/** A concordance line's columns: the video and hit as Export results says them, then the words around it. */
export const CONCORDANCE_HEADER = [
  'video_id',
  'transcript_id',
  'language',
  'title',
  'channel_title',
  'published_from',
  'published_to',
  'time',
  'start_seconds',
  'url',
  'left',
  'match',
  'right',
];

/** Writes a concordance as CSV into `file`, as writeSearchResultsFile writes the hits. */
export async function writeConcordanceFile(
  rows: AsyncIterable<ConcordanceRow>,
  file: string,
): Promise<{ bytes: number; rows: number }> {
  return writeCsvFile(CONCORDANCE_HEADER, rows, file, (row) => [
    idCell(row.videoId),
    String(row.transcriptId),
    idCell(row.language),
    textCell(row.title),
    textCell(row.channelTitle ?? ''),
    row.publishedFrom ?? '',
    row.publishedTo ?? '',
    row.start === null ? '' : clockTime(row.start),
    row.start === null ? '' : String(row.start),
    idCell(row.url),
    textCell(row.left),
    textCell(row.match),
    textCell(row.right),
  ]);
}

async function writeCsvFile<T>(
  header: readonly string[],
  rows: AsyncIterable<T>,
  file: string,
  cells: (row: T) => CsvValue[],
): Promise<{ bytes: number; rows: number }> {
  let text = csvRecord(header);
  let count = 0;
  for await (const row of rows) {
    text += csvRecord(cells(row));
    count++;
  }
  writeFileSync(file, text, { flag: 'wx' });
  return { bytes: Buffer.byteLength(text), rows: count };
}
