/**
 * How the Library reads text, the same way for what it indexes and for what a user searches: words
 * are runs of letters, digits and marks, folded to lower case without Latin diacritics ("Café" ->
 * "cafe"); scripts written without spaces (Han, Hiragana, Katakana) are cut into overlapping pairs
 * of characters, each run ending with its last character alone, so that any substring of a run is
 * a phrase of consecutive tokens ("毎朝光" -> 毎朝 朝光 光; "朝" is the prefix of a token starting
 * there). Core feeds the index this token stream and matches segments with it, so the index and the
 * hits it shows never disagree.
 */

/** One token and where it lies in the original text (UTF-16 offsets, `end` exclusive). */
export interface TextToken {
  /** Folded: lower case, without Latin diacritics. */
  token: string;
  /** As written (NFC), for the index, which folds it the same way itself. */
  spelled: string;
  start: number;
  end: number;
  /** Cut from a run without spaces (a pair or the run's last character). */
  unspaced: boolean;
  /** The last character of a run without spaces, alone. */
  runEnd: boolean;
}

const WORD_RUN = /[\p{L}\p{N}\p{M}]+/gu;
const UNSPACED_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆]+/gu;
const HAS_UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆]/u;
const COMBINING_DIACRITICS = /[\u0300-\u036f]/g;

/** Lower case, Latin diacritics removed (é, ñ, ü, ç), other scripts' marks kept (が stays が). */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(COMBINING_DIACRITICS, '').normalize('NFC').toLowerCase();
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
  const spelled = word.normalize('NFC');
  if (token !== '')
    tokens.push({ token, spelled, start, end: start + word.length, unspaced: false, runEnd: false });
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
      spelled: (first + second).normalize('NFC'),
      start: offset,
      end: offset + first.length + second.length,
      unspaced: true,
      runEnd: second === '',
    });
    offset += first.length;
  }
}

/**
 * What the index is given for a transcript's text: the text itself, which FTS5's unicode61 tokenizer
 * cuts into words and folds (case, Latin diacritics) as foldText does, with each run without spaces
 * replaced by its pairs and last character. Text without such runs goes through untouched, so that
 * indexing costs the fetch almost nothing in JavaScript (bench/RESULTS.md, "Library").
 */
export function indexText(text: string): string {
  const normal = text.normalize('NFC');
  if (!HAS_UNSPACED.test(normal)) return normal;
  return normal.replace(UNSPACED_RUN, (run) => ` ${unspacedTokens(run).join(' ')} `);
}

function unspacedTokens(run: string): string[] {
  const characters = Array.from(run);
  return characters.map((first, i) => first + (characters[i + 1] ?? ''));
}
