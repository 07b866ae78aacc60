import { headerValue, type ResponseHeaders } from './headers';
import type { Attempt } from './http';
import { describeHttpError, isServiceNotFound, parseProblem } from './problem';
import type { ErrorMaker } from './redacted-errors';
import { MAX_ATTEMPTS, isRetryable, retryAfterSeconds, retryWaitMs } from './retry-policy';
import type { Reading } from './schemas';
import { endpointPath, FREE_ENDPOINTS, type ApiResponse, type Endpoint } from './types';

/** An attempt the service answered with a status, its body read or not. */
export type Answered = Exclude<Attempt, { type: 'no-answer' }>;

/** Request id from the response headers, for 200s whose body carries none. */
function headerRequestId(headers: ResponseHeaders): string | undefined {
  return headerValue(headers, 'x-request-id') ?? headerValue(headers, 'request-id');
}

/** A 2xx: charged as soon as the service answered, whatever happens to the body. */
export function readSuccess<T>(
  errors: ErrorMaker,
  endpoint: Endpoint,
  result: Answered,
  read: (body: unknown) => Reading<T>,
  attempts: number,
): ApiResponse<T> {
  const charged = !FREE_ENDPOINTS.has(endpoint);
  const unreadable = (problem: string) =>
    errors.fail(`Unreadable response: ${problem}`, {
      kind: 'unreadable',
      endpoint,
      status: result.status,
      attempts,
      charged,
    });
  if (result.type === 'body-failed') {
    if (result.failure.kind === 'aborted')
      throw errors.failed(endpoint, result.failure, attempts, { charged });
    if (result.failure.kind === 'too_large') {
      throw errors.fail(result.failure.message, {
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
  return { value: reading.value, text, charged, requestId: headerRequestId(result.headers), attempts };
}

/** What the client needs to judge an error status. */
export interface ErrorStatusContext {
  errors: ErrorMaker;
  /** The service's address with a trailing slash. */
  baseUrl: URL;
  /** A Retry-After longer than this pauses the work instead of holding it. */
  maxRetryWaitMs: number;
  now: number;
}

/**
 * An error status, under the retry policy of docs/product.md: how long to wait before the next
 * attempt, or the ApiError thrown when there is none to make. Its body only adds detail, so a lost
 * body still leaves the status.
 */
export function retryWaitAfter(
  context: ErrorStatusContext,
  endpoint: Endpoint,
  result: Answered,
  attempt: number,
): number {
  const { errors, baseUrl, now } = context;
  const attempts = attempt + 1;
  if (result.type === 'body-failed' && result.failure.kind === 'aborted') {
    throw errors.failed(endpoint, result.failure, attempts);
  }
  const body = result.type === 'answered' ? result.body : '';
  const problem = parseProblem(body);
  const retryAfterHeader = headerValue(result.headers, 'retry-after');
  const details = {
    endpoint,
    status: result.status,
    code: problem.code,
    title: problem.title,
    detail: problem.detail,
    requestId: problem.requestId ?? headerRequestId(result.headers),
    retryAfter: retryAfterSeconds(retryAfterHeader, problem.retryAfter, now),
    errors: problem.errors,
    attempts,
  };
  if (result.status === 404 && !isServiceNotFound(body, endpoint)) {
    // Not the service saying a video is missing, but something else at this address.
    throw errors.fail(describeNotTheService(baseUrl, `${baseUrl.pathname}${endpointPath(endpoint)}`), {
      kind: 'unreachable',
      ...details,
    });
  }
  if (!isRetryable(result.status) || attempts >= MAX_ATTEMPTS) {
    throw errors.fail(describeHttpError(result.status, problem), { kind: 'http', ...details });
  }
  const waitMs = retryWaitMs(attempt, retryAfterHeader, problem.retryAfter, now);
  if (waitMs > context.maxRetryWaitMs) {
    throw errors.fail(describeLongWait(result.status, waitMs), { kind: 'throttled', ...details });
  }
  return waitMs;
}

/** The address answered 404 as no Transcript Service would: it is not the service's address. */
function describeNotTheService(baseUrl: URL, path: string): string {
  return `No Transcript Service answers at ${baseUrl.href} (it answered 404 to ${path} with something else than the service's own answer): check the service address`;
}

/** "The service answered 429 and asked to wait 3600 s before trying again, more than Scriptorium waits (60 s)." */
function describeLongWait(status: number, waitMs: number): string {
  return `The service answered ${status} and asked to wait ${Math.ceil(waitMs / 1000)} s before trying again`;
}
