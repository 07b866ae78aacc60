import type { Chunk } from './chunks';
import { jsonText, Seconds } from './json-text';
import type { JsonValue } from './json-text';
import { publishedInterval, type PublishedInterval } from '../../../shared/published';
import { videoUrl, videoUrlAt } from '../../../shared/video-links';
import { ORIGINAL_TRACK } from '../../../shared/vocabulary';
import type { ExportSegment, ExportVideo, MetadataTexts } from './types';

const orNull = (value: string | undefined | null): string | null => (value === undefined ? null : value);

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

export function metadataTextsOf(metadata: Record<string, unknown> | undefined): MetadataTexts {
  return { title: metadataText(metadata, 'title'), authorName: metadataText(metadata, 'author_name') };
}

/**
 * The metadata's texts of an ok video: from what its transcript derived ahead of the export, else
 * from its metadata (which may read its stored body).
 */
function metadataTextsOfVideo(video: ExportVideo): MetadataTexts {
  return video.derived?.metadata ?? metadataTextsOf(video.metadata);
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
  return video.listing?.channelTitle ?? metadataTextsOfVideo(video).authorName;
}

/** The language asked for: its code, or `orig` for the video's original track (asked with no code). */
export function requestedLanguageOf(video: ExportVideo): string | undefined {
  if (video.requestedLanguage === undefined) return undefined;
  return video.requestedLanguage === '' ? ORIGINAL_TRACK : video.requestedLanguage;
}

/** The title the list pages gave, else the one the metadata gave, else null. */
function titleOf(video: ExportVideo): string | null {
  return video.title !== '' ? video.title : metadataTextsOfVideo(video).title;
}

/** What rendering a transcript found out, for its record. */
export interface TranscriptText {
  /** The plain text, one line per segment (the txt file without its last line ending). */
  text: string;
  wordCount: number;
}

/**
 * The fields of a record, in order: its head (what the job says of the video: the listing, the corpus
 * number, the language asked for) up to `fetched_at`, then its tail (what the stored transcript alone
 * says), from `author_name`. prettyRecord() relies on this order.
 */
export const RECORD_FIELDS = [
  'video_id',
  'number',
  'title',
  'url',
  'source',
  'position',
  'channel_title',
  'channel_id',
  'published',
  'published_from',
  'published_to',
  'listed_at',
  'duration_seconds',
  'view_count',
  'language',
  'requested_language',
  'fetched_at',
  'author_name',
  'author_url',
  'thumbnail_url',
  'segment_count',
  'word_count',
  'text',
  'segments',
] as const;

/** The fields of each of a record's segments, in order. */
const SEGMENT_FIELDS = ['text', 'start', 'duration'] as const;

/**
 * The head of an ok video's record: what the job says of the video (RECORD_FIELDS up to
 * `fetched_at`), with `metadata` for the title and channel a list page left empty.
 */
export function recordHead(video: ExportVideo, metadata: MetadataTexts): JsonValue {
  const { listing } = video;
  const published = publishedOf(video);
  return {
    video_id: video.videoId,
    number: integerOrNull(video.number),
    title: video.title !== '' ? video.title : metadata.title,
    url: videoUrl(video.videoId),
    source: video.source,
    position: integerOrNull(video.position),
    channel_title: listing?.channelTitle ?? metadata.authorName,
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
  };
}

/**
 * The tail of a record: what the stored transcript alone says (RECORD_FIELDS from `author_name`), the
 * same whatever job exports it. `segments` keep each text exactly as the service sent it, `text` is
 * the plain text (plain-text.ts).
 */
export function recordTail(
  segments: readonly ExportSegment[],
  metadata: Record<string, unknown> | undefined,
  { text, wordCount }: TranscriptText,
): JsonValue {
  return {
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

/** A record's tail as compact JSON members, without the braces: what recordJson() appends to a head. */
export function recordTailJson(tail: JsonValue): string {
  return jsonText(tail).slice(1, -1);
}

/**
 * The record of one ok video as compact JSON, written once: its head, then the members of its tail
 * (recordTailJson). Flat, with every field in every record (null when unknown) and one type per field:
 * times in seconds as floats (json-text.ts), counts as integers. Its json/ file is the same record
 * laid out (prettyRecord), its line of transcripts.jsonl this text.
 */
export function recordJson(head: JsonValue, tailJson: string): string {
  return `${jsonText(head).slice(0, -1)},${tailJson}}`;
}

const PRETTY_MEMBER = '\n  ';
const PRETTY_SEGMENT_FIELD = '\n      ';

/**
 * A record's compact JSON (recordJson) laid out as JSON.stringify(record, null, 2) lays it out, from
 * the text alone: the record is never serialized a second time. It only adds whitespace where the
 * layout puts it: after the record's and each segment's opening brace, after each member's colon and
 * comma, and around the segments. Every field is there, in the order of RECORD_FIELDS and
 * SEGMENT_FIELDS, so each place is found by its key: `,"<key>":` can only stand between two members,
 * since a quote inside a JSON string is always escaped.
 */
export function prettyRecord(compact: string): string {
  let pretty = '{';
  let at = 1;
  for (const [index, field] of RECORD_FIELDS.entries()) {
    const key = `"${field}":`;
    const end =
      index + 1 < RECORD_FIELDS.length ? compact.indexOf(`,"${RECORD_FIELDS[index + 1]}":`, at) : -1;
    const value = compact.slice(at + key.length, end < 0 ? compact.length - 1 : end);
    const laidOut = field === 'segments' ? prettySegments(value) : value;
    pretty += `${index === 0 ? '' : ','}${PRETTY_MEMBER}${key} ${laidOut}`;
    at = end + 1;
  }
  return `${pretty}\n}`;
}

/** A compact array of segments (`[{"text":…,"start":…,"duration":…},…]`) laid out as a record's member. */
function prettySegments(compact: string): string {
  if (compact === '[]') return compact;
  const [first, ...others] = SEGMENT_FIELDS.map((field) => `"${field}":`);
  let members = compact.slice(2 + (first?.length ?? 0), -2);
  for (const key of others) members = members.replaceAll(`,${key}`, `,${PRETTY_SEGMENT_FIELD}${key} `);
  members = members.replaceAll(`},{${first}`, `\n    },\n    {${PRETTY_SEGMENT_FIELD}${first} `);
  return `[\n    {${PRETTY_SEGMENT_FIELD}${first} ${members}\n    }\n  ]`;
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
