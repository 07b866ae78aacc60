/**
 * zod schemas for the service's 200 bodies, and their normalisation to the types in types.ts.
 *
 * Tolerant by design (docs/service.md): field names may be snake_case or camelCase, times may be
 * integers, decimals or numeric strings, unknown fields are ignored and optional fields may be
 * missing or malformed. Only a body that cannot be used at all is refused, with a sentence
 * saying what was wrong.
 */
import { z } from 'zod';
import { MAX_SEGMENT_SECONDS } from '../../shared/limits';
import type {
  ChannelLatest,
  ChannelResolution,
  SearchResults,
  Segment,
  Transcript,
  TranscriptMetadata,
  TranscriptRequest,
  VideoItem,
  VideoPage,
} from './types';

/**
 * Every wire spelling of a camelCase field name: each capital (or digit) may also arrive as `_`
 * followed by its lower-case form, so `videoId` may come as `video_id`.
 */
function wireSpellings(name: string): string[] {
  let spellings = [''];
  for (const char of name) {
    const snake = /[A-Z0-9]/.test(char) ? `_${char.toLowerCase()}` : undefined;
    spellings = spellings.flatMap((prefix) =>
      snake === undefined ? [prefix + char] : [prefix + char, prefix + snake],
    );
  }
  return spellings;
}

/**
 * Keeps the fields of `shape` from one object level, renamed to camelCase; the first spelling seen
 * wins. A fixed table of spellings, built once per schema, since bodies hold thousands of segments.
 */
function pickWireFields(names: ReadonlyMap<string, string>): (value: unknown) => unknown {
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const picked: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const name = names.get(key);
      if (name !== undefined && !(name in picked)) picked[name] = (value as Record<string, unknown>)[key];
    }
    return picked;
  };
}

/** An object whose fields may arrive in either case; the shape is written in camelCase. */
function wireObject<Shape extends z.ZodRawShape>(shape: Shape) {
  const names = new Map<string, string>();
  for (const name of Object.keys(shape)) {
    for (const spelling of wireSpellings(name)) names.set(spelling, name);
  }
  return z.preprocess(pickWireFields(names), z.object(shape));
}

/** How a number may arrive as text, e.g. "18.0". */
const NUMERIC_TEXT = /^-?\d+(\.\d+)?$/;

/** A number, or a numeric string such as "18.0". */
const numberLike = z.union([z.number(), z.string().trim().regex(NUMERIC_TEXT).transform(Number)], {
  error: 'expected a number',
});

export const nonNegativeNumber = numberLike.pipe(z.number().nonnegative());

/** An optional field whose wrong type is dropped rather than refusing the whole body. */
const optionalText = z.string().optional().catch(undefined);
const optionalBoolean = z.boolean().optional().catch(undefined);

/** Worded to follow the field's name: "… whose transcript[3].start is not a usable time (…)". */
const NOT_A_USABLE_TIME = `is not a usable time (a number of seconds from 0 to ${MAX_SEGMENT_SECONDS}, about 115 days)`;

/** A number, or numeric text, of seconds from 0 to MAX_SEGMENT_SECONDS; anything else is one issue. */
const segmentTime = z.unknown().transform((value, context) => {
  const seconds =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && NUMERIC_TEXT.test(value.trim())
        ? Number(value.trim())
        : Number.NaN;
  if (Number.isFinite(seconds) && seconds >= 0 && seconds <= MAX_SEGMENT_SECONDS) return seconds;
  context.addIssue({ code: 'custom', message: NOT_A_USABLE_TIME, input: value });
  return z.NEVER;
});

/** A segment of a fresh body: its times must be usable. */
const segmentSchema = wireObject({
  text: z.string(),
  start: segmentTime.optional(),
  duration: segmentTime.optional(),
});

/**
 * A segment of a body stored by an earlier version, which took any number as a time. It was paid
 * for and accepted then, so it is read by those rules again; the export clamps its times (cues.ts).
 */
const storedSegmentSchema = wireObject({
  text: z.string(),
  start: numberLike.optional(),
  duration: numberLike.optional(),
});

const metadataSchema = wireObject({
  title: optionalText,
  authorName: optionalText,
  authorUrl: optionalText,
  thumbnailUrl: optionalText,
});

function transcriptSchemaWith<Segment extends typeof segmentSchema | typeof storedSegmentSchema>(
  segment: Segment,
) {
  return wireObject({
    videoId: z.string().min(1).optional().catch(undefined),
    language: z.string().min(1).optional().catch(undefined),
    transcript: z.array(segment),
    // Metadata is a courtesy: an unusable one is dropped, the transcript is still good.
    metadata: metadataSchema.optional().catch(undefined),
  });
}

const transcriptSchema = transcriptSchemaWith(segmentSchema);
const storedTranscriptSchema = transcriptSchemaWith(storedSegmentSchema);

/**
 * A list item's place in its list: a whole number (from 1, or 0 where a list counts from 0). Any other
 * value (negative, fractional, beyond a safe integer) is dropped, and the walk counts the place itself.
 */
const listPosition = numberLike.pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));

const videoItemSchema = wireObject({
  videoId: z.string().min(1),
  title: optionalText,
  index: listPosition.optional().catch(undefined),
  channelId: optionalText,
  channelTitle: optionalText,
  lengthText: optionalText,
  viewCountText: optionalText,
  publishedTimeText: optionalText,
  hasCaptions: optionalBoolean,
});

/** playlist_info: scalar values kept as strings, keys as received. */
const infoSchema = z.record(z.string(), z.unknown()).transform((record) =>
  Object.fromEntries(
    Object.entries(record)
      .filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))
      .map(([key, value]) => [key, String(value)]),
  ),
);

const videoPageSchema = wireObject({
  results: z.array(videoItemSchema),
  continuationToken: z.string().nullish().catch(undefined),
  hasMore: optionalBoolean,
  playlistInfo: infoSchema.optional().catch(undefined),
});

const channelResolutionSchema = wireObject({
  channelId: z.string().min(1),
  resolvedFrom: optionalText,
});

const channelLatestSchema = wireObject({
  channel: wireObject({ channelId: z.string().min(1), title: optionalText, author: optionalText }),
  results: z.array(wireObject({ videoId: z.string().min(1), title: optionalText, published: optionalText })),
});

const channelItemSchema = wireObject({
  channelId: z.string().min(1),
  title: optionalText,
  handle: optionalText,
});

const videoSearchSchema = wireObject({ results: z.array(videoItemSchema) });
const channelSearchSchema = wireObject({ results: z.array(channelItemSchema) });

/** A normalised body, or a sentence saying why the body could not be used. */
export type Reading<T> = { ok: true; value: T } | { ok: false; problem: string };

const EXPECTED_NAMES: Readonly<Record<string, string>> = {
  array: 'a list',
  object: 'an object',
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
};

/** Plain names for the top-level fields a body cannot do without. */
const FIELD_NAMES: Readonly<Record<string, string>> = {
  transcript: 'a transcript list',
  results: 'a results list',
  channelId: 'a channel id',
  channel: 'a channel',
};

/** `transcript[3].text` */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i > 0 ? '.' : ''}${String(key)}`))
    .join('');
}

/** "the service sent a transcript without a transcript list", and the like. */
function describeIssue(what: string, issue: z.core.$ZodIssue): string {
  const sent = `the service sent ${what}`;
  const [first] = issue.path;
  if (first === undefined) return `${sent} that is not a JSON object`;
  if (issue.input === undefined) {
    const name = issue.path.length === 1 ? FIELD_NAMES[String(first)] : undefined;
    return name ? `${sent} without ${name}` : `${sent} without ${fieldPath(issue.path)}`;
  }
  // Our own checks word their message to follow the field's name.
  if (issue.code === 'custom') return `${sent} whose ${fieldPath(issue.path)} ${issue.message}`;
  const expected =
    issue.code === 'invalid_type' ? (EXPECTED_NAMES[issue.expected] ?? issue.expected) : undefined;
  return expected
    ? `${sent} whose ${fieldPath(issue.path)} is not ${expected}`
    : `${sent} whose ${fieldPath(issue.path)} is unusable (${issue.message})`;
}

function read<Schema extends z.ZodType, T>(
  schema: Schema,
  what: string,
  body: unknown,
  normalise: (parsed: z.output<Schema>) => T,
): Reading<T> {
  const parsed = schema.safeParse(body, { reportInput: true });
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    return { ok: false, problem: issue ? describeIssue(what, issue) : `the service sent unusable ${what}` };
  }
  return { ok: true, value: normalise(parsed.data) };
}

/** Drops keys whose value is undefined, so normalised objects hold only what was sent. */
function defined<T extends object>(value: T): T {
  const kept: Partial<T> = {};
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] !== undefined) kept[key] = value[key];
  }
  return kept as T;
}

/** The BCP 47 tag for "undetermined", used when the service names no language. */
const UNDETERMINED_LANGUAGE = 'und';

/** A segment holding only the times that were sent; built directly, as bodies hold thousands. */
function toSegment({ text, start, duration }: { text: string; start?: number; duration?: number }): Segment {
  const segment: Segment = { text };
  if (start !== undefined) segment.start = start;
  if (duration !== undefined) segment.duration = duration;
  return segment;
}

type ParsedTranscript = z.output<typeof transcriptSchema> | z.output<typeof storedTranscriptSchema>;

function toTranscript(parsed: ParsedTranscript, body: unknown, request: TranscriptRequest): Transcript {
  const metadata: TranscriptMetadata | undefined = parsed.metadata && defined(parsed.metadata);
  return defined({
    // Fallbacks keep a paid transcript usable when the service leaves out its labels.
    videoId: parsed.videoId ?? request.video,
    language: parsed.language ?? request.lang ?? UNDETERMINED_LANGUAGE,
    segments: parsed.transcript.map(toSegment),
    metadata,
    raw: body,
  });
}

/** A transcript body as the service just sent it. */
export function readTranscript(body: unknown, request: TranscriptRequest): Reading<Transcript> {
  return (
    readUsualTranscript(body, request) ??
    read(transcriptSchema, 'a transcript', body, (parsed) => toTranscript(parsed, body, request))
  );
}

/** Top-level fields of a transcript body, by every spelling they arrive in. */
const TRANSCRIPT_LABELS: ReadonlyMap<string, 'videoId' | 'language' | 'metadata'> = new Map([
  ['video_id', 'videoId'],
  ['videoId', 'videoId'],
  ['language', 'language'],
  ['metadata', 'metadata'],
]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isUsableTime(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_SEGMENT_SECONDS;
}

/**
 * The usual body, read without the schema: segments of text with numeric times in bounds. A body
 * holds thousands of segments, so the schema was the hot spot of every fetch; anything unusual
 * (numeric text, a missing field, a bad time) returns undefined and the schema reads it instead,
 * with the same result and the message that names the problem.
 */
function readUsualTranscript(body: unknown, request: TranscriptRequest): Reading<Transcript> | undefined {
  if (!isPlainObject(body) || !Array.isArray(body['transcript'])) return undefined;
  const list: unknown[] = body['transcript'];
  for (const item of list) {
    if (!isPlainObject(item) || typeof item['text'] !== 'string') return undefined;
    const { start, duration } = item;
    if ((start !== undefined && !isUsableTime(start)) || (duration !== undefined && !isUsableTime(duration)))
      return undefined;
  }
  // Checked above: each is a Segment (readers take text, start and duration, and ignore the rest).
  // Not copied: a body holds thousands of segments, and the copies were most of the garbage.
  const segments = list as Segment[];
  // The first spelling seen wins, as in wireObject.
  const labels: { videoId?: unknown; language?: unknown; metadata?: unknown } = {};
  for (const key of Object.keys(body)) {
    const name = TRANSCRIPT_LABELS.get(key);
    if (name !== undefined && !(name in labels)) labels[name] = body[key];
  }
  const label = (value: unknown): string | undefined =>
    typeof value === 'string' && value.length > 0 ? value : undefined;
  const metadata = labels.metadata === undefined ? undefined : metadataSchema.safeParse(labels.metadata);
  return {
    ok: true,
    value: defined({
      videoId: label(labels.videoId) ?? request.video,
      language: label(labels.language) ?? request.lang ?? UNDETERMINED_LANGUAGE,
      segments,
      metadata: metadata?.success ? defined(metadata.data) : undefined,
      raw: body,
    }),
  };
}

/**
 * A transcript body read back from the store: the same reading, except that any number passes as a
 * time, as it did in earlier versions, so that a job they fetched can still be exported.
 */
export function rereadStoredTranscript(body: unknown, request: TranscriptRequest): Reading<Transcript> {
  return (
    readUsualTranscript(body, request) ??
    read(storedTranscriptSchema, 'a transcript', body, (parsed) => toTranscript(parsed, body, request))
  );
}

/** What a stored transcript says: its segments, and its metadata as the service sent it (snake_case). */
export interface StoredTranscriptContent {
  segments: Segment[];
  metadata: Record<string, unknown> | undefined;
}

/**
 * A stored transcript's body (its JSON text as received) read again for what it says, as
 * rereadStoredTranscript reads it; the metadata is kept as sent, for the corpus's records.
 */
export function storedTranscriptContent(
  body: string,
  request: TranscriptRequest,
): Reading<StoredTranscriptContent> {
  const raw: unknown = JSON.parse(body);
  const reading = rereadStoredTranscript(raw, request);
  if (!reading.ok) return reading;
  const metadata = isRecord(raw) && isRecord(raw['metadata']) ? raw['metadata'] : undefined;
  return { ok: true, value: { segments: reading.value.segments, metadata } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toVideoItem(item: z.output<typeof videoItemSchema>): VideoItem {
  return defined({ ...item, title: item.title ?? '' });
}

/** A playlist/videos or channel/videos page; `what` names it in error messages. */
export function readVideoPage(body: unknown, what: string): Reading<VideoPage> {
  return read(videoPageSchema, what, body, (parsed) => {
    const continuation = parsed.continuationToken ? parsed.continuationToken : null;
    return defined({
      items: parsed.results.map(toVideoItem),
      continuation,
      // A page that promises more but gives no cursor cannot be followed.
      hasMore: (parsed.hasMore ?? true) && continuation !== null,
      info: parsed.playlistInfo,
    });
  });
}

export function readChannelResolution(body: unknown, input: string): Reading<ChannelResolution> {
  return read(channelResolutionSchema, 'a channel resolution', body, (parsed) => ({
    channelId: parsed.channelId,
    resolvedFrom: parsed.resolvedFrom ?? input,
  }));
}

export function readChannelLatest(body: unknown): Reading<ChannelLatest> {
  return read(channelLatestSchema, 'a list of latest videos', body, (parsed) => ({
    channelId: parsed.channel.channelId,
    title: parsed.channel.title ?? parsed.channel.author ?? '',
    videos: parsed.results.map((video) => defined({ ...video, title: video.title ?? '' })),
  }));
}

export function readSearch(body: unknown, type: 'video' | 'channel'): Reading<SearchResults> {
  if (type === 'channel') {
    return read(channelSearchSchema, 'channel search results', body, (parsed) => ({
      type: 'channel' as const,
      channels: parsed.results.map((channel) => defined({ ...channel, title: channel.title ?? '' })),
    }));
  }
  return read(videoSearchSchema, 'search results', body, (parsed) => ({
    type: 'video' as const,
    items: parsed.results.map(toVideoItem),
  }));
}

/** channel/search answers one page of videos with no cursor. */
export function readChannelSearch(body: unknown): Reading<VideoPage> {
  return read(videoSearchSchema, 'channel search results', body, (parsed) => ({
    items: parsed.results.map(toVideoItem),
    continuation: null,
    hasMore: false,
  }));
}
