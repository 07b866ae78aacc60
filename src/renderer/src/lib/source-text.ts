import type { SourceEntry } from '../../../shared/contract';
import { sourceEntry, sourceLinesOfFile } from '../../../shared/source-files';
import { checkSources, readSourceLines } from '../../../shared/sources';

/**
 * The paste box's text as the contract's source entries, the way `--from FILE` reads a file: blank
 * lines and '#' comments skipped, each entry pointing at its line.
 */
export function sourceEntries(text: string): SourceEntry[] {
  return readSourceLines(text).map(({ line, text: source }) => sourceEntry(`line ${line}`, source));
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

/** Lines of a dropped or chosen file, read as `--from` reads one: a CSV's first column, a text file's lines. */
export function linesOfFile(name: string, text: string): string[] {
  return sourceLinesOfFile(name, text).map((line) => line.text);
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
