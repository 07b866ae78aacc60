import { describe, expect, it } from 'vitest';
import { parseRetryAfter, readRateLimit } from '../../../src/core/api/headers';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('7', NOW)).toBe(7000);
    expect(parseRetryAfter('0', NOW)).toBe(0);
  });

  it('reads an HTTP date relative to now, in all three RFC 9110 forms', () => {
    expect(parseRetryAfter('Tue, 01 Jan 2030 12:00:05 GMT', NOW)).toBe(5000);
    expect(parseRetryAfter('Tuesday, 01-Jan-30 12:00:09 GMT', NOW)).toBe(9000);
    expect(parseRetryAfter('Tue Jan  1 12:00:03 2030', NOW)).toBe(3000);
  });

  it('gives 0 for a date in the past', () => {
    expect(parseRetryAfter('Mon, 31 Dec 2029 12:00:00 GMT', NOW)).toBe(0);
  });

  it('refuses values it cannot read', () => {
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('-3', NOW)).toBeUndefined();
    expect(parseRetryAfter('Someday, never', NOW)).toBeUndefined();
  });
});

describe('readRateLimit', () => {
  it('reads the standard RateLimit-* headers', () => {
    const headers = { 'ratelimit-limit': '300', 'ratelimit-remaining': '12', 'ratelimit-reset': '41' };
    expect(readRateLimit(headers, NOW)).toEqual({
      limit: 300,
      remaining: 12,
      resetSeconds: 41,
      observedAt: NOW,
    });
  });

  it('reads the X-RateLimit-* variants and converts an epoch reset to seconds from now', () => {
    const headers = {
      'x-ratelimit-limit': '200',
      'x-ratelimit-remaining': '199',
      'x-ratelimit-reset': String(NOW / 1000 + 25),
    };
    expect(readRateLimit(headers, NOW)).toEqual({
      limit: 200,
      remaining: 199,
      resetSeconds: 25,
      observedAt: NOW,
    });
  });

  it('tolerates draft-style values with a policy suffix', () => {
    const headers = {
      'ratelimit-limit': '100, 100;w=60',
      'ratelimit-remaining': '5',
      'ratelimit-reset': '9',
    };
    expect(readRateLimit(headers, NOW)?.limit).toBe(100);
  });

  it('ignores responses without usable rate-limit headers', () => {
    expect(readRateLimit({}, NOW)).toBeUndefined();
    expect(readRateLimit({ 'ratelimit-remaining': 'lots', 'ratelimit-reset': '9' }, NOW)).toBeUndefined();
  });
});
