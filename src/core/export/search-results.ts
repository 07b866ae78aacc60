import { rename, rm, writeFile } from 'node:fs/promises';
import { checkExportTarget } from './target';
import { csvRecord, idCell, textCell } from './tables';
import { tempPathBeside } from './temp-files';

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
 * Writes a search's hits as CSV (the same cell rules as the corpus's tables: formulas neutralised,
 * control characters removed), whole or not at all: written beside the target, then renamed over it.
 * Returns the bytes and the rows written.
 */
export async function writeSearchResults(
  rows: AsyncIterable<SearchResultRow>,
  path: string,
): Promise<{ bytes: number; rows: number }> {
  checkExportTarget(path);
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
  const temp = tempPathBeside(path, 'partial');
  try {
    await writeFile(temp, text, { flag: 'wx' });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { bytes: Buffer.byteLength(text), rows: count };
}
