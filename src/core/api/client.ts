import { readSuccess, retryWaitAfter } from './answers';
import { realClock } from './clock';
import { readRateLimit } from './headers';
import { CANCELLED, Transport } from './http';
import { redactedErrors } from './redacted-errors';
import {
  readChannelLatest,
  readChannelResolution,
  readChannelSearch,
  readSearch,
  readTranscript,
  readVideoPage,
} from './schemas';
import type { Reading } from './schemas';
import { FREE_ENDPOINTS } from './types';
import type {
  ApiResponse,
  CallControl,
  CallOptions,
  ClientOptions,
  Endpoint,
  TranscriptClient,
} from './types';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CONNECTIONS = 16;
/** A Retry-After longer than this pauses the work instead of holding it (see ClientOptions). */
const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;

/** A bare signal both stops and aborts. */
function callControl(options: CallOptions | undefined): CallControl {
  return options instanceof AbortSignal ? { stop: options, abort: options } : (options ?? {});
}

/** Query parameters; undefined values are left out. */
type Query = Record<string, string | number | undefined>;

function toSearchParams(query: Query): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  return params;
}

/**
 * The Transcript Service client: one keep-alive pool, the retry policy of docs/product.md,
 * credit and rate-limit reporting, and bodies normalised to the types in types.ts.
 * It throws nothing but ApiError.
 */
export function createClient(options: ClientOptions): TranscriptClient {
  const clock = options.clock ?? realClock;
  const transport = new Transport({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    userAgent: options.userAgent,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    connections: options.connections ?? DEFAULT_CONNECTIONS,
  });

  const errors = redactedErrors(options.apiKey);
  const statusContext = {
    errors,
    /** The service's address with a trailing slash, as the transport joins paths to it. */
    baseUrl: new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`),
    maxRetryWaitMs: options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS,
  };

  /** GET one endpoint under the retry policy; resolves with the normalised body or throws ApiError. */
  async function call<T>(
    endpoint: Endpoint,
    query: Query,
    read: (body: unknown) => Reading<T>,
    callOptions?: CallOptions,
  ): Promise<ApiResponse<T>> {
    const { stop, abort, onRetry } = callControl(callOptions);
    const params = toSearchParams(query);
    for (let attempt = 0; ; attempt++) {
      const attempts = attempt + 1;
      // A stopped call sends no further attempt; the previous one (if any) failed, so cost nothing.
      if (stop?.aborted || abort?.aborted) throw errors.failed(endpoint, CANCELLED, attempt);
      const result = await transport.get(endpoint, params, abort);
      if (result.type === 'no-answer') {
        const possibly = result.failure.kind !== 'unreachable';
        throw errors.failed(endpoint, result.failure, attempts, { possibly });
      }

      const rateLimit = readRateLimit(result.headers, clock.now());
      if (rateLimit) options.onRateLimit?.(rateLimit);

      if (result.status >= 200 && result.status < 300) {
        if (!FREE_ENDPOINTS.has(endpoint)) options.onCredit?.(endpoint);
        return readSuccess(errors, endpoint, result, read, attempts);
      }
      const waitMs = retryWaitAfter({ ...statusContext, now: clock.now() }, endpoint, result, attempt);
      const notice = { endpoint, attempt: attempts, status: result.status, waitMs };
      options.onRetry?.(notice);
      onRetry?.(notice);
      try {
        await clock.sleep(waitMs, stop ?? abort);
      } catch {
        throw errors.failed(endpoint, CANCELLED, attempts);
      }
    }
  }

  return {
    transcript: (request, options) =>
      call(
        'transcript',
        {
          video_url: request.video,
          format: 'json',
          include_timestamp: String(request.includeTimestamp),
          send_metadata: String(request.sendMetadata),
          lang: request.lang,
        },
        (body) => readTranscript(body, request),
        options,
      ),
    playlistVideos: (request, control) =>
      call('playlist/videos', request, (body) => readVideoPage(body, 'a playlist page'), control),
    channelResolve: (input, control) =>
      call('channel/resolve', { input }, (body) => readChannelResolution(body, input), control),
    channelVideos: (request, control) =>
      call('channel/videos', request, (body) => readVideoPage(body, 'a channel videos page'), control),
    channelLatest: (channel, control) => call('channel/latest', { channel }, readChannelLatest, control),
    search: (request, control) =>
      call('search', request, (body) => readSearch(body, request.type ?? 'video'), control),
    channelSearch: (request, control) => call('channel/search', request, readChannelSearch, control),
    close: () => transport.close(),
  };
}
