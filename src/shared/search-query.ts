import { textTokens } from './search-text';

/**
 * The Library's query language (docs/product.md, "Searching your transcripts"): words (all must
 * match), "quoted phrases", prefix*, A OR B, -excluded; case (Unicode's full folding) and Latin diacritics
 * ignored; text in scripts without spaces between words (and Korean) matches as a substring. Every face parses with this one function; core
 * turns the result into the index's own syntax itself, every term quoted, so what a user types
 * never reaches the index as syntax.
 */

/** One word or phrase, read the way the index reads text (src/shared/search-text.ts). */
export interface SearchTerm {
  /** As typed, for messages. */
  text: string;
  /** Consecutive tokens a segment must hold (folded as the index's text is: search-text.ts). */
  tokens: string[];
  /** The last token may be the start of a longer one (prefix*, or one character without spaces). */
  prefix: boolean;
}

export interface SearchQuery {
  /** A segment matches when it holds, for every group, at least one of its terms... */
  groups: SearchTerm[][];
  /** ...and none of these. */
  excluded: SearchTerm[];
}

export type ParsedSearch = { ok: true; query: SearchQuery } | { ok: false; message: string };

export const MAX_QUERY_CHARS = 500;

const EXAMPLE =
  'Search for words, a "quoted phrase", a prefix such as astro*, river OR lake, or -excluded words.';

type Item =
  | { kind: 'or' }
  | { kind: 'term'; term: SearchTerm; excluded: boolean }
  /** Punctuation alone ("(", "&"): nothing to search for, left out as the index would. */
  | { kind: 'nothing' };

class QueryError extends Error {}

export function parseSearchQuery(text: string): ParsedSearch {
  try {
    return { ok: true, query: parse(text) };
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, message: error.message };
    throw error;
  }
}

function parse(text: string): SearchQuery {
  if (text.length > MAX_QUERY_CHARS)
    refuse(`A search has at most ${MAX_QUERY_CHARS} characters; this one has ${text.length}.`);
  if (/\p{Cc}/u.test(text))
    refuse('A search is one line of text: remove the control characters (tabs, line breaks) from it.');
  const items = lex(text).filter((item) => item.kind !== 'nothing');
  if (items.length === 0) refuse(`Type something to search for. ${EXAMPLE}`);

  const groups: SearchTerm[][] = [];
  const excluded: SearchTerm[] = [];
  let joining = false;
  items.forEach((item, index) => {
    if (item.kind === 'or') {
      const before = items[index - 1];
      const after = items[index + 1];
      if (!isIncluded(before) || !isIncluded(after))
        refuse('OR goes between two words or phrases to search for, as in river OR lake.');
      joining = true;
      return;
    }
    if (item.kind !== 'term') return;
    if (item.excluded) excluded.push(item.term);
    else if (joining) groups[groups.length - 1]?.push(item.term);
    else groups.push([item.term]);
    joining = false;
  });
  if (groups.length === 0)
    refuse('Add a word to search for: a search of excluded words alone (-word) would match everything else.');
  return { groups, excluded };
}

function isIncluded(item: Item | undefined): boolean {
  return item?.kind === 'term' && !item.excluded;
}

function refuse(message: string): never {
  throw new QueryError(message);
}

/** Cuts the text into OR, terms and punctuation, left to right. */
function lex(text: string): Item[] {
  const items: Item[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    if (char === undefined) break;
    if (/\s/u.test(char)) {
      at++;
      continue;
    }
    const excluded = char === '-' && at + 1 < text.length && !/\s/u.test(text[at + 1] ?? '');
    if (excluded) at++;
    if (text[at] === '"') {
      const close = text.indexOf('"', at + 1);
      if (close < 0) refuse('A quote is not closed: add the closing " or remove the opening one.');
      const phrase = text.slice(at + 1, close);
      at = close + 1;
      const star = text[at] === '*';
      if (star) at++;
      items.push(termItem(phrase, `"${phrase}"`, star, excluded));
      continue;
    }
    let end = at;
    while (end < text.length && !/\s/u.test(text[end] ?? '') && text[end] !== '"') end++;
    const word = text.slice(at, end);
    at = end;
    if (word === 'OR' && !excluded) {
      items.push({ kind: 'or' });
      continue;
    }
    items.push(wordItem(word, excluded));
  }
  return items;
}

function wordItem(word: string, excluded: boolean): Item {
  const star = word.indexOf('*');
  if (star >= 0) {
    if (word.replace(/\*+$/u, '') === '')
      refuse("A * stands for the end of a word: put it after the word's start, as in astro*.");
    if (star < word.length - 1 && word.slice(star).replace(/\*/gu, '') !== '')
      refuse(`A * goes only at the end of a word, as in astro*: "${word}" has one inside.`);
  }
  const bare = word.replace(/\*+$/u, '');
  return termItem(bare, word, star >= 0, excluded);
}

function termItem(text: string, typed: string, star: boolean, excluded: boolean): Item {
  const tokens = textTokens(text);
  if (tokens.length === 0) {
    if (star) refuse(`"${typed}" has no letters or digits before its *.`);
    return { kind: 'nothing' };
  }
  // A run without spaces ends with its last character alone in the index; a substring ending the
  // term needs only its pairs, and a single character is the prefix of the token starting there.
  const last = tokens[tokens.length - 1];
  const before = tokens[tokens.length - 2];
  const runEndsTerm = last?.runEnd === true && before?.unspaced === true && !before.runEnd;
  const kept = runEndsTerm ? tokens.slice(0, -1) : tokens;
  const single = last?.runEnd === true && !runEndsTerm;
  return {
    kind: 'term',
    excluded,
    term: {
      text: typed,
      tokens: kept.map((token) => token.token),
      prefix: star || single,
    },
  };
}
