import { afterEach, expect, test } from 'vitest';
import { DEMO_KEY } from '../../src/simulator';
import type { RunningSimulator } from '../../src/simulator';
import { startServer } from '../../src/simulator/server';
import { api } from './helpers';
import { problemSchema } from './schemas';

let sim: RunningSimulator;
let clock = 0;
afterEach(() => sim.close());

async function start(rateLimitHeaders: 'standard' | 'x' = 'standard'): Promise<void> {
  clock = 1_000_000;
  sim = await startServer({
    keys: [DEMO_KEY, 'sk_other'],
    rateLimit: { limit: 2, windowMs: 60_000 },
    rateLimitHeaders,
    now: () => clock,
  });
}

test('every answer carries RateLimit-* headers; over the limit is 429 with Retry-After, not charged', async () => {
  await start();
  const first = await api(sim, 'search', { q: 'a' });
  expect(first.headers.get('ratelimit-limit')).toBe('2');
  expect(first.headers.get('ratelimit-remaining')).toBe('1');
  expect(first.headers.get('ratelimit-reset')).toBe('60');

  clock += 15_500;
  const second = await api(sim, 'transcript', { video_url: 'bad' }); // errors count too
  expect(second.status).toBe(422);
  expect(second.headers.get('ratelimit-remaining')).toBe('0');

  const refused = await api(sim, 'search', { q: 'a' });
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toBe('45');
  expect(refused.headers.get('ratelimit-reset')).toBe('45');
  const problem = problemSchema.parse(refused.json());
  expect(problem).toMatchObject({ code: 'E_RATE_LIMITED', retry_after: 45 });
  expect(sim.admin.ledger()).toHaveLength(1);
});

test('the window resets after windowMs, and each key has its own window', async () => {
  await start();
  await api(sim, 'channel/resolve', { input: '@a' });
  await api(sim, 'channel/resolve', { input: '@a' });
  expect((await api(sim, 'channel/resolve', { input: '@a' })).status).toBe(429);

  const other = { authorization: 'Bearer sk_other', 'user-agent': 't' };
  expect((await api(sim, 'channel/resolve', { input: '@a' }, { headers: other })).status).toBe(200);

  clock += 60_000;
  const after = await api(sim, 'channel/resolve', { input: '@a' });
  expect(after.status).toBe(200);
  expect(after.headers.get('ratelimit-remaining')).toBe('1');
});

test("rateLimitHeaders 'x' names them X-RateLimit-*", async () => {
  await start('x');
  const reply = await api(sim, 'search', { q: 'a' });
  expect(reply.headers.get('x-ratelimit-limit')).toBe('2');
  expect(reply.headers.get('x-ratelimit-remaining')).toBe('1');
  expect(reply.headers.get('x-ratelimit-reset')).toBe('60');
  expect(reply.headers.get('ratelimit-limit')).toBeNull();
});

test('the reset header is at least 1 second even at the end of a window', async () => {
  await start();
  await api(sim, 'search', { q: 'a' });
  clock += 59_999;
  expect((await api(sim, 'search', { q: 'a' })).headers.get('ratelimit-reset')).toBe('1');
});
