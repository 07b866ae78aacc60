import { rename, rm, writeFile } from 'node:fs/promises';
import { checkExportTarget } from './target';
import { csvRecord, idCell, textCell } from './tables';
import { tempPathBeside } from './temp-files';

/** One hit of a Library search, as its CSV line says it. */
export interface SearchResultRow {
  videoId: string;
  title: string;
  /** mm:ss or h:mm:ss; '' for a transcript without times. */
  time: string;
  url: string;
  snippet: string;
}

export const SEARCH_RESULTS_HEADER = ['video_id', 'title', 'time', 'url', 'snippet'];

/**
 * Writes a search's hits as CSV (the same cell rules as the corpus's tables: formulas neutralised,
 * control characters removed), whole or not at all: written beside the target, then renamed over it.
 */
export async function writeSearchResults(rows: Iterable<SearchResultRow>, path: string): Promise<number> {
  checkExportTarget(path);
  let text = csvRecord(SEARCH_RESULTS_HEADER);
  for (const row of rows)
    text += csvRecord([
      idCell(row.videoId),
      textCell(row.title),
      row.time,
      idCell(row.url),
      textCell(row.snippet),
    ]);
  const temp = tempPathBeside(path, 'partial');
  try {
    await writeFile(temp, text, { flag: 'wx' });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return Buffer.byteLength(text);
}
