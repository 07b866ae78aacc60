/**
 * Caption text as the corpus's txt, srt and vtt files read it: the service's markup removed and its
 * character references decoded. One function for the export and for the Library, so that what a
 * search counts is exactly what the exported files say (docs/product.md, "Searching your
 * transcripts").
 */

/**
 * Control characters (\p{Cc}: C0, DEL and C1) other than tab, LF and CR, e.g. NUL and ESC. They are
 * invisible in a reader, and some act as commands: ESC starts a terminal escape sequence, NUL cuts a
 * C string short. Each format decides for itself what becomes of tab, LF and CR. (Spelt as ranges, which
 * is several times faster than \p{Cc} with a look-ahead.)
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS_BUT_TAB_AND_LINE_BREAKS = /[\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

/** The text without control characters, except tab, LF and CR. */
export function withoutControls(text: string): string {
  return text.replace(CONTROLS_BUT_TAB_AND_LINE_BREAKS, '');
}

/**
 * The markup caption text carries: tags of HTML's text-level elements and of WebVTT cues (`<b>`,
 * `</i>`, `<font color="#E5E5E5">`, `<c.yellow>`, `<v Roger>`), and WebVTT's karaoke timestamps
 * (`<00:01.500>`). Only these names count as tags, so that text such as `x <y and z> w` is kept.
 */
const MARKUP_TAG =
  /<\/?(?:b|i|u|s|c|v|em|strong|small|big|sub|sup|mark|span|font|lang|ruby|rt|br|p|div)(?=[\s./>])[^<>]*>|<(?:\d+:)?\d{2}:\d{2}\.\d{3}>/giu;

/** The named character references captions use; any other name is left as written. */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  hellip: '\u2026',
  ndash: '\u2013',
  mdash: '\u2014',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  laquo: '\u00ab',
  raquo: '\u00bb',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  deg: '\u00b0',
};

const CHARACTER_REFERENCE = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,8})|([A-Za-z]+));/g;

/** A numeric reference's character; one that names no character (0, a surrogate, past U+10FFFF) is U+FFFD, as in HTML. */
function referencedCharacter(codePoint: number): string {
  const usable = codePoint > 0 && codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff);
  return usable ? String.fromCodePoint(codePoint) : '\ufffd';
}

/**
 * Decodes each character reference once, in a single left-to-right pass: `&amp;amp;` becomes `&amp;`
 * and stays so.
 */
function decodeCharacterReferences(text: string): string {
  return text.replace(CHARACTER_REFERENCE, (reference, decimal?: string, hex?: string, name?: string) => {
    if (decimal !== undefined) return referencedCharacter(Number.parseInt(decimal, 10));
    if (hex !== undefined) return referencedCharacter(Number.parseInt(hex, 16));
    return NAMED_ENTITIES[name ?? ''] ?? reference;
  });
}

/**
 * Caption text as plain text, the text of the txt, srt and vtt files and of the `text` fields: markup
 * tags removed first, then character references decoded once (so `&lt;b&gt;` reads `<b>` and is not
 * taken for a tag), then control characters removed but tab, LF and CR (even those a reference spelt).
 */
export function plainText(text: string): string {
  return withoutControls(decodeCharacterReferences(text.replace(MARKUP_TAG, '')));
}

// eslint-disable-next-line no-control-regex -- what plainLine would change besides the ends' spaces
const NEEDS_CLEANING = /[<&\0-\x1f\x7f-\x9f\u2028\u2029]/;

/**
 * Plain text on one line: line breaks and the space around them become one space, ends trimmed. Most
 * captions hold no markup, reference, control character or line break: only trimmed, at once (the
 * Library cleans every segment a fetch stores).
 */
export function plainLine(text: string): string {
  if (!NEEDS_CLEANING.test(text)) return text.trim();
  return plainText(text)
    .replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ')
    .trim();
}
