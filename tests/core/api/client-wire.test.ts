/**
 * Wire variants the simulator does not produce (camelCase names, numeric strings, epoch
 * resets, odd error bodies), served by a tiny node:http server on loopback.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/core/api';
import type { ClientOptions, Endpoint, RateLimitSignal, TranscriptClient } from '../../../src/core/api';
import { FakeClock } from './fake-clock';
import { sendJson, startWireServer } from './wire-server';
import type { SeenRequest } from './wire-server';
import { caught } from './caught';

const KEY = 'sk_test_wire_secret_123';
const VIDEO = { video: 'dQw4w9WgXcQ', includeTimestamp: true, sendMetadata: true };

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.map((close) => close()));
  cleanup = [];
});

async function serve(
  respond: (request: SeenRequest, response: ServerResponse) => void,
  options: Partial<ClientOptions> & { basePath?: string } = {},
): Promise<{ client: TranscriptClient; seen: SeenRequest[] }> {
  const server = await startWireServer(respond);
  const client = createClient({
    baseUrl: `${server.url}${options.basePath ?? ''}`,
    apiKey: KEY,
    userAgent: 'Scriptorium/test',
    clock: new FakeClock(),
    ...options,
  });
  cleanup.push(() => client.close(), server.close);
  return { client, seen: server.seen };
}

describe('client against wire variants', () => {
  it('normalises a camelCase transcript with numeric-string and integer times', async () => {
    const body = {
      videoId: 'dQw4w9WgXcQ',
      language: 'en',
      transcript: [
        { text: 'one', start: '18.0', duration: 3 },
        { text: 'two', start: 21, duration: '3.5', confidence: 0.9 },
      ],
      metadata: { title: 'A song', authorName: 'Rick', thumbnailUrl: 'http://t/1.jpg' },
      extra: { ignored: true },
    };
    const { client } = await serve((_req, res) => sendJson(res, 200, body));
    const { value } = await client.transcript(VIDEO);
    expect(value).toEqual({
      videoId: 'dQw4w9WgXcQ',
      language: 'en',
      segments: [
        { text: 'one', start: 18, duration: 3 },
        { text: 'two', start: 21, duration: 3.5 },
      ],
      metadata: { title: 'A song', authorName: 'Rick', thumbnailUrl: 'http://t/1.jpg' },
      raw: body,
    });
  });

  it('keeps a transcript whose labels or metadata are missing or malformed', async () => {
    const body = { transcript: [{ text: 'hi' }], metadata: 'not an object' };
    const { client } = await serve((_req, res) => sendJson(res, 200, body));
    const { value } = await client.transcript({ ...VIDEO, lang: 'de' });
    expect(value).toEqual({ videoId: VIDEO.video, language: 'de', segments: [{ text: 'hi' }], raw: body });
  });

  it('normalises camelCase channel videos with an index, and stops when no cursor comes back', async () => {
    const body = {
      results: [{ videoId: 'aaaaaaaaaaa', title: 'First', index: 0, channelId: 'UCx', lengthText: '3:01' }],
      hasMore: true,
      playlistInfo: { title: 'Uploads', numVideos: 1, nested: { dropped: true } },
    };
    const { client } = await serve((_req, res) => sendJson(res, 200, body));
    const { value } = await client.channelVideos({ channel: '@someone' });
    expect(value).toEqual({
      items: [{ videoId: 'aaaaaaaaaaa', title: 'First', index: 0, channelId: 'UCx', lengthText: '3:01' }],
      continuation: null,
      hasMore: false,
      info: { title: 'Uploads', numVideos: '1' },
    });
  });

  it('reads channel/latest, both kinds of search and channel search', async () => {
    const { client, seen } = await serve((req, res) => {
      const url = new URL(req.url, 'http://x');
      if (url.pathname.endsWith('/channel/latest')) {
        sendJson(res, 200, {
          channel: { channelId: 'UC123', title: 'Chan', author: 'Chan', url: 'http://c' },
          results: [
            { videoId: 'bbbbbbbbbbb', title: 'New', published: '2030-01-01T00:00:00Z', viewCount: 3 },
          ],
          result_count: 1,
        });
      } else if (url.searchParams.get('type') === 'channel') {
        sendJson(res, 200, {
          results: [{ channelId: 'UC9', title: 'Nine', handle: '@nine', verified: true }],
        });
      } else {
        sendJson(res, 200, { results: [{ videoId: 'ccccccccccc', title: 'Found' }], result_count: 1 });
      }
    });
    expect((await client.channelLatest('UC123')).value).toEqual({
      channelId: 'UC123',
      title: 'Chan',
      videos: [{ videoId: 'bbbbbbbbbbb', title: 'New', published: '2030-01-01T00:00:00Z' }],
    });
    expect((await client.search({ q: 'cats', type: 'channel', limit: 5 })).value).toEqual({
      type: 'channel',
      channels: [{ channelId: 'UC9', title: 'Nine', handle: '@nine' }],
    });
    expect((await client.search({ q: 'cats' })).value).toEqual({
      type: 'video',
      items: [{ videoId: 'ccccccccccc', title: 'Found' }],
    });
    const page = await client.channelSearch({ channel: '@nine', q: 'dogs' });
    expect(page.value).toEqual({
      items: [{ videoId: 'ccccccccccc', title: 'Found' }],
      continuation: null,
      hasMore: false,
    });
    expect(seen.map((r) => r.url)).toEqual([
      '/api/v2/channel/latest?channel=UC123',
      '/api/v2/search?q=cats&type=channel&limit=5',
      '/api/v2/search?q=cats',
      '/api/v2/channel/search?channel=%40nine&q=dogs',
    ]);
  });

  it('charges search and channel search, but not channel/latest', async () => {
    const credits: Endpoint[] = [];
    const { client } = await serve(
      (_req, res) => sendJson(res, 200, { channel: { channelId: 'UC1' }, results: [] }),
      {
        onCredit: (endpoint) => credits.push(endpoint),
      },
    );
    expect((await client.channelLatest('UC1')).charged).toBe(false);
    expect((await client.search({ q: 'x' })).charged).toBe(true);
    expect((await client.channelSearch({ channel: 'UC1', q: 'x' })).charged).toBe(true);
    expect(credits).toEqual(['search', 'channel/search']);
  });

  it('sends the key, the User-Agent and Accept on every request, and nothing else of note', async () => {
    const { client, seen } = await serve((_req, res) => sendJson(res, 200, { channel_id: 'UC1' }), {
      userAgent: 'Scriptorium/9.9.9 (test)',
    });
    await client.channelResolve('@x');
    expect(seen[0]?.headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      'user-agent': 'Scriptorium/9.9.9 (test)',
      accept: 'application/json',
    });
  });

  it('joins a base URL with a path, with or without the trailing slash', async () => {
    for (const basePath of ['/proxy', '/proxy/']) {
      const { client, seen } = await serve((_req, res) => sendJson(res, 200, { channel_id: 'UC1' }), {
        basePath,
      });
      await client.channelResolve('@x');
      expect(seen[0]?.url).toBe('/proxy/api/v2/channel/resolve?input=%40x');
    }
  });

  it('reads X-RateLimit-Reset given as a Unix epoch into seconds from now', async () => {
    const clock = new FakeClock();
    const signals: RateLimitSignal[] = [];
    const reset = String(clock.now() / 1000 + 42);
    const { client } = await serve(
      (_req, res) =>
        sendJson(
          res,
          200,
          { channel_id: 'UC1' },
          {
            'x-ratelimit-limit': '200',
            'x-ratelimit-remaining': '150',
            'x-ratelimit-reset': reset,
          },
        ),
      { clock, onRateLimit: (signal) => signals.push(signal) },
    );
    await client.channelResolve('UC1');
    expect(signals).toEqual([{ limit: 200, remaining: 150, resetSeconds: 42, observedAt: clock.now() }]);
  });

  it('uses the body retry_after when the Retry-After header is absent', async () => {
    const clock = new FakeClock();
    const { client, seen } = await serve(
      (_req, res) => sendJson(res, 429, { status: 429, code: 'E_RATE_LIMITED', retry_after: 7 }),
      { clock },
    );
    const error = await caught(client.channelResolve('UC1'));
    expect(seen).toHaveLength(3);
    expect(clock.sleeps).toEqual([7000, 7000]);
    expect(error).toMatchObject({
      kind: 'http',
      status: 429,
      code: 'E_RATE_LIMITED',
      attempts: 3,
      retryAfter: 7,
    });
  });

  it('falls back to 2^k seconds when Retry-After cannot be read', async () => {
    const clock = new FakeClock();
    const { client } = await serve(
      (_req, res) => sendJson(res, 502, 'Bad gateway', { 'retry-after': 'later' }),
      {
        clock,
      },
    );
    await caught(client.channelResolve('UC1'));
    expect(clock.sleeps).toEqual([1000, 2000]);
  });

  it('turns a non-JSON error body into an ApiError with the status and a plain message', async () => {
    const { client } = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html>oops</html>');
    });
    const error = await caught(client.channelResolve('UC1'));
    expect(error).toMatchObject({ kind: 'http', status: 500, attempts: 1, errors: [] });
    expect(error.message).toBe('The service answered 500: the service had an internal error');
  });

  it('never lets the API key into an error, even when the service echoes it', async () => {
    const { client } = await serve((_req, res) =>
      sendJson(res, 401, {
        title: `Bad key ${KEY}`,
        detail: `The key ${KEY} is not valid`,
        code: 'E_UNAUTHORIZED',
        errors: [{ field: 'authorization', code: 'invalid', message: `Bearer ${KEY}` }],
      }),
    );
    const error = await caught(client.channelResolve('UC1'));
    expect(error.status).toBe(401);
    expect(`${error.message} ${error.stack ?? ''} ${JSON.stringify(error)}`).not.toContain(KEY);
  });

  it('keeps a successful answer as the service sent it, a key inside an ID or a cursor included', async () => {
    // A key that is part of the service's data: redacting it there would store an ID and a cursor the
    // service never sent (and a cursor it would refuse).
    const key = 'Qw4w9WgX';
    const page = {
      results: [{ videoId: 'dQw4w9WgXcQ', title: `About ${key}` }],
      continuation_token: `tok.${key}.more`,
      has_more: true,
    };
    const { client } = await serve(
      (_req, res) => sendJson(res, 200, page, { 'x-request-id': `req_${key}` }),
      {
        apiKey: key,
      },
    );
    const response = await client.playlistVideos({ playlist: 'PLwire' });
    expect(response.value.items.map((item) => item.videoId)).toEqual(['dQw4w9WgXcQ']);
    expect(response.value.continuation).toBe(`tok.${key}.more`);
    expect(response.text).toBe(JSON.stringify(page));
    expect(response.requestId).toBe(`req_${key}`);
  });

  it('reports a 200 whose body stalls past the timeout as unreadable and charged', async () => {
    const credits: Endpoint[] = [];
    const { client } = await serve(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"video_id": "dQw4w9WgXcQ", "transcript": [');
      },
      { timeoutMs: 150, onCredit: (endpoint) => credits.push(endpoint) },
    );
    const error = await caught(client.transcript(VIDEO));
    expect(error).toMatchObject({ kind: 'unreadable', status: 200, charged: true, attempts: 1 });
    expect(error.message).toContain('cut off');
    expect(credits).toEqual(['transcript']);
  });

  it('reports what was wrong with an unusable 200', async () => {
    const bodies: [unknown, string][] = [
      [{ video_id: 'x', language: 'en' }, 'the service sent a transcript without a transcript list'],
      [{ transcript: '[00:00:18] text' }, 'the service sent a transcript whose transcript is not a list'],
      [
        { transcript: [{ text: 'a', start: 'soon' }] },
        'the service sent a transcript whose transcript[0].start',
      ],
      [[1, 2], 'the service sent a transcript that is not a JSON object'],
    ];
    for (const [body, message] of bodies) {
      const { client } = await serve((_req, res) => sendJson(res, 200, body));
      const error = await caught(client.transcript(VIDEO));
      expect(error).toMatchObject({ kind: 'unreadable', status: 200, charged: true, attempts: 1 });
      expect(error.message).toContain(message);
    }
  });

  it('never counts as possibly charged a request that could not leave the machine (a key no header can carry)', async () => {
    for (const apiKey of ['sk_line\nbreak', 'sk_en\u2013dash']) {
      const { client, seen } = await serve((_req, res) => sendJson(res, 200, {}), { apiKey });
      const error = await caught(client.transcript(VIDEO));
      expect(error).toMatchObject({ kind: 'unreachable', status: 0, charged: false, possiblyCharged: false });
      expect(error.message).toMatch(/^The request could not be sent to 127\.0\.0\.1:\d+ \(/);
      expect(seen).toEqual([]);
    }
  });

  it("takes a 404 that is not the service's own answer for the address being wrong, never for a missing video", async () => {
    const notTheService: Array<[string, (res: ServerResponse) => void]> = [
      [
        'an HTML page',
        (res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'),
      ],
      ['an empty body', (res) => res.writeHead(404).end()],
      ["another program's JSON", (res) => sendJson(res, 404, { detail: 'Not Found' })],
      [
        'a problem about a path outside the base the service names',
        (res) =>
          sendJson(res, 404, {
            type: 'http://127.0.0.1/api/errors/not-found',
            title: 'Not found',
            status: 404,
            detail: 'There is no endpoint at /wrong/api/v2/transcript.',
            instance: '/wrong/api/v2/transcript',
            code: 'E_NOT_FOUND',
          }),
      ],
    ];
    for (const [what, answer] of notTheService) {
      const { client } = await serve((_req, res) => answer(res), { basePath: '/wrong/' });
      const error = await caught(client.transcript(VIDEO));
      expect(error, what).toMatchObject({
        kind: 'unreachable',
        status: 404,
        charged: false,
        possiblyCharged: false,
      });
      expect(error.message, what).toMatch(
        /^No Transcript Service answers at http:\/\/127\.0\.0\.1:\d+\/wrong\/ \(it answered 404 to \/wrong\/api\/v2\/transcript with something else than the service's own answer\): check the service address$/,
      );
    }

    // The service's own answer, also behind a proxy that serves it under a path of its own.
    const { client } = await serve(
      (_req, res) =>
        sendJson(res, 404, {
          type: 'https://transcripts.example/api/errors/not-found',
          title: 'Not found',
          status: 404,
          detail: 'no captions',
          instance: '/api/v2/transcript',
          code: 'E_NOT_FOUND',
        }),
      { basePath: '/proxy/' },
    );
    expect(await caught(client.transcript(VIDEO))).toMatchObject({
      kind: 'http',
      status: 404,
      code: 'E_NOT_FOUND',
    });
  });
});
