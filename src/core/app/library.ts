import type { SearchGroup, SearchResults, TranscriptReading } from '../../shared/contract';
import { matchText, snippetOf } from '../../shared/search-match';
import { parseSearchQuery, type SearchQuery } from '../../shared/search-query';
import { foldText } from '../../shared/search-text';
import { videoUrl, videoUrlAt } from '../../shared/video-links';
import { rereadStoredTranscript, type Segment } from '../api';
import type { Database } from '../store';
import { libraryTranscript, searchCandidates, type LibraryTranscript } from '../store/library';
import { AppError } from './errors';

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
  text: string;
  ranges: Array<[number, number]>;
}

/** One matching transcript, its hits in time order. */
export interface LibraryMatch {
  transcript: LibraryTranscript;
  channelTitle: string | null;
  hits: LibraryHit[];
}

/** The parsed query, or invalid_input with the parser's plain message. */
export function parsedQuery(text: string): SearchQuery {
  const parsed = parseSearchQuery(text);
  if (!parsed.ok) throw new AppError('invalid_input', parsed.message);
  return parsed.query;
}

/**
 * Every transcript the search matches, best first: the index finds the transcripts (bm25), then each
 * one's segments are read back from its stored body and checked, since a hit is a segment.
 */
export function* libraryMatches(db: Database, search: LibrarySearch): Generator<LibraryMatch> {
  const query = parsedQuery(search.query);
  const channel = !search.channel?.trim() ? null : foldText(search.channel.trim());
  const candidates = searchCandidates(db, query, {
    jobId: search.jobId ?? null,
    language: search.language ?? null,
  });
  for (const { id } of candidates) {
    const transcript = libraryTranscript(db, id);
    if (transcript === undefined) continue;
    const { segments, channelTitle } = readBodyQuickly(transcript);
    if (channel !== null && !foldText(channelTitle ?? '').includes(channel)) continue;
    const hits: LibraryHit[] = [];
    segments.forEach((segment, index) => {
      const ranges = matchText(query, segment.text);
      if (ranges !== null)
        hits.push({ segment: index, start: segment.start ?? null, text: segment.text, ranges });
    });
    if (hits.length > 0) yield { transcript, channelTitle, hits };
  }
}

/** The contract's searchTranscripts: totals over every match, at most `limit` hits listed. */
export function searchLibrary(db: Database, search: LibrarySearch, limit: number): SearchResults {
  /** A video can match in more than one transcript (another language, another way bought). */
  const videos = new Set<string>();
  let hits = 0;
  const groups: SearchGroup[] = [];
  for (const match of libraryMatches(db, search)) {
    videos.add(match.transcript.videoId);
    hits += match.hits.length;
    const room = limit - groups.reduce((sum, group) => sum + group.hits.length, 0);
    if (room <= 0) continue;
    const { transcript } = match;
    groups.push({
      ...describe(transcript, match.channelTitle),
      hits: match.hits.slice(0, room).map((hit) => ({
        segment: hit.segment,
        start: hit.start,
        url: videoUrlAt(transcript.videoId, hit.start),
        snippet: snippetOf(hit.text, hit.ranges),
      })),
    });
  }
  return { videos: videos.size, hits, groups };
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
  const hits: number[] = [];
  if (query !== null)
    segments.forEach((segment, index) => matchText(query, segment.text) && hits.push(index));
  return {
    ...describe(transcript, channelTitle),
    segments: segments.map((segment) => ({
      start: segment.start ?? null,
      duration: segment.duration ?? null,
      text: segment.text,
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
 * without checking it field by field: searching reads every matching transcript, and the stored body
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
