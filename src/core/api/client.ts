import { realClock } from './clock';
import { ApiError } from './errors';
import type { ApiErrorDetails } from './errors';
import { headerValue, readRateLimit } from './headers';
import type { ResponseHeaders } from './headers';
import { CANCELLED, Transport } from './http';
import type { Attempt, AttemptFailure } from './http';
import { describeHttpError, isServiceNotFound, parseProblem } from './problem';
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

/** Request id from the response headers, for 200s whose body carries none. */
function headerRequestId(headers: ResponseHeaders): string | undefined {
  return headerValue(headers, 'x-request-id') ?? headerValue(headers, 'request-id');
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

  const maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
  /** The service's address with a trailing slash, as the transport joins paths to it. */
  const baseUrl = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);

  /**
   * Whatever the service echoes in an error, the key never reaches a message a person reads. Data (a
   * body, a request id) is kept as the service sent it: a key may be part of an ID or a cursor, and
   * replacing it there would store something the service never sent (docs/product.md, "Key, address
   * and data folder").
   */
  const redact = <T extends string | undefined>(text: T): T =>
    (options.apiKey && text?.includes(options.apiKey)
      ? text.split(options.apiKey).join('[redacted]')
      : text) as T;

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

  /**
   * A call that got no usable answer. A paid request that was sent and then timed out, lost its
   * connection or was cut by the caller may still have been charged.
   */
  const failed = (
    endpoint: Endpoint,
    failure: AttemptFailure,
    attempts: number,
    sent: { charged?: boolean; possibly?: boolean } = {},
  ): ApiError =>
    fail(failure.message, {
      kind: failure.kind,
      endpoint,
      status: 0,
      attempts,
      charged: sent.charged ?? false,
      possiblyCharged: (sent.possibly ?? false) && !FREE_ENDPOINTS.has(endpoint),
    });

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
      if (result.failure.kind === 'aborted') throw failed(endpoint, result.failure, attempts, { charged });
      if (result.failure.kind === 'too_large') {
        throw fail(result.failure.message, {
          kind: 'too_large',
          endpoint,
          status: result.status,
          attempts,
          charged,
        });
      }
      throw unreadable(`the answer was cut off (${result.failure.message})`);
    }
    const text = result.body;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw unreadable('the service sent a body that is not JSON');
    }
    const reading = read(body);
    if (!reading.ok) throw unreadable(reading.problem);
    return {
      value: reading.value,
      text,
      charged,
      requestId: headerRequestId(result.headers),
      attempts,
    };
  }

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
      if (stop?.aborted || abort?.aborted) throw failed(endpoint, CANCELLED, attempt);
      const result = await transport.get(endpoint, params, abort);
      if (result.type === 'no-answer') {
        const possibly = result.failure.kind !== 'unreachable';
        throw failed(endpoint, result.failure, attempts, { possibly });
      }

      const rateLimit = readRateLimit(result.headers, clock.now());
      if (rateLimit) options.onRateLimit?.(rateLimit);

      if (result.status >= 200 && result.status < 300) return readSuccess(endpoint, result, read, attempts);

      // An error status. Its body only adds detail, so a lost body still leaves the status.
      if (result.type === 'body-failed' && result.failure.kind === 'aborted') {
        throw failed(endpoint, result.failure, attempts);
      }
      const problem = parseProblem(result.type === 'answered' ? result.body : '');
      const retryAfterHeader = headerValue(result.headers, 'retry-after');
      const details = {
        endpoint,
        status: result.status,
        code: problem.code,
        title: problem.title,
        detail: problem.detail,
        requestId: problem.requestId ?? headerRequestId(result.headers),
        retryAfter: retryAfterSeconds(retryAfterHeader, problem.retryAfter, clock.now()),
        errors: problem.errors,
        attempts,
      };
      if (
        result.status === 404 &&
        !isServiceNotFound(result.type === 'answered' ? result.body : '', endpoint)
      ) {
        // Not the service saying a video is missing, but something else at this address.
        throw fail(describeNotTheService(baseUrl, `${baseUrl.pathname}api/v2/${endpoint}`), {
          kind: 'unreachable',
          ...details,
        });
      }
      if (!isRetryable(result.status) || attempts >= MAX_ATTEMPTS) {
        throw fail(describeHttpError(result.status, problem), { kind: 'http', ...details });
      }
      const waitMs = retryWaitMs(attempt, retryAfterHeader, problem.retryAfter, clock.now());
      if (waitMs > maxRetryWaitMs) {
        throw fail(describeLongWait(result.status, waitMs), { kind: 'throttled', ...details });
      }
      const notice = { endpoint, attempt: attempts, status: result.status, waitMs };
      options.onRetry?.(notice);
      onRetry?.(notice);
      try {
        await clock.sleep(waitMs, stop ?? abort);
      } catch {
        throw failed(endpoint, CANCELLED, attempts);
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

/** The address answered 404 as no Transcript Service would: it is not the service's address. */
function describeNotTheService(baseUrl: URL, path: string): string {
  return `No Transcript Service answers at ${baseUrl.href} (it answered 404 to ${path} with something else than the service's own answer): check the service address`;
}

/** "The service answered 429 and asked to wait 3600 s before trying again, more than Scriptorium waits (60 s)." */
function describeLongWait(status: number, waitMs: number): string {
  return `The service answered ${status} and asked to wait ${Math.ceil(waitMs / 1000)} s before trying again`;
}
