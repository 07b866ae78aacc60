/** The response shapes of docs/service.md, strict so that a stray field fails a test. */
import { z } from 'zod';

const seconds = z.number().nonnegative();
const thumbnail = z.strictObject({
  url: z.string().url(),
  width: z.number().int(),
  height: z.number().int(),
});

export const segmentSchema = z.strictObject({ text: z.string(), start: seconds, duration: seconds });

export const metadataSchema = z.strictObject({
  title: z.string(),
  author_name: z.string(),
  author_url: z.string(),
  thumbnail_url: z.string(),
});

export const transcriptSchema = z.strictObject({
  video_id: z.string().length(11),
  language: z.string(),
  transcript: z.array(segmentSchema),
  metadata: metadataSchema.optional(),
});

export const playlistItemSchema = z.strictObject({
  type: z.literal('video'),
  index: z.number().int().min(1),
  video_id: z.string().regex(/^[A-Za-z0-9_-]{11}$/),
  title: z.string(),
  channel_id: z.string().regex(/^UC[A-Za-z0-9_-]{22}$/),
  channel_title: z.string(),
  channel_handle: z.string().startsWith('@'),
  channel_verified: z.boolean(),
  length_text: z.string().regex(/^(\d+:)?\d{1,2}:\d{2}$/),
  view_count_text: z.string(),
  published_time_text: z.string(),
  has_captions: z.boolean(),
  thumbnails: z.array(thumbnail).min(1),
});

const playlistInfoSchema = z.strictObject({
  title: z.string(),
  num_videos: z.string().regex(/^\d+$/),
  description: z.string(),
  owner_name: z.string(),
  view_count: z.string().regex(/^\d+$/),
});

export const playlistPageSchema = z.strictObject({
  results: z.array(playlistItemSchema),
  result_count: z.number().int(),
  continuation_token: z.string().nullable(),
  has_more: z.boolean(),
  playlist_info: playlistInfoSchema,
});

export const resolveSchema = z.strictObject({ channel_id: z.string(), resolved_from: z.string() });

export const videoItemSchema = z.strictObject({
  type: z.literal('video'),
  index: z.number().int().min(1).optional(),
  videoId: z.string().regex(/^[A-Za-z0-9_-]{11}$/),
  title: z.string(),
  channelId: z.string().regex(/^UC[A-Za-z0-9_-]{22}$/),
  channelTitle: z.string(),
  channelHandle: z.string().startsWith('@'),
  channelVerified: z.boolean(),
  lengthText: z.string(),
  viewCountText: z.string(),
  publishedTimeText: z.string(),
  hasCaptions: z.boolean(),
  thumbnails: z.array(thumbnail).min(1),
});

export const channelVideosPageSchema = z.strictObject({
  results: z.array(videoItemSchema.required({ index: true })),
  result_count: z.number().int(),
  playlist_info: playlistInfoSchema,
  continuation_token: z.string().nullable(),
  has_more: z.boolean(),
});

export const channelItemSchema = z.strictObject({
  type: z.literal('channel'),
  channelId: z.string().regex(/^UC[A-Za-z0-9_-]{22}$/),
  title: z.string(),
  handle: z.string().startsWith('@'),
  subscriberCount: z.string(),
  verified: z.boolean(),
  rssUrl: z.string().url(),
});

export const searchSchema = z.strictObject({
  results: z.array(z.union([videoItemSchema, channelItemSchema])),
  result_count: z.number().int(),
});

export const latestSchema = z.strictObject({
  channel: z.strictObject({
    channelId: z.string(),
    title: z.string(),
    author: z.string(),
    url: z.string().url(),
  }),
  results: z.array(
    z.strictObject({
      videoId: z.string().length(11),
      title: z.string(),
      published: z.iso.datetime(),
      viewCount: z.string(),
      description: z.string(),
      thumbnail,
    }),
  ),
  result_count: z.number().int(),
});

export const problemSchema = z.strictObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string(),
  request_id: z.string().regex(/^req_\w+$/),
  code: z.string(),
  errors: z.array(z.strictObject({ field: z.string(), code: z.string(), message: z.string() })).optional(),
  retry_after: z.number().int().optional(),
});
