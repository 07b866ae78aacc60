import { plainLine } from '../../shared/caption-text';
import type { SearchGroup, SearchResults, TranscriptReading } from '../../shared/contract';
import { matchText, snippetOf } from '../../shared/search-match';
import { parseSearchQuery, type SearchQuery } from '../../shared/search-query';
import { foldText } from '../../shared/search-text';
import { videoUrl, videoUrlAt } from '../../shared/video-links';
import { rereadStoredTranscript, type Segment } from '../api';
import type { Database } from '../store';
import {
  itemChannelTitles,
  jobExists,
  jobTranscriptIds,
  libraryTranscript,
  matchingRowids,
  matchingSegmentsOf,
  SEGMENT_SLOTS,
  transcriptsNamingChannels,
  transcriptsOfChannels,
  type LibraryTranscript,
} from '../store/queries/library';
import { AppError } from './errors';
import { transcriptFacts, type TranscriptFacts } from './library-facts';

/** What the Library is asked: a query and the optional narrowing of the contract's LibrarySearch. */
export interface LibrarySearch {
  query: string;
  jobId?: number | null;
  language?: string | null;
  channel?: string | null;
}

/** A matching segment of a transcript. */
export interface LibraryHit {
  segment: number;
  start: number | null;
  /** As the corpus's files read it (shared/caption-text.ts). */
  text: string;
  ranges: Array<[number, number]>;
}

/** One matching transcript, its hits in time order, and all its segments as stored. */
export interface LibraryMatch {
  transcript: LibraryTranscript;
  channelTitle: string | null;
  hits: LibraryHit[];
  segments: Segment[];
}

/** The parsed query, or invalid_input with the parser's plain message. */
export function parsedQuery(text: string): SearchQuery {
  const parsed = parseSearchQuery(text);
  if (!parsed.ok) throw new AppError('invalid_input', parsed.message);
  return parsed.query;
}

/** A transcript the search matches: its id and the indices of its matching segments, ascending. */
export interface RankedMatch {
  transcriptId: number;
  segments: number[];
}

/** What a search found: totals over every match, and the best matches, best first. */
interface Found {
  videos: number;
  hits: number;
  best: RankedMatch[];
}

/** bm25's constants, as FTS5 uses them. */
const K1 = 1.2;
const B = 0.75;

/** The narrowing of a search (job, language, channel) as a test of a transcript's id. */
export function narrowingOf(
  db: Database,
  search: Omit<LibrarySearch, 'query'>,
  facts: TranscriptFacts,
): (transcriptId: number) => boolean {
  const inJob = search.jobId == null ? null : jobTranscripts(db, search.jobId);
  const inLanguage = !search.language?.trim() ? null : facts.languageFilter(search.language);
  const inChannel = !search.channel?.trim() ? null : channelFilter(db, foldText(search.channel.trim()));
  return (transcriptId) =>
    (inJob === null || inJob.has(transcriptId)) &&
    (inLanguage === null || inLanguage(transcriptId)) &&
    (inChannel === null || inChannel(transcriptId));
}

/**
 * The matching segments' rowids, ascending, and for each transcript the narrowing keeps, its id and
 * the span of its rowids: `rowids[from]` to `rowids[to - 1]`.
 */
function* keptTranscripts(
  db: Database,
  search: LibrarySearch,
  rowids: readonly number[],
  facts: TranscriptFacts,
): Generator<TranscriptSpan> {
  const kept = narrowingOf(db, search, facts);
  for (const span of transcriptSpans(rowids)) if (kept(span.transcriptId)) yield span;
}

/** A transcript among the matching segments' rowids: `rowids[from]` to `rowids[to - 1]` are its. */
export interface TranscriptSpan {
  transcriptId: number;
  from: number;
  to: number;
}

/** Each transcript of the matching segments' rowids (ascending), with the span of its rowids. */
export function* transcriptSpans(rowids: readonly number[]): Generator<TranscriptSpan> {
  for (let from = 0, to = 0; from < rowids.length; from = to) {
    const transcriptId = Math.floor((rowids[from] ?? 0) / SEGMENT_SLOTS);
    const next = (transcriptId + 1) * SEGMENT_SLOTS;
    while (to < rowids.length && (rowids[to] ?? next) < next) to++;
    yield { transcriptId, from, to };
  }
}

/** The transcripts of a job; a job that does not exist is refused, not taken for one without any. */
function jobTranscripts(db: Database, jobId: number): Set<number> {
  if (!jobExists(db, jobId)) throw new AppError('job_not_found', `There is no job ${jobId}.`);
  return jobTranscriptIds(db, jobId);
}

/**
 * Every transcript the search matches, counted, and the `most` best of them with their matching
 * segments, as the index names them (a row per segment): nothing is read but the index and, for a
 * channel, the items. A caption two transcripts of the same video and language hold (a video bought
 * again) is a hit once, of the first of them the narrowing keeps. A video's relevance is bm25's
 * term-frequency part, the whole query taken as one term and counted in segments: the more of them
 * match, for its length against the library's average, the higher. bm25's rarity part (idf) is left
 * out: for one term it is the same for every video, so it would not change the order, but a query of
 * several words is not weighted word by word by how rare each is. Equal ones come oldest first. A
 * word said in most of 100,000 videos passes here hundreds of thousands of times: typed arrays, no
 * object per match.
 */
function found(db: Database, search: LibrarySearch, most: number): Found {
  const rowids = matchingRowids(db, parsedQuery(search.query));
  // Read after the index, so that every transcript it named is known.
  const facts = transcriptFacts(db);
  const average = facts.averageSegments();
  const videoSeen = new Uint8Array(facts.size);
  /** The rowids of the captions counted that other transcripts hold too (their first holder's). */
  const counted = new Set<number>();
  /** 1 for a matching segment whose caption was counted already, in an earlier transcript. */
  const repeated = new Uint8Array(rowids.length);
  let videos = 0;
  let hits = 0;
  /** The matching transcripts kept: their ids, where their rowids start and end, their scores. */
  const ids = new Float64Array(rowids.length);
  const starts = new Uint32Array(rowids.length);
  const ends = new Uint32Array(rowids.length);
  const scores = new Float64Array(rowids.length);
  let count = 0;
  for (const { transcriptId, from, to } of keptTranscripts(db, search, rowids, facts)) {
    let n = to - from;
    if (facts.sharesCaptions(transcriptId)) {
      for (let at = from; at < to; at++) {
        const segment = (rowids[at] ?? 0) - transcriptId * SEGMENT_SLOTS;
        const caption = facts.captionOrigin(transcriptId, segment) * SEGMENT_SLOTS + segment;
        if (!counted.has(caption)) counted.add(caption);
        else {
          repeated[at] = 1;
          n--;
        }
      }
    }
    if (n === 0) continue;
    const video = facts.videoOf(transcriptId);
    if (videoSeen[video] === 0) {
      videoSeen[video] = 1;
      videos++;
    }
    hits += n;
    const length = Math.max(facts.segmentsOf(transcriptId), n) / average;
    ids[count] = transcriptId;
    starts[count] = from;
    ends[count] = to;
    scores[count] = (n * (K1 + 1)) / (n + K1 * (1 - B + B * length));
    count++;
  }
  const best = bestOf(scores.subarray(0, count), ids, most).map((k) => {
    const transcriptId = ids[k] ?? 0;
    const segments: number[] = [];
    for (let at = starts[k] ?? 0; at < (ends[k] ?? 0); at++)
      if (repeated[at] === 0) segments.push((rowids[at] ?? 0) - transcriptId * SEGMENT_SLOTS);
    return { transcriptId, segments };
  });
  return { videos, hits, best };
}

/**
 * The positions of the `most` best scores, best first (equal ones by id). A page wants a hundred of
 * tens of thousands: kept in order as they come, most are turned away with one comparison.
 */
function bestOf(scores: Float64Array, ids: Float64Array, most: number): number[] {
  /** Above 0 when the score at `a` ranks before the one at `b`. */
  const before = (a: number, b: number) =>
    (scores[a] ?? 0) - (scores[b] ?? 0) || (ids[b] ?? 0) - (ids[a] ?? 0);
  if (scores.length <= most) return Array.from(scores.keys()).sort((a, b) => before(b, a));
  const best: number[] = [];
  for (let k = 0; k < scores.length; k++) {
    const last = best[best.length - 1];
    if (best.length === most && last !== undefined && before(k, last) <= 0) continue;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (before(k, best[middle] ?? k) > 0) high = middle;
      else low = middle + 1;
    }
    best.splice(low, 0, k);
    if (best.length > most) best.pop();
  }
  return best;
}

/**
 * Whether a transcript's channel holds `folded` (folded text): the channel a list page named for its
 * video, else the one its body's metadata names (read only for transcripts no list page named).
 */
function channelFilter(db: Database, folded: string): (transcriptId: number) => boolean {
  const titles = itemChannelTitles(db).filter((title) => foldText(title).includes(folded));
  const named = transcriptsOfChannels(db, titles);
  const namedAtAll = transcriptsNamingChannels(db);
  return (transcriptId) => {
    if (named.has(transcriptId)) return true;
    if (namedAtAll.has(transcriptId)) return false;
    const transcript = libraryTranscript(db, transcriptId);
    const channel = transcript === undefined ? null : readBodyQuickly(transcript).channelTitle;
    return channel !== null && foldText(channel).includes(folded);
  };
}

/** A matching transcript read back: its hits are the segments the index named, marked. */
function matchOf(
  db: Database,
  query: SearchQuery,
  match: RankedMatch,
  most: number,
): LibraryMatch | undefined {
  const transcript = libraryTranscript(db, match.transcriptId);
  if (transcript === undefined) return undefined;
  const { segments, channelTitle } = readBodyQuickly(transcript);
  const hits = match.segments.slice(0, most).flatMap((index): LibraryHit[] => {
    const segment = segments[index];
    if (segment === undefined) return [];
    // The index decides the hits; the marks are matched here, as the reader marks them.
    const text = plainLine(segment.text);
    const ranges = matchText(query, text) ?? [];
    return [{ segment: index, start: segment.start ?? null, text, ranges }];
  });
  return { transcript, channelTitle, hits, segments };
}

/**
 * The ids of every transcript the narrowing keeps that holds a matching segment, from the index
 * alone, in the order of ids; those whose hits are all captions an earlier transcript holds too
 * included.
 */
export function matchingTranscriptIds(db: Database, search: LibrarySearch): number[] {
  const rowids = matchingRowids(db, parsedQuery(search.query));
  const facts = transcriptFacts(db);
  return Array.from(keptTranscripts(db, search, rowids, facts), (kept) => kept.transcriptId);
}

/**
 * How many hits the search has in all, and every transcript it matches, best first (or in the order
 * `reorder` gives them, from the index alone), each read back (one at a time, as `matches` is
 * iterated) with its hits.
 */
export function libraryMatches(
  db: Database,
  search: LibrarySearch,
  reorder: (ranked: RankedMatch[]) => RankedMatch[] = (ranked) => ranked,
): { hits: number; matches: Iterable<LibraryMatch> } {
  const query = parsedQuery(search.query);
  const { hits, best } = found(db, search, Infinity);
  const ordered = reorder(best);
  function* matches(): Generator<LibraryMatch> {
    for (const match of ordered) {
      const read = matchOf(db, query, match, Infinity);
      if (read !== undefined && read.hits.length > 0) yield read;
    }
  }
  return { hits, matches: matches() };
}

/**
 * The contract's searchTranscripts: totals over every match, from the index alone, and at most
 * `limit` hits listed, for which only the transcripts listed are read.
 */
export function searchLibrary(db: Database, search: LibrarySearch, limit: number): SearchResults {
  const query = parsedQuery(search.query);
  // Each transcript listed has a hit at least.
  const { videos, hits, best } = found(db, search, limit);
  const groups: SearchGroup[] = [];
  let room = limit;
  for (const match of best) {
    if (room <= 0) break;
    const read = matchOf(db, query, match, room);
    if (read === undefined || read.hits.length === 0) continue;
    room -= read.hits.length;
    const { transcript } = read;
    groups.push({
      ...describe(transcript, read.channelTitle),
      hits: read.hits.map((hit) => ({
        segment: hit.segment,
        start: hit.start,
        url: videoUrlAt(transcript.videoId, hit.start),
        snippet: snippetOf(hit.text, hit.ranges),
      })),
    });
  }
  return { videos, hits, groups };
}

/** The contract's readTranscript. */
export function readLibraryTranscript(
  db: Database,
  transcriptId: number,
  queryText: string | null,
): TranscriptReading {
  const transcript = libraryTranscript(db, transcriptId);
  if (transcript === undefined)
    throw new AppError('invalid_input', `There is no stored transcript ${transcriptId}.`);
  const query = queryText === null || queryText.trim() === '' ? null : parsedQuery(queryText);
  const { segments, channelTitle } = readBody(transcript);
  // The hits the search listed: the index names them.
  const hits = query === null ? [] : matchingSegmentsOf(db, query, transcriptId);
  return {
    ...describe(transcript, channelTitle),
    segments: segments.map((segment) => ({
      start: segment.start ?? null,
      duration: segment.duration ?? null,
      text: plainLine(segment.text),
    })),
    hits,
  };
}

function describe(transcript: LibraryTranscript, channelTitle: string | null) {
  return {
    transcriptId: transcript.id,
    videoId: transcript.videoId,
    title: transcript.title,
    channelTitle,
    language: transcript.language,
    url: videoUrl(transcript.videoId),
  };
}

/**
 * The same as readBody for a body in the usual shape ({ transcript: [{ text, start, duration }] }),
 * without checking it field by field: a search reads every transcript it lists, and the stored body
 * was checked when it was received.
 */
function readBodyQuickly(transcript: LibraryTranscript): {
  segments: Segment[];
  channelTitle: string | null;
} {
  const raw: unknown = JSON.parse(transcript.body);
  const lines = isRecord(raw) ? raw['transcript'] : undefined;
  if (!Array.isArray(lines) || !lines.every(isUsualSegment)) return readBody(transcript);
  const metadata = isRecord(raw) ? raw['metadata'] : undefined;
  const author = isRecord(metadata) ? metadata['author_name'] : undefined;
  return {
    segments: lines as Segment[],
    channelTitle: transcript.channelTitle ?? (typeof author === 'string' && author !== '' ? author : null),
  };
}

function isUsualSegment(line: unknown): boolean {
  return (
    isRecord(line) &&
    typeof line['text'] === 'string' &&
    (line['start'] === undefined || typeof line['start'] === 'number') &&
    (line['duration'] === undefined || typeof line['duration'] === 'number')
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The stored body's segments, and the channel its metadata names when no list page did. */
export function readBody(transcript: LibraryTranscript): {
  segments: Segment[];
  channelTitle: string | null;
} {
  const raw: unknown = JSON.parse(transcript.body);
  const reading = rereadStoredTranscript(raw, {
    video: transcript.videoId,
    includeTimestamp: transcript.includeTimestamp,
    sendMetadata: transcript.sendMetadata,
    ...(transcript.requestedLang !== '' && { lang: transcript.requestedLang }),
  });
  if (!reading.ok)
    throw new Error(
      `the stored transcript of ${transcript.videoId} cannot be read again: ${reading.problem}`,
    );
  const author = reading.value.metadata?.authorName;
  return {
    segments: reading.value.segments,
    channelTitle: transcript.channelTitle ?? (typeof author === 'string' && author !== '' ? author : null),
  };
}
