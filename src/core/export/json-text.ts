/**
 * A time in seconds, always written with a fraction or an exponent (`18.0`, never `18`). Readers that
 * guess a column's type from its first values, as `datasets.load_dataset("json", ...)` does batch by
 * batch, would otherwise take a column of whole seconds for integers and then fail on `21.5`.
 */
export class Seconds {
  constructor(readonly value: number) {}
}

export type JsonValue =
  string | number | boolean | null | Seconds | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * Line breaks JSON.stringify leaves raw (it escapes those of C0 only). Readers that split on every
 * Unicode line break, such as Python's str.splitlines, would cut a JSON Lines record there: escaped,
 * the record stays one line and still parses to the same text.
 */
const LINE_BREAKS_JSON_KEEPS = /[\u0085\u2028\u2029]/g;

const escapeCharacter = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

function stringText(text: string): string {
  return JSON.stringify(text).replace(LINE_BREAKS_JSON_KEEPS, escapeCharacter);
}

/** A number JSON can hold, or null for NaN and the infinities (which it cannot). */
function numberText(value: number, asSeconds: boolean): string {
  if (!Number.isFinite(value)) return 'null';
  const text = JSON.stringify(value);
  return asSeconds && /^-?\d+$/.test(text) ? `${text}.0` : text;
}

/**
 * `value` as JSON text: compact when `indent` is '', else laid out as JSON.stringify(value, null,
 * indent) lays it out. Keys keep their insertion order.
 */
export function jsonText(value: JsonValue, indent = '', depth = ''): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return stringText(value);
  if (typeof value === 'number') return numberText(value, false);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Seconds) return numberText(value.value, true);
  const inner = depth + indent;
  const [open, close, items] = isArray(value)
    ? ['[', ']', value.map((item) => jsonText(item, indent, inner))]
    : [
        '{',
        '}',
        Object.entries(value).map(
          ([key, item]) => `${stringText(key)}:${indent === '' ? '' : ' '}${jsonText(item, indent, inner)}`,
        ),
      ];
  if (items.length === 0) return `${open}${close}`;
  if (indent === '') return `${open}${items.join(',')}${close}`;
  return `${open}\n${inner}${items.join(`,\n${inner}`)}\n${depth}${close}`;
}

// Array.isArray does not narrow a readonly array type.
function isArray(value: JsonValue): value is readonly JsonValue[] {
  return Array.isArray(value);
}
