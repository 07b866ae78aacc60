import { oneLine } from './dataset-title';

/** Every line break a reader may count as one: CR LF, CR, LF, NEL, and the Unicode line and paragraph separators. */
const LINE_BREAK = /\r\n|[\r\n\u0085\u2028\u2029]/u;
/** Code points that are never characters (U+FFFE, U+FFFF…), which YAML readers refuse, and a stray byte order mark. */
const NOT_TEXT = /[\p{Noncharacter_Code_Point}\uFEFF]/gu;

/**
 * A user's text of several paragraphs (a corpus's description) as its paragraphs, each a list of its
 * lines: every line as oneLine() writes it (no control character, white space runs as one space),
 * blank lines separating paragraphs. CITATION.cff, README.md and datapackage.json all keep these, so
 * the three say the same text.
 */
export function paragraphsOf(text: string): string[][] {
  const paragraphs: string[][] = [];
  let current: string[] = [];
  for (const raw of text.split(LINE_BREAK)) {
    const line = oneLine(raw.replace(NOT_TEXT, ''));
    if (line !== '') current.push(line);
    else if (current.length > 0) {
      paragraphs.push(current);
      current = [];
    }
  }
  if (current.length > 0) paragraphs.push(current);
  return paragraphs;
}

/** The paragraphs as one text: lines joined by a line break, paragraphs by a blank line. */
export function paragraphText(paragraphs: readonly (readonly string[])[]): string {
  return paragraphs.map((lines) => lines.join('\n')).join('\n\n');
}
