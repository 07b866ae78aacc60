import type { WordCountMethod } from './types';

// The caption cleaning lives in shared/caption-text.ts, since the Library indexes the same text.
export { plainLine, plainText, withoutControls } from '../../../shared/caption-text';

/**
 * A word: a run of letters, marks and digits, keeping inside it an apostrophe or a dot between two of
 * them (it's, U.S, 3.5) and a comma between two digits (1,000).
 */
const WORD = /[\p{L}\p{M}\p{N}]+(?:(?:['\u2019.]|(?<=\p{N}),(?=\p{N}))[\p{L}\p{M}\p{N}]+)*/gu;

/** Scripts written without spaces between words, whose runs only a dictionary can split. */
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

const dictionaryWords = new Intl.Segmenter('und', { granularity: 'word' });

/**
 * How countWords counts, as a corpus says it: the rule, and the version of ICU (the Unicode library
 * behind Intl.Segmenter) of the process that counts, since its dictionaries split unspaced scripts and
 * change between versions. The desktop app (Electron's ICU) and the CLI (Node's) may differ; a count
 * is only ever copied from an export made with the same ICU (reuse/entry-fingerprints.ts).
 */
export const WORD_COUNT_METHOD: WordCountMethod = {
  method:
    'runs of letters, marks and digits (an apostrophe or dot between two of them, a comma between two digits, ' +
    'kept inside), one word each; in scripts written without spaces (Han, Hiragana, Katakana, Thai, Lao, Khmer, ' +
    "Myanmar), the words ICU's dictionary-based word segmentation finds (Intl.Segmenter, root locale)",
  icu: process.versions.icu ?? null,
};

/**
 * Intl.Segmenter takes time that grows with the square of the text's length, so an unspaced run is
 * split into pieces of this many code units (a word cut in two at a piece's end counts twice).
 */
const SEGMENTER_PIECE = 256;

function dictionaryWordCount(run: string): number {
  let count = 0;
  for (let at = 0; at < run.length; at += SEGMENTER_PIECE) {
    for (const segment of dictionaryWords.segment(run.slice(at, at + SEGMENTER_PIECE))) {
      if (segment.isWordLike === true) count += 1;
    }
  }
  return count;
}

/**
 * How many words a text has (index.csv's word_count): runs of letters, marks and digits (WORD), and
 * in scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) the words Unicode's
 * dictionary-based boundaries find in each run (Intl.Segmenter, root locale, so that the count does
 * not depend on the machine's language).
 */
export function countWords(text: string): number {
  const unspaced = UNSPACED_SCRIPT.test(text);
  let count = 0;
  for (const [run] of text.matchAll(WORD))
    count += unspaced && UNSPACED_SCRIPT.test(run) ? dictionaryWordCount(run) : 1;
  return count;
}
