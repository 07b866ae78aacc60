import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSimulator } from '../../src/simulator';
import type { RunningSimulator } from '../../src/simulator';
import { api, rawGet } from './helpers';
import { channelVideosPageSchema, playlistPageSchema, problemSchema } from './schemas';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ keys: ['sk_first', 'sk_second'] });
});
afterAll(() => sim.close());

const ENDPOINTS: [string, Record<string, string>][] = [
  ['transcript', { video_url: 'dQw4w9WgXcQ' }],
  ['playlist/videos', { playlist: 'PLx_n1' }],
  ['channel/resolve', { input: '@someone' }],
  ['channel/videos', { channel: '@someone' }],
  ['channel/latest', { channel: '@someone' }],
  ['search', { q: 'hello' }],
  ['channel/search', { channel: '@someone', q: 'hello' }],
];

describe('authentication and the proxy', () => {
  test.each(ENDPOINTS)(
    '%s refuses a missing or wrong key with 401 E_UNAUTHORIZED, free ones too',
    async (endpoint, query) => {
      const refused: Record<string, string>[] = [
        { 'user-agent': 't' },
        { 'user-agent': 't', authorization: 'Bearer sk_wrong' },
      ];
      for (const headers of refused) {
        const reply = await api(sim, endpoint, query, { headers });
        expect(reply.status).toBe(401);
        expect(reply.headers.get('content-type')).toBe('application/problem+json');
        const problem = problemSchema.parse(reply.json());
        expect(problem).toMatchObject({
          status: 401,
          code: 'E_UNAUTHORIZED',
          instance: `/api/v2/${endpoint}`,
        });
        expect(problem.type).toBe(`${sim.url}/api/errors/unauthorized`);
        expect(problem.request_id).toBe(reply.headers.get('x-request-id'));
        expect(reply.text).not.toContain('sk_wrong');
      }
    },
  );

  test('accepts every configured key and records which one paid by index, never the key', async () => {
    const reply = await api(
      sim,
      'search',
      { q: 'a' },
      { headers: { 'user-agent': 't', authorization: 'Bearer sk_second' } },
    );
    expect(reply.status).toBe(200);
    expect(sim.admin.ledger().at(-1)?.key).toBe('key#1');
    expect(JSON.stringify(sim.admin.ledger())).not.toContain('sk_');
  });

  test('refuses a request without a User-Agent with 403 E_FORBIDDEN, before looking at the key', async () => {
    const reply = await rawGet(`${sim.url}/api/v2/search?q=a`, { authorization: 'Bearer sk_first' });
    expect(reply.status).toBe(403);
    expect(problemSchema.parse(JSON.parse(reply.text)).code).toBe('E_FORBIDDEN');
  });

  test('answers 404 for an unknown path and 405 for a method other than GET', async () => {
    expect((await api(sim, 'transcripts', {})).status).toBe(404);
    const post = await api(sim, 'search', { q: 'a' }, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});

/** The errors[] of a 422, after checking the envelope. */
async function fieldErrors(endpoint: string, query: Record<string, string>) {
  const reply = await api(sim, endpoint, query);
  expect(reply.status, JSON.stringify(query)).toBe(422);
  const problem = problemSchema.parse(reply.json());
  expect(problem.code).toBe('E_VALIDATION');
  expect(problem.type).toBe(`${sim.url}/api/errors/validation`);
  return problem.errors ?? [];
}

describe('validation (422 E_VALIDATION with errors[])', () => {
  const long = (n: number) => 'a'.repeat(n);
  const cases: [string, Record<string, string>, string, string][] = [
    ['transcript', {}, 'video_url', 'required'],
    ['transcript', { video_url: '' }, 'video_url', 'too_short'],
    ['transcript', { video_url: long(2049) }, 'video_url', 'too_long'],
    ['transcript', { video_url: 'not a video' }, 'video_url', 'invalid'],
    ['transcript', { video_url: 'dQw4w9WgXcQ', format: 'xml' }, 'format', 'invalid_value'],
    [
      'transcript',
      { video_url: 'dQw4w9WgXcQ', include_timestamp: 'yes' },
      'include_timestamp',
      'invalid_value',
    ],
    ['transcript', { video_url: 'dQw4w9WgXcQ', send_metadata: '1' }, 'send_metadata', 'invalid_value'],
    ['transcript', { video_url: 'dQw4w9WgXcQ', lang: 'english' }, 'lang', 'invalid_format'],
    ['transcript', { video_url: 'dQw4w9WgXcQ', lang: 'en-aaaaaaaa-bbbbb' }, 'lang', 'too_long'],
    ['playlist/videos', {}, 'playlist', 'required'],
    ['playlist/videos', { playlist: 'XX123' }, 'playlist', 'invalid'],
    ['playlist/videos', { playlist: `PL${long(199)}` }, 'playlist', 'too_long'],
    ['playlist/videos', { continuation: 'forged.token' }, 'continuation', 'invalid'],
    ['playlist/videos', { continuation: long(8193) }, 'continuation', 'too_long'],
    ['channel/resolve', {}, 'input', 'required'],
    ['channel/resolve', { input: 'just words' }, 'input', 'invalid'],
    ['channel/resolve', { input: `@${long(200)}` }, 'input', 'too_long'],
    ['channel/videos', {}, 'channel', 'required'],
    ['channel/latest', { channel: 'https://example.com/@x' }, 'channel', 'invalid'],
    ['search', {}, 'q', 'required'],
    ['search', { q: long(201) }, 'q', 'too_long'],
    ['search', { q: 'a', type: 'playlist' }, 'type', 'invalid_value'],
    ['search', { q: 'a', limit: '0' }, 'limit', 'too_small'],
    ['search', { q: 'a', limit: '51' }, 'limit', 'too_large'],
    ['search', { q: 'a', limit: '2.5' }, 'limit', 'invalid_format'],
    ['channel/search', { channel: '@x' }, 'q', 'required'],
    ['channel/search', { q: 'a' }, 'channel', 'required'],
  ];

  test.each(cases)('%s %j -> %s %s', async (endpoint, query, field, code) => {
    const errors = await fieldErrors(endpoint, query);
    expect(errors).toContainEqual(expect.objectContaining({ field, code }));
    expect(errors.every((error) => error.message.length > 0)).toBe(true);
  });

  test('reports every bad parameter of a request at once', async () => {
    const errors = await fieldErrors('transcript', { video_url: 'bad', format: 'xml', lang: '1' });
    expect(errors.map((error) => error.field).sort()).toEqual(['format', 'lang', 'video_url']);
  });

  test('wants exactly one of playlist/continuation and of channel/continuation', async () => {
    const page = playlistPageSchema.parse(
      (await api(sim, 'playlist/videos', { playlist: 'PLbothAreSent_n150' })).json(),
    );
    const token = page.continuation_token ?? '';
    expect(
      await fieldErrors('playlist/videos', { playlist: 'PLbothAreSent_n150', continuation: token }),
    ).toContainEqual(expect.objectContaining({ field: 'playlist', code: 'conflict' }));
    const channelPage = channelVideosPageSchema.parse(
      (await api(sim, 'channel/videos', { channel: '@both_n150' })).json(),
    );
    const channelToken = channelPage.continuation_token ?? '';
    expect(
      await fieldErrors('channel/videos', { channel: '@both_n150', continuation: channelToken }),
    ).toContainEqual(expect.objectContaining({ field: 'channel', code: 'conflict' }));
  });

  test('refuses a tampered continuation token and a playlist token on channel/videos', async () => {
    const page = playlistPageSchema.parse(
      (await api(sim, 'playlist/videos', { playlist: 'PLtamper_n150' })).json(),
    );
    const token = page.continuation_token ?? '';
    const [payload, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ list: 'playlist', id: 'PLtamper_n150', offset: 0 })).toString(
      'base64url',
    );
    expect(forged).not.toBe(payload);
    await fieldErrors('playlist/videos', { continuation: `${forged}.${mac}` });
    await fieldErrors('channel/videos', { continuation: token });
    expect((await api(sim, 'playlist/videos', { continuation: token })).status).toBe(200);
  });

  test('checks the key before the parameters', async () => {
    const reply = await api(sim, 'transcript', {}, { headers: { 'user-agent': 't' } });
    expect(reply.status).toBe(401);
  });
});
