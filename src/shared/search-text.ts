import { caseFold } from 'unicode-case-folding';

/**
 * How the Library reads text, the same way for what it indexes and for what a user searches: text is
 * taken in its compatibility form (NFKC: fullwidth "ｒｉｖｅｒ" is "river", halfwidth "ｴﾝｼﾞﾝ" is
 * "エンジン", Korean typed in conjoining jamo is its syllables), words are runs of letters, digits and
 * marks, folded as Unicode's full case folding does ("Straße" -> "strasse") and without Latin
 * diacritics ("Café" -> "cafe"); scripts whose words do not stand
 * between spaces (Han, Hiragana, Katakana, and Hangul, whose particles join the word before them)
 * are cut into overlapping pairs of characters, each run ending with its last character alone, so
 * that any substring of a run is a phrase of consecutive tokens ("毎朝光" -> 毎朝 朝光 光; "朝" is the
 * prefix of a token starting there; "엔진을" holds "엔진"). Core feeds the index this token stream
 * and matches segments with it, so the index and the hits it shows never disagree.
 */

/** One token and where it lies in the original text (UTF-16 offsets, `end` exclusive). */
export interface TextToken {
  /** Folded (foldText). */
  token: string;
  start: number;
  end: number;
  /** Where its first character ends: a pair's first character matched alone is marked up to here. */
  firstEnd: number;
  /** Cut from a run without spaces (a pair or the run's last character). */
  unspaced: boolean;
  /** The last character of a run without spaces, alone. */
  runEnd: boolean;
}

const WORD_RUN = /[\p{L}\p{N}\p{M}]+/gu;
const UNSPACED_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]+/gu;
const HAS_UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]/u;
const COMBINING_DIACRITICS = /[\u0300-\u036f]/g;
const ASCII = /^[\0-\x7f]*$/;

/**
 * The Library's one normalisation, of what it indexes and of what a user searches alike (and of
 * anything else compared with them, such as a channel's name): the compatibility form (NFKC:
 * fullwidth and halfwidth forms, ligatures, conjoining jamo), Unicode's full case folding (ß and ẞ
 * -> ss, ﬁ -> fi, İ -> i), Latin diacritics removed (é, ñ, ü, ç), other scripts' marks kept (が stays
 * が). Plain ASCII, most captions, is only lower-cased.
 */
export function foldText(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  return caseFold(text.normalize('NFKD'))
    .normalize('NFKD')
    .replace(COMBINING_DIACRITICS, '')
    .normalize('NFKC');
}

/** The tokens of `text`, in order, with their places in it. */
export function textTokens(text: string): TextToken[] {
  const { normal, placeOf } = compatibilityForm(text);
  const tokens: TextToken[] = [];
  for (const word of normal.matchAll(WORD_RUN)) {
    const wordStart = word.index;
    let at = 0;
    for (const run of word[0].matchAll(UNSPACED_RUN)) {
      if (run.index > at) pushWord(tokens, word[0].slice(at, run.index), wordStart + at);
      pushUnspaced(tokens, run[0], wordStart + run.index);
      at = run.index + run[0].length;
    }
    if (at < word[0].length) pushWord(tokens, word[0].slice(at), wordStart + at);
  }
  if (placeOf === undefined) return tokens;
  // Places in the compatibility form, taken back to the text as given.
  return tokens.map((token) => ({
    ...token,
    start: placeOf(token.start).start,
    end: placeOf(token.end - 1).end,
    firstEnd: placeOf(token.firstEnd - 1).end,
  }));
}

function pushWord(tokens: TextToken[], word: string, start: number): void {
  const token = foldText(word);
  const end = start + word.length;
  if (token !== '') tokens.push({ token, start, end, firstEnd: end, unspaced: false, runEnd: false });
}

function pushUnspaced(tokens: TextToken[], run: string, start: number): void {
  const characters = Array.from(run);
  let offset = start;
  for (let i = 0; i < characters.length; i++) {
    const first = characters[i] ?? '';
    const second = characters[i + 1] ?? '';
    tokens.push({
      token: foldText(first + second),
      start: offset,
      end: offset + first.length + second.length,
      firstEnd: offset + first.length,
      unspaced: true,
      runEnd: second === '',
    });
    offset += first.length;
  }
}

const GRAPHEMES = new Intl.Segmenter('und', { granularity: 'grapheme' });

/**
 * `text` in NFKC, and where each of its UTF-16 units comes from in `text`: the character, or the
 * cluster of characters (a syllable in conjoining jamo, a halfwidth kana and its sound mark), it was
 * made from. Text already in that form, nearly all of it, is its own map.
 */
function compatibilityForm(text: string): {
  normal: string;
  /** Undefined when `normal` is `text`. */
  placeOf?: (unit: number) => { start: number; end: number };
} {
  if (ASCII.test(text) || text.normalize('NFKC') === text) return { normal: text };
  let normal = '';
  const starts: number[] = [];
  const ends: number[] = [];
  for (const { segment, index } of GRAPHEMES.segment(text)) {
    const piece = segment.normalize('NFKC');
    normal += piece;
    for (let i = 0; i < piece.length; i++) {
      starts.push(index);
      ends.push(index + segment.length);
    }
  }
  return {
    normal,
    placeOf: (unit) => ({ start: starts[unit] ?? text.length, end: ends[unit] ?? text.length }),
  };
}

/**
 * What the index is given for a segment's text (as the corpus reads it: shared/caption-text.ts):
 * the text folded (foldText), which FTS5's unicode61 tokenizer then cuts into words, with each run
 * without spaces replaced by its pairs and last character. The query's tokens are folded the same
 * way, and the tokenizer's own folding (ASCII case, Latin diacritics) finds nothing more to do. Plain
 * ASCII goes through untouched, the tokenizer lower-casing it in C, so that indexing most captions
 * costs the fetch almost nothing in JavaScript (bench/RESULTS.md, "Library").
 */
export function indexText(text: string): string {
  if (ASCII.test(text)) return text;
  const folded = foldText(text);
  if (!HAS_UNSPACED.test(folded)) return folded;
  return folded.replace(UNSPACED_RUN, (run) => ` ${unspacedTokens(run).join(' ')} `);
}

function unspacedTokens(run: string): string[] {
  const characters = Array.from(run);
  return characters.map((first, i) => first + (characters[i + 1] ?? ''));
}
