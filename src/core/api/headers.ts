import type { RateLimitSignal } from './types';

/** Response headers as undici gives them: lower-case names. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** First value of a header, trimmed; undefined when absent or empty. */
export function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const raw = headers[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value === '' ? undefined : value;
}

/**
 * Reads a Retry-After value (RFC 9110: delay-seconds or an HTTP date) as milliseconds
 * from `now`. A date in the past gives 0; anything unreadable gives undefined.
 */
export function parseRetryAfter(value: string, now: number): number | undefined {
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  // HTTP dates start with a day name ("Sun, 06 Nov 1994 08:49:37 GMT", or the obsolete
  // RFC 850 and asctime forms); Date.parse alone would also accept things like "5".
  if (!/^[A-Za-z]{3,9},?\s/.test(value)) return undefined;
  // asctime carries no zone but is GMT by definition.
  const at = Date.parse(/\bGMT$/i.test(value) ? value : `${value} GMT`);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** A Unix timestamp rather than a number of seconds (10^9 s is the year 2001). */
const EPOCH_SECONDS_THRESHOLD = 1e9;
/** The same timestamp in milliseconds, as some proxies send it. */
const EPOCH_MILLISECONDS_THRESHOLD = 1e12;

/** Leading number of a header value; tolerates forms such as "100, 100;w=60". */
function leadingNumber(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^\d+(\.\d+)?/.exec(value);
  return match ? Number(match[0]) : undefined;
}

/** Seconds until the window resets, from delta-seconds or a Unix timestamp. */
function resetSeconds(reset: number, now: number): number {
  if (reset > EPOCH_MILLISECONDS_THRESHOLD) return Math.max(0, (reset - now) / 1000);
  if (reset > EPOCH_SECONDS_THRESHOLD) return Math.max(0, reset - now / 1000);
  return reset;
}

/**
 * Reads RateLimit-Limit/-Remaining/-Reset or their X-RateLimit-* variants. Needs at least
 * remaining and reset to be of use for pacing; a missing limit is taken to be the remaining.
 */
export function readRateLimit(headers: ResponseHeaders, now: number): RateLimitSignal | undefined {
  for (const prefix of ['ratelimit-', 'x-ratelimit-']) {
    const remaining = leadingNumber(headerValue(headers, `${prefix}remaining`));
    const reset = leadingNumber(headerValue(headers, `${prefix}reset`));
    if (remaining === undefined || reset === undefined) continue;
    const limit = leadingNumber(headerValue(headers, `${prefix}limit`)) ?? remaining;
    return { limit, remaining, resetSeconds: resetSeconds(reset, now), observedAt: now };
  }
  return undefined;
}
