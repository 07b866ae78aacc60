import { Agent, request } from 'node:http';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { CLAIMED_LIST_SIZE, startHostileService } from './hostile-service';
import type { HostileScenario, HostileScript, HostileService } from './hostile-service';

const KEY = 'sk_hostile_test_key_42';
/** A playlist ID of real length (PL and 16 more); the hostile service serves any ID alike. */
const PLAYLIST = 'PLhostileService01';

let service: HostileService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(scenario: HostileScenario, script?: HostileScript): Promise<HostileService> {
  service = await startHostileService(scenario, script);
  return service;
}

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function get(
  endpoint: string,
  query: Record<string, string>,
  headers: Record<string, string> = { authorization: `Bearer ${KEY}` },
): Promise<Answer> {
  const reply = await fetch(`${service?.url}/api/v2/${endpoint}?${new URLSearchParams(query)}`, {
    headers: { 'user-agent': 'hostile-tests/1', ...headers },
  });
  return {
    status: reply.status,
    headers: reply.headers,
    body: (await reply.json()) as Record<string, unknown>,
  };
}

const pageSchema = z.object({
  results: z.array(z.union([z.object({ video_id: z.string() }), z.object({ videoId: z.string() })])),
  result_count: z.number(),
  continuation_token: z.string().nullable(),
  has_more: z.boolean(),
  playlist_info: z.object({ num_videos: z.string() }),
});
type Page = z.infer<typeof pageSchema>;

const segmentsSchema = z.object({
  transcript: z.array(z.object({ text: z.string(), start: z.unknown(), duration: z.unknown() })),
});

const videoIds = (page: Page) =>
  page.results.map((item) => ('video_id' in item ? item.video_id : item.videoId));

/** `count` pages of a list, each asked for with the token the previous one gave. */
async function follow(endpoint: string, first: Record<string, string>, count: number): Promise<Page[]> {
  const pages: Page[] = [];
  let query = first;
  for (let i = 0; i < count; i++) {
    const reply = await get(endpoint, query);
    expect(reply.status).toBe(200);
    const page = pageSchema.parse(reply.body);
    pages.push(page);
    query = { continuation: page.continuation_token ?? '' };
  }
  return pages;
}

describe('hostile list scenarios', () => {
  test('cursor-cycle: tokens go A, B, A, B while every page brings new videos', async () => {
    const hostile = await start('cursor-cycle');
    const pages = await follow('playlist/videos', { playlist: PLAYLIST }, 4);
    const [first, second] = pages.map((page) => page.continuation_token);
    expect(first).not.toBe(second);
    expect(pages.map((page) => page.continuation_token)).toEqual([first, second, first, second]);
    expect(pages.every((page) => page.has_more && page.results.length === 100)).toBe(true);
    expect(new Set(pages.flatMap(videoIds)).size).toBe(400);
    expect(hostile.requests()).toEqual({ 'playlist/videos': 4 });
    expect(hostile.charged()).toBe(4);
  });

  test('same-videos: every page repeats the same 100 videos under a token never seen before', async () => {
    await start('same-videos');
    const pages = await follow('playlist/videos', { playlist: PLAYLIST }, 3);
    const tokens = pages.map((page) => page.continuation_token);
    expect(new Set(tokens).size).toBe(3);
    expect(pages.every((page) => page.has_more)).toBe(true);
    expect(videoIds(pages[0]!)).toHaveLength(100);
    expect(videoIds(pages[1]!)).toEqual(videoIds(pages[0]!));
    expect(videoIds(pages[2]!)).toEqual(videoIds(pages[0]!));
  });

  test('endless-new: 100 new videos a page, forever, from a list that claims 120', async () => {
    const hostile = await start('endless-new');
    const pages = await follow('playlist/videos', { playlist: PLAYLIST }, 3);
    expect(new Set(pages.flatMap(videoIds)).size).toBe(300);
    expect(pages.map((page) => page.playlist_info.num_videos)).toEqual(
      Array(3).fill(String(CLAIMED_LIST_SIZE)),
    );
    expect(pages.every((page) => page.has_more && page.continuation_token !== null)).toBe(true);
    // channel/videos misbehaves the same way, in its camelCase item shape.
    const channelPages = await follow('channel/videos', { channel: '@hostile' }, 2);
    expect(channelPages[0]?.results[0]).toHaveProperty('videoId');
    expect(new Set(channelPages.flatMap(videoIds)).size).toBe(200);
    expect(hostile.requests()).toEqual({ 'playlist/videos': 3, 'channel/videos': 2 });
    expect(hostile.charged()).toBe(5);
  });

  test('empty-pages: no videos, yet a fresh token and has_more on every page', async () => {
    await start('empty-pages');
    const pages = await follow('playlist/videos', { playlist: PLAYLIST }, 3);
    expect(pages.map((page) => [page.result_count, page.results.length, page.has_more])).toEqual(
      Array(3).fill([0, 0, true]),
    );
    expect(new Set(pages.map((page) => page.continuation_token)).size).toBe(3);
  });
});

describe('hostile transcripts and errors', () => {
  test('absurd-times: segments start and last 1.7e308, 1e12, -5 and "NaN" seconds', async () => {
    await start('absurd-times');
    const reply = await get('transcript', { video_url: 'dQw4w9WgXcQ', include_timestamp: 'true' });
    expect(reply.status).toBe(200);
    const { transcript } = segmentsSchema.parse(reply.body);
    expect(transcript.map((segment) => [segment.start, segment.duration])).toEqual([
      [1.7e308, 1.7e308],
      [1e12, 1e12],
      [-5, -5],
      ['NaN', 'NaN'],
    ]);
  });

  test('echo-key: the key comes back in request_id, X-Request-Id, a problem detail and a segment', async () => {
    const hostile = await start('echo-key');
    const ok = await get('transcript', { video_url: 'dQw4w9WgXcQ' });
    expect(ok.status).toBe(200);
    expect(ok.body['request_id']).toContain(KEY);
    expect(ok.headers.get('x-request-id')).toContain(KEY);
    expect(segmentsSchema.parse(ok.body).transcript.some((segment) => segment.text.includes(KEY))).toBe(true);

    const missing = await get('transcript', { video_url: 'nocapHostil' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect(missing.body).toMatchObject({ status: 404, code: 'E_NOT_FOUND' });
    expect(missing.body['detail']).toContain(KEY);
    expect(missing.body['request_id']).toContain(KEY);
    expect(missing.headers.get('x-request-id')).toContain(KEY);

    const resolved = await get('channel/resolve', { input: '@hostile' });
    expect(resolved.body['request_id']).toContain(KEY);
    // Only the 200 of a paid endpoint costs a credit: not the 404, not the free resolve.
    expect(hostile.requests()).toEqual({ transcript: 2, 'channel/resolve': 1 });
    expect(hostile.charged()).toBe(1);
  });

  test('retry-after-huge: transcripts answer 429 asking to wait an hour, while lists still work', async () => {
    const hostile = await start('retry-after-huge');
    const reply = await get('transcript', { video_url: 'dQw4w9WgXcQ' });
    expect(reply.status).toBe(429);
    expect(reply.headers.get('retry-after')).toBe('3600');
    expect(reply.body).toMatchObject({ status: 429, code: 'E_RATE_LIMITED', retry_after: 3600 });
    const [page] = await follow('playlist/videos', { playlist: PLAYLIST }, 1);
    expect(page).toMatchObject({ has_more: false, continuation_token: null });
    expect(hostile.charged()).toBe(1);
  });
});

describe('scripted answers', () => {
  test('scripted: a list is one page of the items given, as they are; a transcript the body given', async () => {
    const listItems = [{ video_id: 42, index: -5, title: { not: 'text' } }, 'not even an object'];
    const hostile = await start('scripted', {
      listItems,
      transcript: (videoId) => ({ video_id: videoId, transcript: [{ text: '\u001b[2J', start: -1 }] }),
    });
    const list = await get('channel/videos', { channel: '@anyone' });
    expect(list.body).toMatchObject({
      results: listItems,
      has_more: false,
      continuation_token: null,
      playlist_info: { num_videos: '2' },
    });
    const transcript = await get('transcript', { video_url: 'abc' });
    expect(transcript.body).toEqual({ video_id: 'abc', transcript: [{ text: '\u001b[2J', start: -1 }] });
    expect(hostile.charged()).toBe(2);
  });
});

describe('what every scenario leaves alone', () => {
  test('lists are ordinary one-page lists when the scenario is about transcripts', async () => {
    await start('absurd-times');
    const [page] = await follow('playlist/videos', { playlist: PLAYLIST }, 1);
    expect(page).toMatchObject({ result_count: 3, has_more: false, continuation_token: null });
    expect(page?.playlist_info.num_videos).toBe('3');
  });

  test('transcripts are small and sane for any video, and resolve and search answer, when lists misbehave', async () => {
    const hostile = await start('cursor-cycle');
    const reply = await get('transcript', { video_url: 'anyVideo123', lang: 'es', send_metadata: 'true' });
    expect(reply.body).toMatchObject({
      video_id: 'anyVideo123',
      language: 'es',
      metadata: { title: expect.any(String) },
    });
    const segments = segmentsSchema.parse(reply.body).transcript;
    expect(segments.length).toBeGreaterThan(0);
    for (const { start, duration } of segments) {
      expect(typeof start === 'number' && typeof duration === 'number' && start >= 0 && duration > 0).toBe(
        true,
      );
    }
    const resolved = await get('channel/resolve', { input: '@anyone' });
    expect(resolved.body['channel_id']).toMatch(/^UC[A-Za-z0-9_-]{22}$/);
    const found = await get('search', { q: 'anything' });
    expect(found.body).toMatchObject({ result_count: 3 });
    expect(hostile.charged()).toBe(2);
  });

  test('answers 401 without a key and 404 for an unknown endpoint, as problem+json', async () => {
    await start('endless-new');
    const anonymous = await get('transcript', { video_url: 'dQw4w9WgXcQ' }, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({
      status: 401,
      code: 'E_UNAUTHORIZED',
      instance: '/api/v2/transcript',
    });
    expect((await get('nowhere', {})).status).toBe(404);
    expect(service?.charged()).toBe(0);
  });

  test('never keeps the process alive, even while a kept-alive connection stays open', async () => {
    // What holds the event loop open: a listening server, or a connected socket.
    const holders = () =>
      process.getActiveResourcesInfo().filter((type) => type === 'TCPServerWrap' || type === 'TCPSocketWrap')
        .length;
    // Sockets of earlier tests' services close a moment after those services do.
    await vi.waitFor(() => expect(holders()).toBe(0), { timeout: 1000, interval: 10 });
    const hostile = await start('same-videos');
    // node:http's keep-alive agent unrefs its own idle socket, so only the server's side could count.
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      request(`${hostile.url}/api/v2/channel/resolve?input=%40x`, {
        agent,
        headers: { authorization: 'Bearer k' },
      })
        .on('response', (response) => response.resume().on('end', resolve))
        .on('error', reject)
        .end();
    });
    expect(hostile.requests()).toEqual({ 'channel/resolve': 1 });
    expect(holders()).toBe(0);
    agent.destroy();
  });
});
