import { realClock } from './clock';
import { ApiError } from './errors';
import type { ApiErrorDetails } from './errors';
import { headerValue, readRateLimit } from './headers';
import type { ResponseHeaders } from './headers';
import { CANCELLED, Transport } from './http';
import type { Attempt, AttemptFailure } from './http';
import { describeHttpError, parseProblem } from './problem';
import { MAX_ATTEMPTS, isRetryable, retryAfterSeconds, retryWaitMs } from './retry-policy';
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
import type { ApiResponse, ClientOptions, Endpoint, TranscriptClient } from './types';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CONNECTIONS = 16;

/** Query parameters; undefined values are left out. */
type Query = Record<string, string | number | undefined>;

function toSearchParams(query: Query): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  return params;
}

/** Request id from the response headers, for 200s whose body carries none. */
function headerRequestId(headers: ResponseHeaders): string | undefined {
  return headerValue(headers, 'x-request-id') ?? headerValue(headers, 'request-id');
}

/**
 * The Transcript Service client: one keep-alive pool, the retry policy of PRODUCT.md,
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

  /** Belt and braces: whatever the service echoes, the key never reaches an error. */
  const redact = <T extends string | undefined>(text: T): T =>
    (options.apiKey && text ? text.split(options.apiKey).join('[redacted]') : text) as T;

  const fail = (message: string, details: ApiErrorDetails): ApiError =>
    new ApiError(redact(message), {
      ...details,
      code: redact(details.code),
      title: redact(details.title),
      detail: redact(details.detail),
      requestId: redact(details.requestId),
      errors: details.errors?.map((e) => ({
        field: redact(e.field),
        code: redact(e.code),
        message: redact(e.message),
      })),
    });

  const failed = (endpoint: Endpoint, failure: AttemptFailure, attempts: number, charged = false): ApiError =>
    fail(failure.message, { kind: failure.kind, endpoint, status: 0, attempts, charged });

  /** A 2xx: charged as soon as the service answered, whatever happens to the body. */
  function readSuccess<T>(
    endpoint: Endpoint,
    result: Exclude<Attempt, { type: 'no-answer' }>,
    read: (body: unknown) => Reading<T>,
    attempts: number,
  ): ApiResponse<T> {
    const charged = !FREE_ENDPOINTS.has(endpoint);
    if (charged) options.onCredit?.(endpoint);
    const unreadable = (problem: string): ApiError =>
      fail(`Unreadable response: ${problem}`, {
        kind: 'unreadable',
        endpoint,
        status: result.status,
        attempts,
        charged,
      });
    if (result.type === 'body-failed') {
      if (result.failure.kind === 'aborted') throw failed(endpoint, result.failure, attempts, charged);
      throw unreadable(`the answer was cut off (${result.failure.message})`);
    }
    let body: unknown;
    try {
      body = JSON.parse(result.body);
    } catch {
      throw unreadable('the service sent a body that is not JSON');
    }
    const reading = read(body);
    if (!reading.ok) throw unreadable(reading.problem);
    return { value: reading.value, charged, requestId: headerRequestId(result.headers), attempts };
  }

  /** GET one endpoint under the retry policy; resolves with the normalised body or throws ApiError. */
  async function call<T>(
    endpoint: Endpoint,
    query: Query,
    read: (body: unknown) => Reading<T>,
    signal?: AbortSignal,
  ): Promise<ApiResponse<T>> {
    const params = toSearchParams(query);
    for (let attempt = 0; ; attempt++) {
      const attempts = attempt + 1;
      if (signal?.aborted) throw failed(endpoint, CANCELLED, attempt);
      const result = await transport.get(endpoint, params, signal);
      if (result.type === 'no-answer') throw failed(endpoint, result.failure, attempts);

      const rateLimit = readRateLimit(result.headers, clock.now());
      if (rateLimit) options.onRateLimit?.(rateLimit);

      if (result.status >= 200 && result.status < 300) return readSuccess(endpoint, result, read, attempts);

      // An error status. Its body only adds detail, so a lost body still leaves the status.
      if (result.type === 'body-failed' && result.failure.kind === 'aborted') {
        throw failed(endpoint, result.failure, attempts);
      }
      const problem = parseProblem(result.type === 'answered' ? result.body : '');
      const retryAfterHeader = headerValue(result.headers, 'retry-after');
      if (!isRetryable(result.status) || attempts >= MAX_ATTEMPTS) {
        throw fail(describeHttpError(result.status, problem), {
          kind: 'http',
          endpoint,
          status: result.status,
          code: problem.code,
          title: problem.title,
          detail: problem.detail,
          requestId: problem.requestId ?? headerRequestId(result.headers),
          retryAfter: retryAfterSeconds(retryAfterHeader, problem.retryAfter, clock.now()),
          errors: problem.errors,
          attempts,
        });
      }
      const waitMs = retryWaitMs(attempt, retryAfterHeader, problem.retryAfter, clock.now());
      options.onRetry?.({ endpoint, attempt: attempts, status: result.status, waitMs });
      try {
        await clock.sleep(waitMs, signal);
      } catch {
        throw failed(endpoint, CANCELLED, attempts);
      }
    }
  }

  return {
    transcript: (request, signal) =>
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
        signal,
      ),
    playlistVideos: (request, signal) =>
      call('playlist/videos', request, (body) => readVideoPage(body, 'a playlist page'), signal),
    channelResolve: (input, signal) =>
      call('channel/resolve', { input }, (body) => readChannelResolution(body, input), signal),
    channelVideos: (request, signal) =>
      call('channel/videos', request, (body) => readVideoPage(body, 'a channel videos page'), signal),
    channelLatest: (channel, signal) => call('channel/latest', { channel }, readChannelLatest, signal),
    search: (request, signal) =>
      call('search', request, (body) => readSearch(body, request.type ?? 'video'), signal),
    channelSearch: (request, signal) => call('channel/search', request, readChannelSearch, signal),
    close: () => transport.close(),
  };
}
