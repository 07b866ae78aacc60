import { request } from 'node:http';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { startSimulator } from '../../src/simulator';
import type { FaultRule, RunningSimulator } from '../../src/simulator';
import { api } from './helpers';
import { problemSchema, transcriptSchema } from './schemas';

let sim: RunningSimulator;
afterEach(() => sim.close());

async function withFault(rule: FaultRule, credits = 100): Promise<RunningSimulator> {
  sim = await startSimulator({ credits });
  sim.admin.addFault(rule);
  return sim;
}

const VIDEO = { video_url: 'dQw4w9WgXcQ' };

/** Status, declared Content-Length, bytes received and whether the response was cut off. */
function rawTranscript(): Promise<{ status: number; declared: number; received: number; aborted: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(`${sim.url}/api/v2/transcript?video_url=dQw4w9WgXcQ`, {
      headers: { authorization: `Bearer ${sim.key}`, 'user-agent': 't' },
    });
    req.on('response', (res) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => (received += chunk.length));
      res.on('aborted', () => undefined);
      res.on('close', () =>
        resolve({
          status: res.statusCode ?? 0,
          declared: Number(res.headers['content-length']),
          received,
          aborted: !res.complete,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('fault kinds', () => {
  test("'status' answers the status as problem+json with Retry-After, charges nothing, then disappears after `times`", async () => {
    await withFault({
      kind: 'status',
      status: 429,
      retryAfter: '7',
      times: 2,
      match: { endpoint: 'transcript' },
    });
    for (let i = 0; i < 2; i++) {
      const reply = await api(sim, 'transcript', VIDEO);
      expect(reply.status).toBe(429);
      expect(reply.headers.get('retry-after')).toBe('7');
      expect(problemSchema.parse(reply.json())).toMatchObject({
        status: 429,
        code: 'E_RATE_LIMITED',
        retry_after: 7,
      });
    }
    expect((await api(sim, 'transcript', VIDEO)).status).toBe(200);
    expect(sim.admin.ledger()).toHaveLength(1);
  });

  test("'status' passes an HTTP-date Retry-After through verbatim", async () => {
    const date = new Date(Date.now() + 120_000).toUTCString();
    await withFault({ kind: 'status', status: 502, retryAfter: date });
    const reply = await api(sim, 'search', { q: 'a' });
    expect(reply.status).toBe(502);
    expect(reply.headers.get('retry-after')).toBe(date);
    expect(problemSchema.parse(reply.json()).code).toBe('E_BAD_GATEWAY');
  });

  test("'malformed' answers 200 with a body that is not JSON, and is charged like any 200", async () => {
    await withFault({ kind: 'malformed' });
    const reply = await api(sim, 'transcript', VIDEO);
    expect(reply.status).toBe(200);
    expect(() => JSON.parse(reply.text)).toThrow();
    expect(sim.admin.chargesFor('dQw4w9WgXcQ')).toBe(1);
  });

  test("'wrong-shape' answers 200 with JSON that is not a transcript", async () => {
    await withFault({ kind: 'wrong-shape' });
    const reply = await api(sim, 'transcript', VIDEO);
    expect(reply.status).toBe(200);
    expect(transcriptSchema.safeParse(reply.json()).success).toBe(false);
  });

  test("'truncated' declares more bytes than it sends and cuts the connection", async () => {
    await withFault({ kind: 'truncated', times: 1 });
    const result = await rawTranscript();
    expect(result.status).toBe(200);
    expect(result.received).toBeLessThan(result.declared);
    expect(result.aborted).toBe(true);
    await expect(api(sim, 'transcript', VIDEO)).resolves.toMatchObject({ status: 200 });
  });

  test("'delay' waits delayMs, then serves normally", async () => {
    await withFault({ kind: 'delay', delayMs: 60, times: 1 });
    const started = performance.now();
    const reply = await api(sim, 'transcript', VIDEO);
    expect(performance.now() - started).toBeGreaterThanOrEqual(60);
    expect(transcriptSchema.parse(reply.json()).video_id).toBe('dQw4w9WgXcQ');
  });

  test("'hang' never answers, and close() still ends promptly", async () => {
    await withFault({ kind: 'hang' });
    const pending = api(sim, 'transcript', VIDEO).then(
      () => 'answered',
      () => 'connection closed',
    );
    await vi.waitFor(() => expect(sim.admin.requests()).toMatchObject([{ status: 0 }]), {
      timeout: 10_000,
    });
    await sim.close();
    expect(await pending).toBe('connection closed');
  });
});

describe('matching and rate', () => {
  test('a rule hits only requests matching all its fields', async () => {
    await withFault({
      kind: 'status',
      status: 500,
      match: { endpoint: 'transcript', videoId: 'dQw4w9WgXcQ', lang: 'EN' },
    });
    expect((await api(sim, 'transcript', { ...VIDEO, lang: 'en' })).status).toBe(500);
    expect((await api(sim, 'transcript', VIDEO)).status).not.toBe(500);
    expect(
      (await api(sim, 'transcript', { video_url: 'https://youtu.be/dQw4w9WgXcQ', lang: 'en' })).status,
    ).toBe(500);
    expect((await api(sim, 'transcript', { video_url: 'aaaaaaaaaaa', lang: 'en' })).status).not.toBe(500);
    expect((await api(sim, 'search', { q: 'x' })).status).toBe(200);
  });

  test('rate fires with the seeded probability, the same way for the same seed', async () => {
    const pattern = async (): Promise<number[]> => {
      await withFault({ kind: 'status', status: 503, rate: 0.5 });
      const statuses = [];
      for (let i = 0; i < 40; i++) statuses.push((await api(sim, 'channel/resolve', { input: '@a' })).status);
      await sim.close();
      return statuses;
    };
    const first = await pattern();
    expect(first.filter((status) => status === 503).length).toBeGreaterThan(8);
    expect(first.filter((status) => status === 200).length).toBeGreaterThan(8);
    expect(await pattern()).toEqual(first);
  });

  test('a 200-answering fault does not fire where credits are exhausted: the 402 stands', async () => {
    await withFault({ kind: 'malformed' }, 0);
    expect((await api(sim, 'transcript', VIDEO)).status).toBe(402);
    expect(sim.admin.credits()).toBe(0);
  });

  test('faults apply after authentication', async () => {
    await withFault({ kind: 'status', status: 500 });
    expect((await api(sim, 'transcript', VIDEO, { headers: { 'user-agent': 't' } })).status).toBe(401);
  });

  test('an invalid rule is refused with a reason', async () => {
    sim = await startSimulator();
    expect(() => sim.admin.addFault({ kind: 'status' })).toThrow(/status/);
  });
});

test('latencyMs delays every answer', async () => {
  sim = await startSimulator({ latencyMs: 40 });
  const started = performance.now();
  expect((await api(sim, 'channel/resolve', { input: '@a' })).status).toBe(200);
  expect(performance.now() - started).toBeGreaterThanOrEqual(40);
});

test("latencyMs and a 'delay' fault add up", async () => {
  sim = await startSimulator({ credits: 100, latencyMs: 40 });
  sim.admin.addFault({ kind: 'delay', delayMs: 60, times: 1 });
  const started = performance.now();
  const reply = await api(sim, 'transcript', VIDEO);
  expect(performance.now() - started).toBeGreaterThanOrEqual(100);
  expect(transcriptSchema.parse(reply.json()).video_id).toBe('dQw4w9WgXcQ');
});

test('holdAnswers keeps every answer until released, and the requests are still received and charged', async () => {
  sim = await startSimulator({ credits: 100 });
  const release = sim.admin.holdAnswers();
  let answered = false;
  const reply = api(sim, 'transcript', VIDEO).then((response) => {
    answered = true;
    return response;
  });
  await vi.waitFor(() => expect(sim.admin.requests()).toMatchObject([{ status: 200, charged: true }]), {
    timeout: 10_000,
  });
  // An answer not held was written when the request was logged, before this round trip began on
  // another connection: it would have come first.
  await fetch(`${sim.url}/__admin/stats`).then((response) => response.text());
  expect(answered).toBe(false);
  release();
  expect(transcriptSchema.parse((await reply).json()).video_id).toBe('dQw4w9WgXcQ');
  await expect(api(sim, 'transcript', VIDEO)).resolves.toMatchObject({ status: 200 });
});
