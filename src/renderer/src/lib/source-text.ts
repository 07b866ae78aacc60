import type { SourceEntry } from '../../../shared/contract';
import { checkSources, readSourceLines } from '../../../shared/sources';

/**
 * The paste box's text as the contract's source entries, the way `--from FILE` reads a file: blank
 * lines and '#' comments skipped, each entry pointing at its line.
 */
export function sourceEntries(text: string): SourceEntry[] {
  return readSourceLines(text).map(({ line, text: source }) => ({ where: `line ${line}`, text: source }));
}

/**
 * The paste box's text without the lines that are not sources (and the repeats of a source listed
 * earlier), as checkSources finds them now; every other line, blank ones and comments included,
 * stays as it was.
 */
export function withoutInvalidLines(text: string): string {
  const invalid = new Set(checkSources(sourceEntries(text)).invalid.map((entry) => entry.where));
  return text
    .split(/\r\n|\r|\n/)
    .filter((_line, index) => !invalid.has(`line ${index + 1}`))
    .join('\n');
}

/** Header cells a spreadsheet export puts above the sources, which are not sources themselves. */
const HEADER_CELLS = /^(url|urls|link|links|source|sources|video|videos|id|ids|video_id|input)$/i;

/** The first column of a CSV file: one cell per row, quotes removed, a header row left out. */
export function firstCsvColumn(text: string): string[] {
  const cells = text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\r|\n/)
    .map(firstCell)
    .filter((cell) => cell !== '');
  if (cells.length > 0 && HEADER_CELLS.test(cells[0] ?? '')) cells.shift();
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

/** Lines of a dropped or chosen file: a CSV's first column, a text file's lines. */
export function linesOfFile(name: string, text: string): string[] {
  if (/\.csv$/i.test(name)) return firstCsvColumn(text);
  return text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
}

/** The links a browser hands over when one is dragged from it (text/uri-list, else plain text). */
export function droppedLinks(uriList: string, plainText: string): string[] {
  const fromList = uriList
    .split(/\r\n|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (fromList.length > 0) return fromList;
  return plainText
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The paste box's text with `lines` added at its end, each on a line of its own. */
export function appendLines(text: string, lines: readonly string[]): string {
  if (lines.length === 0) return text;
  const base = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return `${base}${lines.join('\n')}\n`;
}
