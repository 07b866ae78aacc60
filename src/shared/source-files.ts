/**
 * How every face reads sources from a file or a line of text (the CLI's `--from` and arguments, the
 * desktop app's file drop and paste box), so that both faces accept the same file the same way.
 */
import type { SourceEntry } from './contract';
import { MAX_SOURCE_LINE_CHARS } from './limits';
import { readSourceLines } from './sources';

/** A line of a file, with its number from 1. */
export interface SourceLine {
  line: number;
  text: string;
}

/** Header cells a spreadsheet export puts above the sources, which are not sources themselves. */
const HEADER_CELLS = /^(url|urls|link|links|source|sources|video|videos|id|ids|video_id|input)$/i;

/**
 * The sources of a file named `fileName`: a CSV file (`.csv`) gives its first column, without a first
 * row of column names, and any other file its lines; blank lines and '#' comments are skipped either
 * way, and each source keeps the number of its line.
 */
export function sourceLinesOfFile(fileName: string, fileText: string): SourceLine[] {
  return /\.csv$/i.test(fileName) ? firstCsvColumn(fileText) : readSourceLines(fileText);
}

/**
 * The first cell of each row of a CSV file (cells separated by commas, semicolons or tabs, as
 * spreadsheets export them; quotes removed), skipping empty cells, '#' comments, and a first cell
 * that names the column (`url`, `source`, `video_id`…).
 */
export function firstCsvColumn(fileText: string): SourceLine[] {
  const cells = fileText
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\r|\n/)
    .map((row, index) => ({ line: index + 1, text: firstCell(row) }))
    .filter(({ text }) => text !== '' && !text.startsWith('#'));
  if (cells.length > 0 && HEADER_CELLS.test(cells[0]?.text ?? '')) cells.shift();
  return cells;
}

function firstCell(row: string): string {
  const line = row.trim();
  if (!line.startsWith('"')) return (line.split(/[,;\t]/)[0] ?? '').trim();
  // A quoted cell: "" stands for one quote, and separators inside the quotes belong to the cell.
  let cell = '';
  for (let index = 1; index < line.length; index++) {
    const char = line[index];
    if (char === '"' && line[index + 1] === '"') {
      cell += '"';
      index++;
    } else if (char === '"') break;
    else cell += char;
  }
  return cell.trim();
}

/**
 * A line as the contract's source entry. A line longer than any source could be is cut to
 * MAX_SOURCE_LINE_CHARS (between two characters), so that it still crosses the contract and comes
 * back refused as too long, named by `where`, like any other line that is not a source.
 */
export function sourceEntry(where: string, text: string): SourceEntry {
  if (text.length <= MAX_SOURCE_LINE_CHARS) return { where, text };
  const last = text.charCodeAt(MAX_SOURCE_LINE_CHARS - 1);
  const cut = last >= 0xd800 && last <= 0xdbff ? MAX_SOURCE_LINE_CHARS - 1 : MAX_SOURCE_LINE_CHARS;
  return { where, text: text.slice(0, cut) };
}
