import { writeFileSync } from 'node:fs';
import { csvRecord, idCell, textCell } from './corpus/tables';

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
  let text = csvRecord(SEARCH_RESULTS_HEADER);
  let count = 0;
  for await (const row of rows) {
    text += csvRecord([
      idCell(row.videoId),
      String(row.transcriptId),
      idCell(row.language),
      textCell(row.title),
      row.time,
      row.startSeconds === null ? '' : String(row.startSeconds),
      idCell(row.url),
      textCell(row.snippet),
    ]);
    count++;
  }
  writeFileSync(file, text, { flag: 'wx' });
  return { bytes: Buffer.byteLength(text), rows: count };
}
