import type { Chunk } from './chunks';
import { Seconds } from './json-text';
import type { JsonValue } from './json-text';
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

const orNull = (value: string | undefined): string | null => (value === undefined ? null : value);

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
  return {
    video_id: video.videoId,
    title: titleOf(video),
    url: videoUrl(video.videoId),
    source: video.source,
    position: integerOrNull(video.position),
    channel_title: orNull(listing?.channelTitle),
    channel_id: orNull(listing?.channelId),
    published: orNull(listing?.published),
    duration_seconds: secondsOrNull(listing?.durationSeconds),
    view_count: integerOrNull(listing?.viewCount),
    language: orNull(video.language),
    requested_language: orNull(video.requestedLanguage),
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
 * One line of chunks.jsonl: a passage (chunks.ts) of an ok video, with the address that opens the
 * video at its start. Every field in every record, times in seconds as floats.
 */
export function chunkRecord(video: ExportVideo, chunk: Chunk): JsonValue {
  const startSeconds = chunk.startMs / 1000;
  return {
    video_id: video.videoId,
    title: titleOf(video),
    start: new Seconds(startSeconds),
    end: new Seconds(chunk.endMs / 1000),
    text: chunk.text,
    url: videoUrlAt(video.videoId, startSeconds),
  };
}
