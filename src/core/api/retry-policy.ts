import { parseRetryAfter } from './headers';

/** docs/product.md "Request policy": only these statuses are worth another attempt. */
export const RETRIED_STATUSES = [408, 429, 502] as const;
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set(RETRIED_STATUSES);

/**
 * Statuses that mean the service refused the key: 401 and 403, and 431 (a key too long for the
 * service to read in a header). None is charged, and no other request with that key would fare better.
 */
const KEY_REFUSED_STATUSES: ReadonlySet<number> = new Set([401, 403, 431]);

export function refusesTheKey(status: number): boolean {
  return KEY_REFUSED_STATUSES.has(status);
}

/** Three attempts in all, then the call fails with the last status. */
export const MAX_ATTEMPTS = 3;

export function isRetryable(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * How long to wait after failed attempt `attempt` (counted from 0): the Retry-After header
 * when it is readable, else the body's retry_after (seconds), else 2^attempt seconds.
 */
export function retryWaitMs(
  attempt: number,
  retryAfterHeader: string | undefined,
  bodyRetryAfterSeconds: number | undefined,
  now: number,
): number {
  const backoffMs = 2 ** attempt * 1000;
  if (retryAfterHeader !== undefined) return parseRetryAfter(retryAfterHeader, now) ?? backoffMs;
  if (bodyRetryAfterSeconds !== undefined) return bodyRetryAfterSeconds * 1000;
  return backoffMs;
}

/** Retry-After as seconds for an ApiError: the header when readable, else the body's retry_after. */
export function retryAfterSeconds(
  retryAfterHeader: string | undefined,
  bodyRetryAfterSeconds: number | undefined,
  now: number,
): number | undefined {
  const fromHeader = retryAfterHeader === undefined ? undefined : parseRetryAfter(retryAfterHeader, now);
  return fromHeader === undefined ? bodyRetryAfterSeconds : fromHeader / 1000;
}
