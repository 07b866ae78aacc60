/**
 * Query parameters of the seven endpoints, checked with the limits and rules of
 * docs/service.md. A failure becomes the 422 errors[] list: {field, code, message} per problem.
 */
import { z } from 'zod';
import type { ContinuationCodec, Cursor } from './continuation';
import { parseChannelInput, parsePlaylistId, parseVideoId } from './ids';
import type { ChannelRef } from './ids';
import type { FieldError } from './problems';

export type Query = Record<string, string>;
export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

const LANG_PATTERN = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

/** A string parameter of 1..max characters. */
const text = (max: number) =>
  z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const flag = z.enum(['true', 'false'], 'must be "true" or "false"').transform((value) => value === 'true');

/** An integer limit in 1..50 written in plain digits. */
const limit = (fallback: number) =>
  z
    .string()
    .regex(/^\d{1,3}$/, 'must be a whole number from 1 to 50')
    .transform(Number)
    .pipe(z.number().min(1, 'must be at least 1').max(50, 'must be at most 50'))
    .default(fallback);

/** Fails the field with code 'invalid' and `message` when `parse` returns null. */
const parsed = <T>(max: number, parse: (input: string) => T | null, message: string) =>
  text(max).transform((input, ctx) => {
    const value = parse(input);
    if (value === null) {
      ctx.addIssue({ code: 'custom', message, input, params: { code: 'invalid' } });
      return z.NEVER;
    }
    return value;
  });

const channelInput = parsed(
  200,
  parseChannelInput,
  'must be an @handle, a channel URL or a channel ID (UC…)',
);

/** Adds the "exactly one of" problem for a pair of parameters. */
function exactlyOne(
  value: Record<string, unknown>,
  ctx: z.RefinementCtx,
  first: string,
  second: string,
): void {
  const given = [first, second].filter((name) => value[name] !== undefined);
  if (given.length === 1) return;
  const code = given.length === 0 ? 'required' : 'conflict';
  const message = `send exactly one of ${first} or ${second}`;
  ctx.addIssue({ code: 'custom', message, path: [first], params: { code } });
}

function cursorParam(codec: ContinuationCodec, list: Cursor['list']) {
  return parsed(
    8192,
    (token) => {
      const cursor = codec.decode(token);
      return cursor?.list === list ? cursor : null;
    },
    'is not a continuation token issued for this list',
  );
}

/** Turns zod issues into the service's field errors. */
function fieldErrors(issues: readonly z.core.$ZodIssue[], query: Query): FieldError[] {
  return issues.map((issue) => {
    const field = String(issue.path[0] ?? '');
    if (issue.code === 'invalid_type' && query[field] === undefined) {
      return { field, code: 'required', message: 'is required' };
    }
    return { field, code: errorCode(issue), message: issue.message };
  });
}

/** The errors[].code of an issue: too_short/too_long for text, too_small/too_large for numbers. */
function errorCode(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'custom':
      return (issue.params as { code?: string } | undefined)?.code ?? 'invalid';
    case 'too_small':
      return issue.origin === 'string' ? 'too_short' : 'too_small';
    case 'too_big':
      return issue.origin === 'string' ? 'too_long' : 'too_large';
    case 'invalid_format':
    case 'invalid_value':
      return issue.code;
    default:
      return 'invalid';
  }
}

export interface TranscriptParams {
  videoId: string;
  format: 'json' | 'text';
  includeTimestamp: boolean;
  sendMetadata: boolean;
  lang?: string;
}

/** Where a list request starts: a playlist or channel, and how many items earlier pages served. */
export interface PlaylistPage {
  playlistId: string;
  offset: number;
}
export interface ChannelPage {
  channel: ChannelRef;
  offset: number;
}

export interface SearchParams {
  q: string;
  type: 'video' | 'channel';
  limit: number;
}

export interface ChannelSearchParams {
  channel: ChannelRef;
  q: string;
  limit: number;
}

/** The validators of one simulator (continuation tokens depend on its seed). */
export function createValidators(codec: ContinuationCodec) {
  const schemas = {
    transcript: z.object({
      video_url: parsed(2048, parseVideoId, 'must be an 11-character video ID or a video URL'),
      format: z.enum(['json', 'text'], 'must be "json" or "text"').default('json'),
      include_timestamp: flag.default(true),
      send_metadata: flag.default(true),
      lang: text(16).regex(LANG_PATTERN, 'must be a language code such as "en" or "pt-BR"').optional(),
    }),
    playlistVideos: z
      .object({
        playlist: parsed(
          200,
          parsePlaylistId,
          'must be a playlist ID (PL, UU, LL, FL or OL) or a playlist URL',
        ).optional(),
        continuation: cursorParam(codec, 'playlist').optional(),
      })
      .superRefine((value, ctx) => exactlyOne(value, ctx, 'playlist', 'continuation')),
    channelResolve: z.object({ input: channelInput }),
    channelVideos: z
      .object({ channel: channelInput.optional(), continuation: cursorParam(codec, 'channel').optional() })
      .superRefine((value, ctx) => exactlyOne(value, ctx, 'channel', 'continuation')),
    channelLatest: z.object({ channel: channelInput }),
    search: z.object({
      q: text(200),
      type: z.enum(['video', 'channel'], 'must be "video" or "channel"').default('video'),
      limit: limit(20),
    }),
    channelSearch: z.object({ channel: channelInput, q: text(200), limit: limit(30) }),
  };

  function check<S extends z.ZodType, T>(
    schema: S,
    query: Query,
    shape: (value: z.output<S>) => T,
  ): Validated<T> {
    const result = schema.safeParse(query);
    return result.success
      ? { ok: true, value: shape(result.data) }
      : { ok: false, errors: fieldErrors(result.error.issues, query) };
  }

  return {
    transcript: (query: Query): Validated<TranscriptParams> =>
      check(schemas.transcript, query, (v) => ({
        videoId: v.video_url,
        format: v.format,
        includeTimestamp: v.include_timestamp,
        sendMetadata: v.send_metadata,
        ...(v.lang === undefined ? {} : { lang: v.lang }),
      })),
    playlistVideos: (query: Query): Validated<PlaylistPage> =>
      check(schemas.playlistVideos, query, (v) =>
        v.continuation
          ? { playlistId: v.continuation.id, offset: v.continuation.offset }
          : { playlistId: v.playlist ?? '', offset: 0 },
      ),
    channelResolve: (query: Query): Validated<{ input: string; channel: ChannelRef }> =>
      check(schemas.channelResolve, query, (v) => ({ input: query.input ?? '', channel: v.input })),
    channelVideos: (query: Query): Validated<ChannelPage> =>
      check(schemas.channelVideos, query, (v): ChannelPage =>
        v.continuation
          ? { channel: { kind: 'id', channelId: v.continuation.id }, offset: v.continuation.offset }
          : { channel: v.channel ?? { kind: 'id', channelId: '' }, offset: 0 },
      ),
    channelLatest: (query: Query): Validated<{ channel: ChannelRef }> =>
      check(schemas.channelLatest, query, (v) => ({ channel: v.channel })),
    search: (query: Query): Validated<SearchParams> => check(schemas.search, query, (v) => v),
    channelSearch: (query: Query): Validated<ChannelSearchParams> =>
      check(schemas.channelSearch, query, (v) => v),
  };
}

export type Validators = ReturnType<typeof createValidators>;
