/**
 * The public shape of the Transcript Service client (src/core/api).
 * Everything the engine needs from the service goes through these types; the
 * wire format (camelCase or snake_case, integer or decimal times) never leaks out.
 */

/** Injected time source, so retries and pacing can be tested without waiting. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds, or rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export type Endpoint =
  | 'transcript'
  | 'playlist/videos'
  | 'channel/resolve'
  | 'channel/videos'
  | 'channel/latest'
  | 'search'
  | 'channel/search';

/** Endpoints that cost nothing (spec: channel/resolve and channel/latest are free). */
/** The service's API version: every path starts with /api/<version>/ (docs/service.md, "Basics"). */
export const API_VERSION = 'v2';

/** An endpoint's path under the service's address: `api/v2/transcript`. */
export function endpointPath(endpoint: Endpoint): string {
  return `api/${API_VERSION}/${endpoint}`;
}

export const FREE_ENDPOINTS: ReadonlySet<Endpoint> = new Set(['channel/resolve', 'channel/latest']);

export interface Segment {
  text: string;
  /** Seconds, as received (integer or decimal). Absent when timestamps were not requested. */
  start?: number;
  /** Seconds, as received. Absent when timestamps were not requested. */
  duration?: number;
}

export interface TranscriptMetadata {
  title?: string;
  authorName?: string;
  authorUrl?: string;
  thumbnailUrl?: string;
}

export interface Transcript {
  videoId: string;
  language: string;
  segments: Segment[];
  metadata?: TranscriptMetadata;
  /** The parsed JSON body exactly as the service sent it (for json/ export). */
  raw: unknown;
}

export interface VideoItem {
  videoId: string;
  title: string;
  /** Position in the playlist or channel listing, when the service sends a whole number for it. */
  index?: number;
  channelId?: string;
  channelTitle?: string;
  /** "12:34", as given. */
  lengthText?: string;
  /** "1,234 views", as given. */
  viewCountText?: string;
  /** "3 weeks ago", as given. */
  publishedTimeText?: string;
  hasCaptions?: boolean;
}

/** One page of a playlist, channel or search listing. */
export interface VideoPage {
  items: VideoItem[];
  /** Cursor for the next page; null when there is none. */
  continuation: string | null;
  hasMore: boolean;
  /** playlist_info as received, normalised to string values. */
  info?: Record<string, string>;
}

export interface ChannelResolution {
  channelId: string;
  resolvedFrom: string;
}

export interface LatestVideo {
  videoId: string;
  title: string;
  published?: string;
}

export interface ChannelLatest {
  channelId: string;
  title: string;
  videos: LatestVideo[];
}

export interface ChannelSearchResult {
  channelId: string;
  title: string;
  handle?: string;
}

export type SearchResults =
  { type: 'video'; items: VideoItem[] } | { type: 'channel'; channels: ChannelSearchResult[] };

/** What the RateLimit-* or X-RateLimit-* headers of the last response said. */
export interface RateLimitSignal {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** Clock time (ms) at which the headers were read. */
  observedAt: number;
}

export interface ApiResponse<T> {
  value: T;
  /** The body exactly as received: what is stored. */
  text: string;
  /** True when the call cost one credit (a 200 from a paid endpoint). */
  charged: boolean;
  requestId?: string;
  /** How many HTTP attempts were made, 1 to 3. */
  attempts: number;
}

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

export interface TranscriptRequest {
  /** Video ID or URL. */
  video: string;
  /** Caption language; undefined asks for the video's original track. */
  lang?: string;
  includeTimestamp: boolean;
  sendMetadata: boolean;
}

export type ListRequest<K extends string> = { [P in K]: string } | { continuation: string };

export interface RetryNotice {
  endpoint: Endpoint;
  /** The attempt that just failed, counted from 1 (so 1 or 2). */
  attempt: number;
  status: number;
  waitMs: number;
}

/**
 * How a caller ends a call early. `stop`: send no further attempt and end any wait, but let an
 * attempt in flight finish (it may be charged, so its answer is worth recording); `abort`: also cut
 * the attempt in flight. A bare AbortSignal does both.
 */
export interface CallControl {
  stop?: AbortSignal;
  abort?: AbortSignal;
  /** Called before each wait between attempts of this call. */
  onRetry?: (notice: RetryNotice) => void;
}

export type CallOptions = CallControl | AbortSignal;

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Sent on every request; the hosted service refuses requests without one. */
  userAgent: string;
  /** Per-attempt timeout in ms. Default 30 000. */
  timeoutMs?: number;
  /** Default: the real clock. */
  clock?: Clock;
  /** Keep-alive connections for transcripts. Default 16. List pages have two of their own. */
  connections?: number;
  /**
   * The longest wait between attempts the client accepts, in ms. A Retry-After beyond it fails the
   * call as `throttled` (with the asked wait in retryAfter) instead of sleeping. Default 60 000.
   */
  maxRetryWaitMs?: number;
  /** Called once per credit spent (a 200 from a paid endpoint, unreadable bodies included). */
  onCredit?: (endpoint: Endpoint) => void;
  /** Called whenever a response carries rate-limit headers. */
  onRateLimit?: (signal: RateLimitSignal) => void;
  /** Called before each wait between attempts, for every call. */
  onRetry?: (notice: RetryNotice) => void;
}

export interface TranscriptClient {
  transcript(request: TranscriptRequest, options?: CallOptions): Promise<ApiResponse<Transcript>>;
  playlistVideos(request: ListRequest<'playlist'>, options?: CallOptions): Promise<ApiResponse<VideoPage>>;
  channelResolve(input: string, options?: CallOptions): Promise<ApiResponse<ChannelResolution>>;
  channelVideos(request: ListRequest<'channel'>, options?: CallOptions): Promise<ApiResponse<VideoPage>>;
  channelLatest(channel: string, options?: CallOptions): Promise<ApiResponse<ChannelLatest>>;
  search(
    request: { q: string; type?: 'video' | 'channel'; limit?: number },
    options?: CallOptions,
  ): Promise<ApiResponse<SearchResults>>;
  channelSearch(
    request: { channel: string; q: string; limit?: number },
    options?: CallOptions,
  ): Promise<ApiResponse<VideoPage>>;
  /** Closes keep-alive connections. */
  close(): Promise<void>;
}
