/**
 * A time in seconds, always written with a fraction or an exponent (`18.0`, never `18`). Readers that
 * guess a column's type from its first values, as `datasets.load_dataset("json", ...)` does batch by
 * batch, would otherwise take a column of whole seconds for integers and then fail on `21.5`.
 */
export class Seconds {
  constructor(readonly value: number) {}

  /** JSON.stringify's hook: a whole number of seconds leaves a mark that jsonText turns into `18.0`. */
  toJSON(): number | string {
    if (!Number.isInteger(this.value) || Math.abs(this.value) >= 1e21) return this.value;
    wholeSecondsMarked += 1;
    return `${wholeSecondsMark}${String(this.value)}`;
  }
}

// The mark of the JSON.stringify call under way, and how many marks it has left (it is synchronous,
// so one call at a time).
let wholeSecondsMark = '';
let wholeSecondsMarked = 0;

export type JsonValue =
  string | number | boolean | null | Seconds | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * Line breaks JSON.stringify leaves raw (it escapes those of C0 only). Readers that split on every
 * Unicode line break, such as Python's str.splitlines, would cut a JSON Lines record there: escaped,
 * the record stays one line and still parses to the same text.
 */
const LINE_BREAKS_JSON_KEEPS = /[\u0085\u2028\u2029]/g;

const escapeCharacter = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `value` as JSON text: compact when `indent` is '', else laid out as JSON.stringify(value, null,
 * indent) lays it out. Keys keep their insertion order. JSON.stringify does the writing (several
 * times faster than JavaScript could); each whole Seconds leaves a quoted mark, `"<mark>18"`, which is
 * then written `18.0`. A string of the data that happens to hold a mark makes more marks than the
 * Seconds left: the value is then written again with another mark, so no text is mistaken for one.
 */
export function jsonText(value: JsonValue, indent = ''): string {
  for (let attempt = 0; ; attempt += 1) {
    wholeSecondsMark = `\u0000seconds${attempt}:`;
    wholeSecondsMarked = 0;
    const pieces = JSON.stringify(value, null, indent).split(
      `"${JSON.stringify(wholeSecondsMark).slice(1, -1)}`,
    );
    if (pieces.length - 1 !== wholeSecondsMarked) continue;
    // Every piece after the first starts with a mark's number and its closing quote.
    const text = pieces.map((piece, index) => (index === 0 ? piece : piece.replace('"', '.0'))).join('');
    return text.replace(LINE_BREAKS_JSON_KEEPS, escapeCharacter);
  }
}
