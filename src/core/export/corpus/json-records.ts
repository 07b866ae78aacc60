import type { Chunk } from './chunks';
import { Seconds } from './json-text';
import type { JsonValue } from './json-text';
import { publishedInterval, type PublishedInterval } from '../../../shared/published';
import type { ExportVideo } from './types';

/**
 * The video's page, e.g. https://www.youtube.com/watch?v=dQw4w9WgXcQ. The id is percent-encoded (a
 * lone surrogate, which has no encoding, as U+FFFD), so that even an id no real video has gives a URL.
 */
export function videoUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${encodeURIComponent(videoId.replace(/\p{Cs}/gu, '\ufffd'))}`;
}

/** The video's page, opening at `seconds` (whole seconds, rounded down). */
export function videoUrlAt(videoId: string, seconds: number): string {
  return `${videoUrl(videoId)}&t=${Math.floor(seconds)}s`;
}

const orNull = (value: string | undefined | null): string | null => (value === undefined ? null : value);

/** What `--lang` calls the original track, and the records and index.csv with it. */
const ORIGINAL_TRACK = 'orig';

/** An integer, or null when unknown or not a safe integer. */
const integerOrNull = (value: number | undefined): number | null =>
  value !== undefined && Number.isSafeInteger(value) ? value : null;

const secondsOrNull = (value: number | undefined): Seconds | null =>
  value === undefined ? null : new Seconds(value);

/** A text field of the metadata, under its snake_case name as sent or its camelCase spelling. */
function metadataText(metadata: Record<string, unknown> | undefined, snakeCase: string): string | null {
  const camelCase = snakeCase.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  const value = metadata?.[snakeCase] ?? metadata?.[camelCase];
  return typeof value === 'string' ? value : null;
}

/**
 * When the video was published, as an interval of days: from the listing's words, dated by when its
 * page was read; undefined when the listing says nothing readable.
 */
export function publishedOf(video: ExportVideo): PublishedInterval | undefined {
  const listedAt = video.listedAt === undefined ? undefined : Date.parse(video.listedAt);
  return publishedInterval(video.listing?.published, listedAt);
}

/** The channel as the list page gave it, else (a video given by itself) the metadata's author. */
export function channelTitleOf(video: ExportVideo): string | null {
  return video.listing?.channelTitle ?? metadataText(video.metadata, 'author_name');
}

/** The language asked for: its code, or `orig` for the video's original track (asked with no code). */
export function requestedLanguageOf(video: ExportVideo): string | undefined {
  if (video.requestedLanguage === undefined) return undefined;
  return video.requestedLanguage === '' ? ORIGINAL_TRACK : video.requestedLanguage;
}

/** The title the list pages gave, else the one the metadata gave, else null. */
function titleOf(video: ExportVideo): string | null {
  return video.title !== '' ? video.title : metadataText(video.metadata, 'title');
}

/** What rendering a transcript found out, for its record. */
export interface TranscriptText {
  /** The plain text, one line per segment (the txt file without its last line ending). */
  text: string;
  wordCount: number;
}

/**
 * The record of one ok video: a json/ file (pretty-printed) and a line of transcripts.jsonl (compact)
 * share it. Flat, with every field in every record (null when unknown) and one type per field: times
 * in seconds as floats (json-text.ts), counts as integers. `segments` keep each text exactly as the
 * service sent it, `text` is the plain text (plain-text.ts).
 */
export function transcriptRecord(video: ExportVideo, { text, wordCount }: TranscriptText): JsonValue {
  const { listing, metadata } = video;
  const segments = video.segments ?? [];
  const published = publishedOf(video);
  return {
    video_id: video.videoId,
    number: integerOrNull(video.number),
    title: titleOf(video),
    url: videoUrl(video.videoId),
    source: video.source,
    position: integerOrNull(video.position),
    channel_title: channelTitleOf(video),
    channel_id: orNull(listing?.channelId),
    published: orNull(listing?.published),
    published_from: orNull(published?.from),
    published_to: orNull(published?.to),
    listed_at: orNull(video.listedAt),
    duration_seconds: secondsOrNull(listing?.durationSeconds),
    view_count: integerOrNull(listing?.viewCount),
    language: orNull(video.language),
    requested_language: orNull(requestedLanguageOf(video)),
    fetched_at: orNull(video.fetchedAt),
    author_name: metadataText(metadata, 'author_name'),
    author_url: metadataText(metadata, 'author_url'),
    thumbnail_url: metadataText(metadata, 'thumbnail_url'),
    segment_count: segments.length,
    word_count: wordCount,
    text,
    segments: segments.map((segment) => ({
      text: segment.text,
      start: secondsOrNull(segment.start),
      duration: secondsOrNull(segment.duration),
    })),
  };
}

/**
 * The ids of a video's passages: `<video_id>@<start in ms>`, which names a passage for good. Passages
 * start at distinct times unless the service sent segments starting together; a second passage
 * starting at the same millisecond is `@<ms>-2`, and so on.
 */
export function chunkIds(videoId: string, chunks: readonly Chunk[]): string[] {
  const seen = new Map<number, number>();
  return chunks.map(({ startMs }) => {
    const count = (seen.get(startMs) ?? 0) + 1;
    seen.set(startMs, count);
    return `${videoId}@${startMs}${count > 1 ? `-${count}` : ''}`;
  });
}

/**
 * One line of chunks.jsonl: a passage (chunks.ts) of an ok video, with its id (chunkIds) and the
 * address that opens the video at its start. Every field in every record, times in seconds as floats.
 */
export function chunkRecord(video: ExportVideo, chunk: Chunk, chunkId: string): JsonValue {
  const startSeconds = chunk.startMs / 1000;
  return {
    chunk_id: chunkId,
    video_id: video.videoId,
    language: orNull(video.language),
    title: titleOf(video),
    start: new Seconds(startSeconds),
    end: new Seconds(chunk.endMs / 1000),
    text: chunk.text,
    url: videoUrlAt(video.videoId, startSeconds),
  };
}
