/**
 * docs/product.md, "ZIP layout": the rule every entry path of a corpus keeps. The writer holds the
 * paths it makes to it, and `verify` holds the paths it reads to it, so both sides apply one rule.
 */

/** Every entry path is valid UTF-8 of at most this many bytes. */
export const MAX_ENTRY_PATH_BYTES = 200;

/**
 * Control characters (C0, DEL, C1: ESC starts a terminal's escape sequences) and the invisible
 * characters that set the direction of text, which can show `gpj.exe` as `exe.jpg`.
 */
const CONTROL_CHARACTERS = /[\p{Cc}\p{Bidi_Control}]/u;
/** Unpaired UTF-16 surrogates, which no UTF-8 byte sequence stands for. */
const LONE_SURROGATE = /\p{Cs}/u;
/** `C:` makes a path absolute on Windows. */
const DRIVE_LETTER = /^[A-Za-z]:/;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Why `path` (as text, or as the bytes a ZIP stores) breaks the layout: it must be relative, use `/`
 * between components none of which is empty, `.` or `..`, hold no control character, and be valid
 * UTF-8 of at most `maxBytes` (MAX_ENTRY_PATH_BYTES; verify allows a corpus zipped again in a top
 * folder that folder's name more). Undefined when it keeps the rule.
 */
export function entryPathProblem(
  path: string | Uint8Array,
  maxBytes = MAX_ENTRY_PATH_BYTES,
): string | undefined {
  let text: string;
  if (typeof path === 'string') {
    if (LONE_SURROGATE.test(path)) return 'it is not valid UTF-8';
    text = path;
  } else {
    try {
      text = strictUtf8.decode(path);
    } catch {
      return 'it is not valid UTF-8';
    }
  }
  const bytes = typeof path === 'string' ? Buffer.byteLength(path, 'utf8') : path.length;
  if (bytes > maxBytes) return `it is longer than ${maxBytes} bytes (${bytes})`;
  if (CONTROL_CHARACTERS.test(text)) return 'it holds a control character';
  if (text.startsWith('/') || DRIVE_LETTER.test(text)) return 'it is not relative';
  if (text.includes('\\')) return 'it separates folders with \\, not /';
  const components = text.split('/');
  if (components.includes('')) return 'it has an empty component';
  if (components.some((component) => component === '.' || component === '..')) {
    return 'it has a . or .. component';
  }
  return undefined;
}

/**
 * The bytes of `path` for a ZIP this program writes. A path that breaks the layout is a bug in the
 * writer, so it throws rather than write a corpus that `verify` would refuse.
 */
export function entryPathBytes(path: string): Buffer {
  const problem = entryPathProblem(path);
  if (problem !== undefined)
    throw new Error(`the entry path ${printable(path)} breaks the ZIP layout: ${problem}`);
  return Buffer.from(path, 'utf8');
}

/** What a terminal could take for something else: controls, and line or paragraph separators. */
const UNPRINTABLE = /[\p{Cc}\p{Bidi_Control}\p{Zl}\p{Zp}\\]/gu;

/**
 * `text` as it may be printed: every control character (ESC included), bidirectional control and line
 * or paragraph separator written as an escape (`\x1b`, `\u{202e}`), and `\` as `\\`, so that what
 * reaches the terminal is plain characters and says exactly what the file holds.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => {
    if (char === '\\') return '\\\\';
    const code = char.codePointAt(0) ?? 0;
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/**
 * Text a person reads (a title, a snippet of a transcript) as it may be printed on one line: runs of
 * white space (a line break included) as one space, the other controls escaped as printable() does,
 * and `\` left as it is, since the text quotes a transcript rather than naming a file exactly.
 */
export function readable(text: string): string {
  return text
    .replace(/\s+/gu, ' ')
    .split('\\')
    .map((part) => printable(part))
    .join('\\');
}

/** A path stored as bytes, printable: its characters as printable() writes them, bytes that are not UTF-8 as `\xff`. */
export function printableBytes(bytes: Uint8Array): string {
  try {
    return printable(strictUtf8.decode(bytes));
  } catch {
    let text = '';
    for (let at = 0; at < bytes.length;) {
      const length = utf8SequenceLength(bytes[at] ?? 0);
      const char = length === 0 ? undefined : decodeOne(bytes.subarray(at, at + length));
      if (char === undefined) {
        text += `\\x${(bytes[at] ?? 0).toString(16).padStart(2, '0')}`;
        at += 1;
      } else {
        text += printable(char);
        at += length;
      }
    }
    return text;
  }
}

/** How many bytes the UTF-8 sequence that `lead` starts has; 0 when no sequence starts with it. */
function utf8SequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function decodeOne(sequence: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(sequence);
  } catch {
    return undefined;
  }
}
