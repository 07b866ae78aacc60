import type { SearchQuery, SearchTerm } from './search-query';
import { foldText, textTokens, type TextToken } from './search-text';

/** A piece of a segment's text, and whether the query matched it. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

/**
 * Where the query matches one segment's text ([start, end) ranges, merged, in order), or null when
 * the segment is not a hit: a hit holds a term of every group and no excluded term.
 */
export function matchText(query: SearchQuery, text: string): Array<[number, number]> | null {
  if (!mayMatch(query, text)) return null;
  const tokens = textTokens(text);
  if (query.excluded.some((term) => occurrences(term, tokens).length > 0)) return null;
  const ranges: Array<[number, number]> = [];
  for (const group of query.groups) {
    const found = group.flatMap((term) => occurrences(term, tokens));
    if (found.length === 0) return null;
    ranges.push(...found);
  }
  return merge(ranges);
}

/** The segment's text cut into matched and unmatched parts. */
export function snippetOf(text: string, ranges: ReadonlyArray<[number, number]>): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push({ text: text.slice(at, start), match: false });
    parts.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}

const ASCII = /^[\x20-\x7e]*$/;

/**
 * A quick test that rules out most segments before they are cut into tokens: every group needs a
 * term whose first token appears in the folded text. Never false for a segment that matches.
 */
function mayMatch(query: SearchQuery, text: string): boolean {
  const folded = ASCII.test(text) ? text.toLowerCase() : foldText(text);
  return query.groups.every((group) => group.some((term) => folded.includes(term.tokens[0] ?? '')));
}

function occurrences(term: SearchTerm, tokens: readonly TextToken[]): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  const count = term.tokens.length;
  const lastWanted = term.tokens[count - 1] ?? '';
  for (let i = 0; i + count <= tokens.length; i++) {
    let same = true;
    for (let j = 0; j < count - 1 && same; j++) same = tokens[i + j]?.token === term.tokens[j];
    const last = tokens[i + count - 1];
    if (!same || last === undefined) continue;
    if (term.prefix ? !last.token.startsWith(lastWanted) : last.token !== lastWanted) continue;
    // A character without spaces matched as the start of a pair marks that character only.
    const end =
      term.prefix && last.unspaced && lastWanted.length < last.token.length ? last.firstEnd : last.end;
    found.push([tokens[i]?.start ?? 0, end]);
  }
  return found;
}

function merge(ranges: Array<[number, number]>): Array<[number, number]> {
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const previous = merged[merged.length - 1];
    if (previous !== undefined && range[0] <= previous[1]) previous[1] = Math.max(previous[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}
