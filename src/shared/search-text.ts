import { caseFold } from 'unicode-case-folding';

/**
 * How the Library reads text, the same way for what it indexes and for what a user searches: words
 * are runs of letters, digits and marks, folded as Unicode's full case folding does ("Straße" ->
 * "strasse") and without Latin diacritics ("Café" -> "cafe"); scripts whose words do not stand
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
 * Unicode's full case folding (ß and ẞ -> ss, ﬁ -> fi, İ -> i), Latin diacritics removed (é, ñ, ü,
 * ç), other scripts' marks kept (が stays が). Plain ASCII, most captions, is only lower-cased.
 */
export function foldText(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  return caseFold(text.normalize('NFD')).normalize('NFD').replace(COMBINING_DIACRITICS, '').normalize('NFC');
}

/** The tokens of `text`, in order, with their places. */
export function textTokens(text: string): TextToken[] {
  const tokens: TextToken[] = [];
  for (const word of text.matchAll(WORD_RUN)) {
    const wordStart = word.index;
    let at = 0;
    for (const run of word[0].matchAll(UNSPACED_RUN)) {
      if (run.index > at) pushWord(tokens, word[0].slice(at, run.index), wordStart + at);
      pushUnspaced(tokens, run[0], wordStart + run.index);
      at = run.index + run[0].length;
    }
    if (at < word[0].length) pushWord(tokens, word[0].slice(at), wordStart + at);
  }
  return tokens;
}

function pushWord(tokens: TextToken[], word: string, start: number): void {
  const token = foldText(word);
  if (token !== '') tokens.push({ token, start, end: start + word.length, unspaced: false, runEnd: false });
}

function pushUnspaced(tokens: TextToken[], run: string, start: number): void {
  const characters = Array.from(run);
  let offset = start;
  for (let i = 0; i < characters.length; i++) {
    const first = characters[i] ?? '';
    const second = characters[i + 1] ?? '';
    const token = foldText(first + second);
    tokens.push({
      token,
      start: offset,
      end: offset + first.length + second.length,
      unspaced: true,
      runEnd: second === '',
    });
    offset += first.length;
  }
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
