import { plainLine } from '../../shared/caption-text';
import type { ConcordanceOptions, ConcordanceRow } from '../../shared/contract';
import { dayDate, dayNumber } from '../../shared/periods';
import { textTokens } from '../../shared/search-text';
import { videoUrlAt } from '../../shared/video-links';
import type { Database } from '../store';
import { libraryMatches, type LibraryMatch, type LibrarySearch, type RankedMatch } from './library';
import { libraryContext, type LibraryContext } from './library-context';
import { transcriptFacts, type TranscriptFacts } from './library-facts';
import type { RowsProgress } from './library-export';

/**
 * The concordance (docs/product.md, "Concordance"): every hit of a search as keyword in context, the
 * words before the match (reaching into earlier captions of the transcript), the match (from the
 * first matched word of the caption to the last) and the words after, counted as the index counts
 * words (shared/search-text.ts: a pair of characters in Japanese, Chinese and Korean). Ordered as the
 * search ranks (relevance), by the video's date or channel (from the index and the listings alone,
 * so the first lines come as soon as their transcripts are read), or by the words left or right of
 * the match (nearest first: every hit is read before the first line).
 */

/** Transcripts read between two turns of the event loop. */
const TRANSCRIPTS_PER_TURN = 32;

/** A concordance's options, and how it reports its progress and is cancelled. */
export type ConcordanceRun = ConcordanceOptions & {
  limit: number | null;
  /** Only the hits of videos that may have been published within these days (YYYY-MM-DD). */
  within?: { from: string; to: string } | null;
  onProgress?: (progress: RowsProgress) => void;
  signal?: AbortSignal;
};

/**
 * The hits in all, and the concordance's lines (the first `limit`), read as they are iterated: every
 * TRANSCRIPTS_PER_TURN transcripts read, `onProgress` hears how far it has come and the event loop
 * gets a turn, in which `signal` may be aborted.
 */
export function concordance(
  db: Database,
  search: LibrarySearch,
  options: ConcordanceRun,
): { hits: number; rows: AsyncGenerator<ConcordanceRow> } {
  const facts = transcriptFacts(db);
  const context = libraryContext(db, facts);
  const sort = options.sort;
  const within = options.within ?? null;
  let hitsWithin = 0;
  const { hits, matches } = libraryMatches(db, search, (found) => {
    let ranked = found;
    if (within !== null) {
      const from = dayNumber(within.from);
      const to = dayNumber(within.to);
      ranked = found.filter((match) => {
        const days = context.daysOf(facts.videoOf(match.transcriptId));
        return days !== null && days.first <= to && from <= days.last;
      });
      hitsWithin = ranked.reduce((sum, match) => sum + match.segments.length, 0);
    }
    return sort === 'date' || sort === 'channel' ? orderedByVideo(ranked, sort, facts, context) : ranked;
  });
  const counted = within === null ? hits : hitsWithin;
  const total = options.limit === null ? counted : Math.min(counted, options.limit);
  return { hits: counted, rows: lines(matches, total, options, facts, context) };
}

async function* lines(
  matches: Iterable<LibraryMatch>,
  total: number,
  options: ConcordanceRun,
  facts: TranscriptFacts,
  context: LibraryContext,
): AsyncGenerator<ConcordanceRow> {
  const byWords = options.sort === 'left' || options.sort === 'right';
  const gathered: Array<{ row: ConcordanceRow; key: string[] }> = [];
  let done = 0;
  let read = 0;
  options.onProgress?.({ done, total });
  for (const match of matches) {
    for (const line of linesOf(match, options.context, facts, context)) {
      if (byWords)
        gathered.push({ row: line.row, key: options.sort === 'left' ? line.leftKey : line.rightKey });
      else {
        if (done >= total) return;
        yield line.row;
        done++;
      }
    }
    if (++read % TRANSCRIPTS_PER_TURN === 0) {
      options.onProgress?.({ done, total });
      await new Promise((resolve) => setImmediate(resolve));
      options.signal?.throwIfAborted();
    }
  }
  if (byWords) {
    // Stable: equal contexts stay in the search's order.
    gathered.sort((a, b) => compareWords(a.key, b.key));
    for (const { row } of gathered.slice(0, total)) yield row;
    done = Math.min(gathered.length, total);
  }
  options.onProgress?.({ done, total });
}

/** The contract's libraryConcordance: the hits in all and the first `limit` lines. */
export async function libraryConcordance(
  db: Database,
  search: LibrarySearch,
  options: ConcordanceOptions & { limit: number; within: { from: string; to: string } | null },
): Promise<{ hits: number; rows: ConcordanceRow[] }> {
  const found = concordance(db, search, options);
  const lines: ConcordanceRow[] = [];
  for await (const row of found.rows) lines.push(row);
  return { hits: found.hits, rows: lines };
}

/** Token lists compared word by word, by code point (the words are folded: case and accents ignored). */
function compareWords(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * The matching transcripts by their video's date (the interval's first day, then its last; undated
 * last) or by channel (case ignored; none last, then by date), equal ones in the search's order.
 */
function orderedByVideo(
  ranked: RankedMatch[],
  sort: 'date' | 'channel',
  facts: TranscriptFacts,
  context: LibraryContext,
): RankedMatch[] {
  const NONE = Number.MAX_SAFE_INTEGER;
  const keyed = ranked.map((match, rank) => {
    const days = context.daysOf(facts.videoOf(match.transcriptId));
    const channel = context.channelOf(match.transcriptId);
    return {
      match,
      rank,
      first: days?.first ?? NONE,
      last: days?.last ?? NONE,
      channel: channel === null ? null : textTokens(channel).map((token) => token.token),
    };
  });
  keyed.sort((a, b) => {
    if (sort === 'channel' && a.channel !== b.channel) {
      if (a.channel === null || b.channel === null) return a.channel === null ? 1 : -1;
      const byChannel = compareWords(a.channel, b.channel);
      if (byChannel !== 0) return byChannel;
    }
    return a.first - b.first || a.last - b.last || a.rank - b.rank;
  });
  return keyed.map((each) => each.match);
}

interface Line {
  row: ConcordanceRow;
  /** The words left of the match, nearest first, and right of it, in order (folded). */
  leftKey: string[];
  rightKey: string[];
}

/** A matching transcript's hits as concordance lines, in time order. */
function linesOf(
  match: LibraryMatch,
  words: number,
  facts: TranscriptFacts,
  context: LibraryContext,
): Line[] {
  const { transcript, channelTitle, segments } = match;
  const days = context.daysOf(facts.videoOf(transcript.id));
  const texts = segments.map((segment) => plainLine(segment.text));
  return match.hits.map((hit) => {
    const text = hit.text;
    const first = hit.ranges[0];
    const last = hit.ranges[hit.ranges.length - 1];
    const start = first?.[0] ?? 0;
    const end = last?.[1] ?? text.length;
    const left = wordsBefore(texts, hit.segment, start, words);
    const right = wordsAfter(texts, hit.segment, end, words);
    return {
      row: {
        transcriptId: transcript.id,
        videoId: transcript.videoId,
        segment: hit.segment,
        start: hit.start,
        language: transcript.language,
        title: transcript.title,
        channelTitle,
        publishedFrom: days === null ? null : dayDate(days.first),
        publishedTo: days === null ? null : dayDate(days.last),
        url: videoUrlAt(transcript.videoId, hit.start),
        left: left.text,
        match: text.slice(start, end),
        right: right.text,
      },
      leftKey: left.tokens.reverse(),
      rightKey: right.tokens,
    };
  });
}

/** One line of text: runs of white space as one space, ends trimmed. */
const oneLine = (text: string): string => text.replace(/\s+/gu, ' ').trim();

/** The last `words` words before `at` in segment `index`, reaching back into earlier segments. */
function wordsBefore(
  texts: readonly string[],
  index: number,
  at: number,
  words: number,
): { text: string; tokens: string[] } {
  const pieces: string[] = [];
  const tokens: string[] = [];
  for (let i = index; i >= 0 && tokens.length < words; i--) {
    const piece = i === index ? (texts[i] ?? '').slice(0, at) : (texts[i] ?? '');
    const found = textTokens(piece);
    const taken = found.slice(Math.max(0, found.length - (words - tokens.length)));
    const from = taken.length === found.length ? 0 : (taken[0]?.start ?? 0);
    pieces.unshift(piece.slice(from));
    tokens.unshift(...taken.map((token) => token.token));
  }
  return { text: oneLine(pieces.join(' ')), tokens };
}

/** The first `words` words after `at` in segment `index`, reaching into later segments. */
function wordsAfter(
  texts: readonly string[],
  index: number,
  at: number,
  words: number,
): { text: string; tokens: string[] } {
  const pieces: string[] = [];
  const tokens: string[] = [];
  for (let i = index; i < texts.length && tokens.length < words; i++) {
    const piece = i === index ? (texts[i] ?? '').slice(at) : (texts[i] ?? '');
    const found = textTokens(piece);
    const taken = found.slice(0, words - tokens.length);
    const to = taken.length === found.length ? piece.length : (taken[taken.length - 1]?.end ?? 0);
    pieces.push(piece.slice(0, to));
    tokens.push(...taken.map((token) => token.token));
  }
  return { text: oneLine(pieces.join(' ')), tokens };
}
