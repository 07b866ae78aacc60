/** The client's endpoints and error mapping, over real loopback HTTP against the simulator. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/core/api';
import type { ClientOptions, Endpoint, RateLimitSignal, TranscriptClient } from '../../../src/core/api';
import { channelIdForHandle, describePlaylist, describeVideo, startSimulator } from '../../../src/simulator';
import type { RunningSimulator } from '../../../src/simulator';
import { FakeClock } from './fake-clock';
import { caught } from './caught';

const VIDEO_ID = 'dQw4w9WgXcQ';
const FULL = { video: VIDEO_ID, includeTimestamp: true, sendMetadata: true };

let sim: RunningSimulator;
let client: TranscriptClient;
let credits: Endpoint[];
let clients: TranscriptClient[] = [];

function makeClient(options: Partial<ClientOptions> = {}, target: RunningSimulator = sim): TranscriptClient {
  const made = createClient({
    baseUrl: target.url,
    apiKey: target.key,
    userAgent: 'Scriptorium/test',
    clock: new FakeClock(),
    onCredit: (endpoint) => credits.push(endpoint),
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
  credits = [];
  client = makeClient();
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
});

describe('happy paths', () => {
  it('fetches a transcript with timestamps and metadata, charged once', async () => {
    const facts = describeVideo(VIDEO_ID);
    expect(facts.hasCaptions).toBe(true);
    const response = await client.transcript(FULL);
    expect(response).toMatchObject({ charged: true, attempts: 1 });
    const { value } = response;
    expect(value.videoId).toBe(VIDEO_ID);
    expect(value.language).toBe(facts.original);
    expect(value.segments).toHaveLength(facts.segments);
    for (const segment of value.segments) {
      expect(segment).toEqual({
        text: expect.any(String),
        start: expect.any(Number),
        duration: expect.any(Number),
      });
    }
    expect(value.metadata?.title).toBe(facts.title);
    expect(value.metadata?.authorName).toEqual(expect.any(String));
    expect(value.raw).toMatchObject({ video_id: VIDEO_ID, transcript: expect.any(Array) });
    expect(credits).toEqual(['transcript']);
    expect(sim.admin.ledger()).toHaveLength(1);
  });

  it('always sends format=json and both flags, and lang only when given', async () => {
    await client.transcript({ video: VIDEO_ID, includeTimestamp: false, sendMetadata: false });
    const other = describeVideo(VIDEO_ID).languages[1] ?? 'en';
    const { value } = await client.transcript({ ...FULL, lang: other });
    expect(value.language).toBe(other);
    expect(sim.admin.requests().map((r) => r.query)).toEqual([
      { video_url: VIDEO_ID, format: 'json', include_timestamp: 'false', send_metadata: 'false' },
      { video_url: VIDEO_ID, format: 'json', include_timestamp: 'true', send_metadata: 'true', lang: other },
    ]);
  });

  it('leaves out times and metadata when they were not asked for', async () => {
    const { value } = await client.transcript({
      video: VIDEO_ID,
      includeTimestamp: false,
      sendMetadata: false,
    });
    expect(value.metadata).toBeUndefined();
    expect(value.segments.length).toBeGreaterThan(0);
    for (const segment of value.segments) expect(Object.keys(segment)).toEqual(['text']);
  });

  it('walks all pages of a playlist in order, one credit per page', async () => {
    const playlist = describePlaylist('PLclient_n250');
    expect(playlist.size).toBe(250);
    const ids: string[] = [];
    let page = (await client.playlistVideos({ playlist: 'PLclient_n250' })).value;
    ids.push(...page.items.map((item) => item.videoId));
    expect(page.info?.num_videos).toBe('250');
    expect(page.items[0]).toMatchObject({ title: expect.any(String), lengthText: expect.any(String) });
    while (page.hasMore && page.continuation) {
      page = (await client.playlistVideos({ continuation: page.continuation })).value;
      ids.push(...page.items.map((item) => item.videoId));
    }
    expect(page).toMatchObject({ hasMore: false, continuation: null });
    expect(ids).toEqual(playlist.videoIds());
    expect(credits).toHaveLength(3);
    expect(sim.admin.ledger()).toHaveLength(3);
  });

  it('resolves a channel handle for free', async () => {
    const response = await client.channelResolve('@scriptorium_n150');
    expect(response.value).toEqual({
      channelId: channelIdForHandle('@scriptorium_n150'),
      resolvedFrom: expect.any(String),
    });
    expect(response.charged).toBe(false);
    expect(credits).toEqual([]);
    expect(sim.admin.ledger()).toEqual([]);
  });

  it('pages through a channel’s videos with indexes', async () => {
    const channelId = channelIdForHandle('@scriptorium_n150');
    const first = await client.channelVideos({ channel: channelId });
    expect(first.value.items).toHaveLength(100);
    expect(first.value.hasMore).toBe(true);
    expect(first.value.items[0]).toMatchObject({ videoId: expect.any(String), index: expect.any(Number) });
    const second = await client.channelVideos({ continuation: first.value.continuation ?? '' });
    expect(second.value.items).toHaveLength(50);
    expect(second.value).toMatchObject({ hasMore: false, continuation: null });
    expect(credits).toEqual(['channel/videos', 'channel/videos']);
  });

  it('lists a channel’s latest videos for free', async () => {
    const channelId = channelIdForHandle('@scriptorium_n150');
    const { value, charged } = await client.channelLatest(channelId);
    expect(value.channelId).toBe(channelId);
    expect(value.title).not.toBe('');
    expect(value.videos.length).toBeGreaterThan(0);
    expect(value.videos[0]).toEqual({
      videoId: expect.any(String),
      title: expect.any(String),
      published: expect.any(String),
    });
    expect(charged).toBe(false);
    expect(credits).toEqual([]);
  });

  it('searches videos, channels, and within a channel', async () => {
    const videos = await client.search({ q: 'piano', limit: 5 });
    expect(videos.value.type).toBe('video');
    if (videos.value.type === 'video') {
      expect(videos.value.items.length).toBeGreaterThan(0);
      expect(videos.value.items[0]?.videoId).toMatch(/^[\w-]{11}$/);
    }
    const channels = await client.search({ q: 'piano', type: 'channel', limit: 3 });
    expect(channels.value.type).toBe('channel');
    if (channels.value.type === 'channel') {
      expect(channels.value.channels[0]?.channelId).toMatch(/^UC[\w-]{22}$/);
    }
    const within = await client.channelSearch({ channel: '@scriptorium_n150', q: 'piano' });
    expect(within.value).toMatchObject({ continuation: null, hasMore: false });
    expect(credits).toEqual(['search', 'search', 'channel/search']);
    expect(sim.admin.requests().map((r) => r.query)).toEqual([
      { q: 'piano', limit: '5' },
      { q: 'piano', type: 'channel', limit: '3' },
      { channel: '@scriptorium_n150', q: 'piano' },
    ]);
  });
});

describe('error statuses', () => {
  it('maps a refused key to a 401 that holds neither key', async () => {
    const wrongKey = 'sk_wrong_key_0123456789';
    const error = await caught(makeClient({ apiKey: wrongKey }).transcript(FULL));
    expect(error).toMatchObject({
      kind: 'http',
      status: 401,
      code: 'E_UNAUTHORIZED',
      attempts: 1,
      charged: false,
    });
    expect(error.requestId).toMatch(/^req_/);
    const text = `${error.message} ${JSON.stringify(error)}`;
    expect(text).not.toContain(wrongKey);
    expect(text).not.toContain(sim.key);
    expect(credits).toEqual([]);
  });

  it('maps a missing video or captions to 404, free and not retried', async () => {
    const error = await caught(client.transcript({ ...FULL, video: 'nocap000001' }));
    expect(error).toMatchObject({ kind: 'http', status: 404, attempts: 1, charged: false });
    expect(sim.admin.requests()).toHaveLength(1);
    expect(credits).toEqual([]);
  });

  it('reports a 422 with its field errors when a bad value gets through', async () => {
    const error = await caught(client.transcript({ ...FULL, lang: 'x'.repeat(300) }));
    expect(error).toMatchObject({ kind: 'http', status: 422, code: 'E_VALIDATION', attempts: 1 });
    expect(error.errors.map((e) => e.field)).toContain('lang');
    expect(error.message).toContain('lang');

    const tampered = await caught(client.playlistVideos({ continuation: 'not-a-real-cursor' }));
    expect(tampered).toMatchObject({ status: 422, code: 'E_VALIDATION' });
    expect(sim.admin.requests()).toHaveLength(2);
  });

  it.each([
    ['grant', 'E_FREE_GRANT_DEPLETED', 'subscribe'],
    ['paid', 'E_PAYMENT_REQUIRED', 'top up'],
    ['paused', 'E_SUBSCRIPTION_PAUSED', 'resume'],
  ] as const)('maps an empty %s account to 402 %s', async (plan, code, advice) => {
    const broke = await startSimulator({ credits: 0 });
    try {
      broke.admin.setPlan(plan);
      const error = await caught(makeClient({}, broke).transcript(FULL));
      expect(error).toMatchObject({ kind: 'http', status: 402, code, attempts: 1, charged: false });
      expect(error.message).toContain(advice);
      expect(broke.admin.requests()).toHaveLength(1);
      expect(credits).toEqual([]);
    } finally {
      await broke.close();
    }
  });
});

describe('rate-limit headers', () => {
  it.each(['standard', 'x'] as const)('passes %s rate-limit headers to onRateLimit', async (style) => {
    const limited = await startSimulator({
      rateLimit: { limit: 50, windowMs: 60_000 },
      rateLimitHeaders: style,
    });
    try {
      const clock = new FakeClock();
      const signals: RateLimitSignal[] = [];
      const c = makeClient({ clock, onRateLimit: (signal) => signals.push(signal) }, limited);
      await c.channelResolve('@someone');
      await c.channelResolve('@someone');
      expect(signals).toHaveLength(2);
      expect(signals[0]).toMatchObject({ limit: 50, remaining: 49, observedAt: clock.now() });
      expect(signals[1]?.remaining).toBe(48);
      expect(signals[0]?.resetSeconds).toBeGreaterThan(0);
      expect(signals[0]?.resetSeconds).toBeLessThanOrEqual(60);
    } finally {
      await limited.close();
    }
  });
});

describe('credits', () => {
  it('counts exactly the credits the service charged, over a mix of outcomes', async () => {
    sim.admin.addFault({ match: { endpoint: 'transcript', videoId: 'aaaaaaaaaaa' }, kind: 'malformed' });
    const calls: Promise<unknown>[] = [
      client.transcript(FULL),
      client.transcript({ ...FULL, video: 'aaaaaaaaaaa' }),
      client.transcript({ ...FULL, video: 'nocap000002' }),
      client.transcript({ ...FULL, lang: 'zz' }),
      client.playlistVideos({ playlist: 'PLclient_n250' }),
      client.playlistVideos({ playlist: 'PLmissing' }),
      client.channelResolve('@someone'),
      client.channelLatest(channelIdForHandle('@someone')),
      client.search({ q: 'cats' }),
    ];
    await Promise.allSettled(calls);
    expect(credits.length).toBe(sim.admin.ledger().length);
    expect(credits.sort()).toEqual(['playlist/videos', 'search', 'transcript', 'transcript']);
  });
});
