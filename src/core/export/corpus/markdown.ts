import { oneLine } from './dataset-title';

/*
 * The user's text and the job's data as Markdown, for README.md: nothing from outside is ever read as
 * markup, and lists come out in an order that is the same on every machine.
 */

/**
 * Text from outside (sources, filters, option values, language codes) as a Markdown code span, so
 * that no character of it is read as Markdown or HTML; the fence is one backtick longer than the
 * longest run inside.
 */
export function code(text: string): string {
  const line = oneLine(text);
  const longestRun = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const padding = line.startsWith('`') || line.endsWith('`') || line === '' ? ' ' : '';
  return `${fence}${padding}${line}${padding}${fence}`;
}

/**
 * Text from outside as ordinary Markdown text, on one line: the characters that can start emphasis,
 * code, links, HTML, character references, strikethrough or table cells are backslash-escaped.
 */
export function escaped(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>&!|~]/g, (char) => `\\${char}`);
}

/**
 * A line of the user's text as Markdown text: escaped, and with what would start a heading, a list, a
 * thematic break or a setext underline at the start of a line (`#`, `-`, `+`, `=`, `1.`, `1)`)
 * escaped too, so that it reads as the words typed.
 */
export function markdownLine(line: string): string {
  return escaped(line)
    .replace(/^(\d+)([.)])/, '$1\\$2')
    .replace(/^[#+=-]/, (char) => `\\${char}`);
}

/** Code-unit order, the same on every machine (unlike localeCompare). */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

export const listOr = (items: string[], none: string): string[] => (items.length > 0 ? items : [none]);
