/**
 * The request policy (docs/product.md): which statuses are retried, how long the client waits
 * (recorded by a fake clock), unreadable 200s, timeouts, aborts and connection failures.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../../src/core/api';
import type { ClientOptions, Endpoint, RetryNotice, TranscriptClient } from '../../../src/core/api';
import { startSimulator } from '../../../src/simulator';
import type { RunningSimulator } from '../../../src/simulator';
import { FakeClock } from './fake-clock';
import { caught } from './caught';

const VIDEO_ID = 'dQw4w9WgXcQ';
const REQUEST = { video: VIDEO_ID, includeTimestamp: true, sendMetadata: true };

let sim: RunningSimulator;

/** Resolves once the simulator has received a request (its answer may be held or hanging). */
function atTheService(): Promise<void> {
  return vi.waitFor(() => expect(sim.admin.requests()).toHaveLength(1), { timeout: 15_000, interval: 5 });
}
let clock: FakeClock;
let credits: Endpoint[];
let retries: RetryNotice[];
let clients: TranscriptClient[] = [];

function makeClient(options: Partial<ClientOptions> = {}): TranscriptClient {
  const made = createClient({
    baseUrl: sim.url,
    apiKey: sim.key,
    userAgent: 'Scriptorium/test',
    clock,
    onCredit: (endpoint) => credits.push(endpoint),
    onRetry: (notice) => retries.push(notice),
    ...options,
  });
  clients.push(made);
  return made;
}

beforeAll(async () => {
  sim = await startSimulator({ credits: 10_000 });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.admin.reset();
  clock = new FakeClock();
  credits = [];
  retries = [];
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
});

describe('retried statuses', () => {
  it.each([408, 429, 502])(
    'retries %i, waiting 1 s then 2 s, and succeeds on the third attempt',
    async (status) => {
      sim.admin.addFault({ match: { endpoint: 'transcript' }, kind: 'status', status, times: 2 });
      const response = await makeClient().transcript(REQUEST);
      expect(response).toMatchObject({ attempts: 3, charged: true });
      expect(sim.admin.requests().map((r) => r.status)).toEqual([status, status, 200]);
      expect(clock.sleeps).toEqual([1000, 2000]);
      expect(retries).toEqual([
        { endpoint: 'transcript', attempt: 1, status, waitMs: 1000 },
        { endpoint: 'transcript', attempt: 2, status, waitMs: 2000 },
      ]);
      expect(credits).toEqual(['transcript']);
    },
  );

  it('honours Retry-After given in seconds', async () => {
    sim.admin.addFault({ kind: 'status', status: 429, retryAfter: '5', times: 1 });
    const response = await makeClient().channelResolve('@someone');
    expect(response.attempts).toBe(2);
    expect(clock.sleeps).toEqual([5000]);
  });

  it('honours Retry-After given as an HTTP date, relative to the clock', async () => {
    const at = new Date(clock.now() + 3000).toUTCString();
    const past = new Date(clock.now() - 60_000).toUTCString();
    sim.admin.addFault({ kind: 'status', status: 502, retryAfter: at, times: 1 });
    await makeClient().channelResolve('@someone');
    sim.admin.addFault({ kind: 'status', status: 408, retryAfter: past, times: 1 });
    await makeClient().channelResolve('@someone');
    expect(clock.sleeps).toEqual([3000, 0]);
  });

  it('gives up after three attempts with the last status and code', async () => {
    sim.admin.addFault({ match: { endpoint: 'transcript' }, kind: 'status', status: 429, times: 2 });
    sim.admin.addFault({ match: { endpoint: 'transcript' }, kind: 'status', status: 502 });
    const error = await caught(makeClient().transcript(REQUEST));
    expect(error).toMatchObject({
      kind: 'http',
      status: 502,
      code: 'E_BAD_GATEWAY',
      attempts: 3,
      charged: false,
    });
    expect(sim.admin.requests()).toHaveLength(3);
    expect(clock.sleeps).toEqual([1000, 2000]);
    expect(credits).toEqual([]);
  });

  it.each([500, 503, 404, 402, 401, 403])('does not retry %i', async (status) => {
    sim.admin.addFault({ kind: 'status', status });
    const error = await caught(makeClient().transcript(REQUEST));
    expect(error).toMatchObject({ kind: 'http', status, attempts: 1 });
    expect(sim.admin.requests()).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('unreadable 200s', () => {
  it.each(['malformed', 'wrong-shape', 'truncated'] as const)(
    'reports a %s 200 as unreadable and charged, after one attempt',
    async (kind) => {
      sim.admin.addFault({ match: { endpoint: 'transcript' }, kind });
      const error = await caught(makeClient().transcript(REQUEST));
      expect(error).toMatchObject({ kind: 'unreadable', status: 200, charged: true, attempts: 1 });
      expect(error.message).toMatch(/^Unreadable response: /);
      expect(sim.admin.requests()).toHaveLength(1);
      expect(credits).toEqual(['transcript']);
      expect(credits).toHaveLength(sim.admin.ledger().length);
    },
  );

  it('reports an unreadable playlist page as charged too', async () => {
    sim.admin.addFault({ match: { endpoint: 'playlist/videos' }, kind: 'wrong-shape' });
    const error = await caught(makeClient().playlistVideos({ playlist: 'PLclient_n250' }));
    expect(error).toMatchObject({ kind: 'unreadable', charged: true, attempts: 1 });
    expect(credits).toEqual(['playlist/videos']);
  });
});

describe('waits the service asks for', () => {
  it('honours a Retry-After up to the ceiling and reports each wait to the caller', async () => {
    sim.admin.addFault({ kind: 'status', status: 429, retryAfter: '45', times: 1 });
    const waits: number[] = [];
    const response = await makeClient().transcript(REQUEST, {
      onRetry: (notice) => waits.push(notice.waitMs),
    });
    expect(response.attempts).toBe(2);
    expect(waits).toEqual([45_000]);
    expect(clock.sleeps).toEqual([45_000]);
  });

  it('does not sleep through a Retry-After beyond the ceiling: the call fails as throttled', async () => {
    sim.admin.addFault({ kind: 'status', status: 429, retryAfter: '3600' });
    const error = await caught(makeClient({ maxRetryWaitMs: 60_000 }).transcript(REQUEST));
    expect(error).toMatchObject({ kind: 'throttled', status: 429, retryAfter: 3600, attempts: 1 });
    expect(error.message).toContain('3600 s');
    expect(clock.sleeps).toEqual([]);
    expect(sim.admin.requests()).toHaveLength(1);
  });
});

describe('no answer', () => {
  it('times out a request the service never answers, and says it may have been charged', async () => {
    sim.admin.addFault({ kind: 'hang' });
    const error = await caught(makeClient({ timeoutMs: 150 }).transcript(REQUEST));
    expect(error).toMatchObject({
      kind: 'timeout',
      status: 0,
      attempts: 1,
      charged: false,
      possiblyCharged: true,
    });
    expect(error.message).toContain('150 ms');
  });

  it('never counts a free endpoint as possibly charged', async () => {
    sim.admin.addFault({ kind: 'hang' });
    const error = await caught(makeClient({ timeoutMs: 150 }).channelResolve('@someone'));
    expect(error).toMatchObject({ kind: 'timeout', possiblyCharged: false });
  });

  it('stops at once when the caller aborts during a request', async () => {
    sim.admin.addFault({ kind: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await caught(makeClient().transcript(REQUEST, controller.signal));
    expect(error).toMatchObject({ kind: 'aborted', status: 0 });
  });

  it('stops promptly when the caller aborts during a retry wait', async () => {
    clock.holdSleeps = true;
    sim.admin.addFault({ kind: 'status', status: 429 });
    const controller = new AbortController();
    const call = makeClient({ onRetry: () => setTimeout(() => controller.abort(), 10) }).transcript(
      REQUEST,
      controller.signal,
    );
    const error = await caught(call);
    expect(error).toMatchObject({ kind: 'aborted', attempts: 1 });
    expect(sim.admin.requests()).toHaveLength(1);
  });

  it('lets an attempt in flight finish when told to stop, and records its charge', async () => {
    const release = sim.admin.holdAnswers();
    const stop = new AbortController();
    const call = makeClient().transcript(REQUEST, { stop: stop.signal });
    await atTheService();
    stop.abort();
    release();
    const response = await call;
    expect(response).toMatchObject({ charged: true, attempts: 1 });
    expect(sim.admin.ledger()).toHaveLength(1);
  });

  it('sends no further attempt once told to stop during a retry wait', async () => {
    clock.holdSleeps = true;
    sim.admin.addFault({ kind: 'status', status: 502 });
    const stop = new AbortController();
    const error = await caught(
      makeClient().transcript(REQUEST, { stop: stop.signal, onRetry: () => stop.abort() }),
    );
    expect(error).toMatchObject({ kind: 'aborted', attempts: 1, possiblyCharged: false });
    expect(sim.admin.requests()).toHaveLength(1);
  });

  it('cuts an attempt in flight only when aborted, and then says it may have been charged', async () => {
    sim.admin.addFault({ kind: 'hang' });
    const abort = new AbortController();
    const call = caught(makeClient().transcript(REQUEST, { abort: abort.signal }));
    await atTheService();
    abort.abort();
    expect(await call).toMatchObject({ kind: 'aborted', possiblyCharged: true });
  });

  it('sends nothing when the signal is already aborted', async () => {
    const error = await caught(makeClient().transcript(REQUEST, AbortSignal.abort()));
    expect(error.kind).toBe('aborted');
    expect(sim.admin.requests()).toEqual([]);
  });

  it('reports a refused connection as unreachable: nothing was sent, nothing may be charged', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const c = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: sim.key,
      userAgent: 'Scriptorium/test',
      clock,
    });
    clients.push(c);
    const error = await caught(c.transcript(REQUEST));
    expect(error).toMatchObject({ kind: 'unreachable', status: 0, attempts: 1, possiblyCharged: false });
    expect(clock.sleeps).toEqual([]);
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(sim.key);
  });
});
