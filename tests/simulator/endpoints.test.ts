import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  channelIdForHandle,
  describeChannel,
  describePlaylist,
  describeVideo,
  startSimulator,
} from '../../src/simulator';
import type { RunningSimulator } from '../../src/simulator';
import { api } from './helpers';
import {
  channelVideosPageSchema,
  latestSchema,
  playlistPageSchema,
  problemSchema,
  resolveSchema,
  searchSchema,
  transcriptSchema,
} from './schemas';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

/** The first of a few IDs that the catalog gives captions and at least `tracks` tracks. */
function captionedVideo(tracks = 2): string {
  for (let i = 0; i < 100; i++) {
    const id = `vid${String(i).padStart(8, '0')}`;
    const facts = describeVideo(id);
    if (facts.hasCaptions && facts.languages.length >= tracks) return id;
  }
  throw new Error('no captioned video found');
}

/** Every page of a list endpoint, following continuation_token while has_more. */
async function walk(endpoint: string, first: Record<string, string>) {
  const pages = [];
  let query = first;
  for (;;) {
    const reply = await api(sim, endpoint, query);
    expect(reply.status).toBe(200);
    const page = z
      .object({
        results: z.array(z.unknown()),
        has_more: z.boolean(),
        continuation_token: z.string().nullable(),
      })
      .passthrough()
      .parse(reply.json());
    pages.push(page);
    if (!page.has_more) return pages;
    query = { continuation: page.continuation_token ?? '' };
  }
}

describe('transcript', () => {
  test('returns the original track with timed segments and metadata, as the catalog describes it', async () => {
    const id = captionedVideo();
    const facts = describeVideo(id);
    const reply = await api(sim, 'transcript', { video_url: id });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(reply.headers.get('x-request-id')).toMatch(/^req_\w+$/);
    const body = transcriptSchema.parse(reply.json());
    expect(body.video_id).toBe(id);
    expect(body.language).toBe(facts.original);
    expect(body.transcript).toHaveLength(facts.segments);
    expect(body.metadata?.title).toBe(facts.title);
  });

  test('leaves out times and metadata when asked, and serves format=text as [HH:MM:SS] lines', async () => {
    const id = captionedVideo();
    const bare = await api(sim, 'transcript', {
      video_url: id,
      include_timestamp: 'false',
      send_metadata: 'false',
    });
    const body = z
      .strictObject({
        video_id: z.string(),
        language: z.string(),
        transcript: z.array(z.strictObject({ text: z.string() })),
      })
      .parse(bare.json());
    expect(body.transcript.length).toBe(describeVideo(id).segments);

    const text = await api(sim, 'transcript', { video_url: id, format: 'text' });
    const textBody = z.object({ transcript: z.string() }).parse(text.json());
    expect(textBody.transcript.startsWith('[00:00:')).toBe(true);
    for (const segment of body.transcript) expect(textBody.transcript).toContain(`] ${segment.text}`);
  });

  test('serves another track when lang names it (case-insensitively) and 404s for a track it lacks', async () => {
    const id = captionedVideo(2);
    const other = describeVideo(id).languages[1] ?? '';
    const reply = await api(sim, 'transcript', { video_url: id, lang: other.toUpperCase() });
    expect(reply.status).toBe(200);
    expect(transcriptSchema.parse(reply.json()).language).toBe(other);

    const absent = ['en', 'es', 'de', 'fr', 'ja', 'pt', 'it', 'ko', 'nl'].find(
      (l) => !describeVideo(id).languages.includes(l),
    );
    const missing = await api(sim, 'transcript', { video_url: id, lang: absent ?? 'nl' });
    expect(missing.status).toBe(404);
    expect(problemSchema.parse(missing.json()).code).toBe('E_NOT_FOUND');
  });

  test('accepts the URL forms of a video', async () => {
    const id = captionedVideo();
    for (const url of [
      `https://www.youtube.com/watch?v=${id}&t=42s`,
      `https://youtu.be/${id}?si=abc`,
      `m.youtube.com/shorts/${id}`,
      `https://www.youtube.com/embed/${id}`,
      `https://youtube.com/live/${id}`,
    ]) {
      const reply = await api(sim, 'transcript', { video_url: url });
      expect(reply.status, url).toBe(200);
      expect(transcriptSchema.parse(reply.json()).video_id).toBe(id);
    }
  });

  test('answers 404 "no captions" for a video without captions', async () => {
    const reply = await api(sim, 'transcript', { video_url: 'nocapABCDEF' });
    expect(reply.status).toBe(404);
    const problem = problemSchema.parse(reply.json());
    expect(problem).toMatchObject({
      code: 'E_NOT_FOUND',
      detail: 'no captions',
      instance: '/api/v2/transcript',
    });
  });
});

describe('playlist/videos', () => {
  test('walks a 250-video playlist in 3 pages, in order, ending with has_more false', async () => {
    const pages = await walk('playlist/videos', { playlist: 'PLpagesToWalk_n250' });
    const parsed = pages.map((page) => playlistPageSchema.parse(page));
    expect(parsed.map((page) => page.result_count)).toEqual([100, 100, 50]);
    expect(parsed.map((page) => page.has_more)).toEqual([true, true, false]);
    expect(parsed[2]?.continuation_token).toBeNull();
    const items = parsed.flatMap((page) => page.results);
    expect(items.map((item) => item.index)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(items.map((item) => item.video_id)).toEqual(describePlaylist('PLpagesToWalk_n250').videoIds());
    expect(parsed[0]?.playlist_info.num_videos).toBe('250');
  });

  test('serves an empty playlist, accepts playlist URLs and 404s a missing one', async () => {
    const empty = playlistPageSchema.parse(
      (await api(sim, 'playlist/videos', { playlist: 'PLempty_n0' })).json(),
    );
    expect(empty).toMatchObject({ results: [], result_count: 0, has_more: false, continuation_token: null });

    const url = await api(sim, 'playlist/videos', {
      playlist: 'https://www.youtube.com/playlist?list=PLsmall_n3',
    });
    expect(playlistPageSchema.parse(url.json()).results.map((item) => item.video_id)).toEqual(
      describePlaylist('PLsmall_n3').videoIds(),
    );

    const missing = await api(sim, 'playlist/videos', { playlist: 'PLmissing_list' });
    expect(missing.status).toBe(404);
  });

  test('a UU playlist holds exactly the uploads of the UC channel with the same suffix', async () => {
    const channelId = channelIdForHandle('@uploads_n130');
    const playlistIds = (await walk('playlist/videos', { playlist: `UU${channelId.slice(2)}` })).flatMap(
      (page) => playlistPageSchema.parse(page).results.map((item) => item.video_id),
    );
    const channelIds = (await walk('channel/videos', { channel: channelId })).flatMap((page) =>
      channelVideosPageSchema.parse(page).results.map((item) => item.videoId),
    );
    expect(playlistIds).toHaveLength(130);
    expect(playlistIds).toEqual(channelIds);
  });
});

describe('channels', () => {
  test('resolve maps handles and channel URLs to channelIdForHandle and returns a UC id as is', async () => {
    const expected = channelIdForHandle('@scriptorium');
    for (const input of [
      '@scriptorium',
      '@Scriptorium',
      'https://www.youtube.com/@scriptorium/videos',
      'youtube.com/c/scriptorium',
    ]) {
      const body = resolveSchema.parse((await api(sim, 'channel/resolve', { input })).json());
      expect(body, input).toEqual({ channel_id: expected, resolved_from: input });
    }
    const id = 'UCabcdefghijklmnopqrstuv';
    for (const input of [id, `https://www.youtube.com/channel/${id}/streams`]) {
      expect(resolveSchema.parse((await api(sim, 'channel/resolve', { input })).json()).channel_id).toBe(id);
    }
    expect((await api(sim, 'channel/resolve', { input: '@missing_person' })).status).toBe(404);
  });

  test('channel/videos pages a handle-made channel by the size its handle asks for', async () => {
    const pages = (await walk('channel/videos', { channel: '@pager_n205' })).map((page) =>
      channelVideosPageSchema.parse(page),
    );
    expect(pages.map((page) => page.result_count)).toEqual([100, 100, 5]);
    expect(pages[2]?.results.at(-1)?.index).toBe(205);
    expect((await api(sim, 'channel/videos', { channel: '@missing' })).status).toBe(404);
  });

  test('describeChannel names the channel, size and uploads that channel/videos serves, for any input form', async () => {
    const handleMade = channelIdForHandle('@described_n130');
    const foreign = 'UCforeignChannelId_n0042';
    for (const [input, channelId, size] of [
      ['@described_n130', handleMade, 130],
      ['https://www.youtube.com/c/described_n130/videos', handleMade, 130],
      [foreign, foreign, 42],
      [`https://www.youtube.com/channel/${foreign}`, foreign, 42],
    ] as const) {
      const served = (await walk('channel/videos', { channel: input })).flatMap((page) =>
        channelVideosPageSchema.parse(page).results.map((item) => item.videoId),
      );
      const described = describeChannel(input);
      expect(described, input).toMatchObject({ exists: true, channelId, size });
      expect(described.videoIds(), input).toEqual(served);
    }
    expect(describeChannel('@missing_person')).toMatchObject({ exists: false, size: 0 });
    expect(describeChannel('not a channel').exists).toBe(false);
  });

  test('channel/latest lists the 15 newest uploads (the first of channel/videos)', async () => {
    const latest = latestSchema.parse((await api(sim, 'channel/latest', { channel: '@latest_n40' })).json());
    const uploads = channelVideosPageSchema.parse(
      (await api(sim, 'channel/videos', { channel: '@latest_n40' })).json(),
    );
    expect(latest.result_count).toBe(15);
    expect(latest.channel.channelId).toBe(channelIdForHandle('@latest_n40'));
    expect(latest.results.map((item) => item.videoId)).toEqual(
      uploads.results.slice(0, 15).map((item) => item.videoId),
    );
  });
});

describe('search', () => {
  test('returns `limit` video results that depend only on q, or channel results', async () => {
    const first = searchSchema.parse((await api(sim, 'search', { q: 'river lights', limit: '7' })).json());
    const again = searchSchema.parse((await api(sim, 'search', { q: 'river lights', limit: '7' })).json());
    const other = searchSchema.parse((await api(sim, 'search', { q: 'something else', limit: '7' })).json());
    expect(first.result_count).toBe(7);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    expect(searchSchema.parse((await api(sim, 'search', { q: 'x' })).json()).result_count).toBe(20);

    const channels = searchSchema.parse(
      (await api(sim, 'search', { q: 'river', type: 'channel', limit: '3' })).json(),
    );
    expect(channels.results.map((item) => item.type)).toEqual(['channel', 'channel', 'channel']);
  });

  test('channel/search returns up to `limit` (default 30) of the channel’s own videos', async () => {
    const big = searchSchema.parse(
      (await api(sim, 'channel/search', { channel: '@big_n100', q: 'engine' })).json(),
    );
    expect(big.result_count).toBe(30);
    const owner = channelIdForHandle('@big_n100');
    expect(big.results.every((item) => item.type === 'video' && item.channelId === owner)).toBe(true);
    const small = searchSchema.parse(
      (await api(sim, 'channel/search', { channel: '@small_n4', q: 'engine', limit: '10' })).json(),
    );
    expect(small.result_count).toBe(4);
  });
});

describe('determinism', () => {
  test('two simulators with the same seed answer with the same bodies; another seed differs', async () => {
    const twin = await startSimulator({ seed: 1 });
    const other = await startSimulator({ seed: 2 });
    try {
      const requests: [string, Record<string, string>][] = [
        ['transcript', { video_url: captionedVideo() }],
        ['playlist/videos', { playlist: 'PLdeterminism' }],
        ['channel/videos', { channel: '@determinism' }],
        ['search', { q: 'same answer' }],
      ];
      for (const [endpoint, query] of requests) {
        const mine = await api(sim, endpoint, query);
        expect(mine.status).toBe(200);
        expect((await api(twin, endpoint, query)).text, endpoint).toBe(mine.text);
        expect((await api(other, endpoint, query)).text, endpoint).not.toBe(mine.text);
      }
    } finally {
      await Promise.all([twin.close(), other.close()]);
    }
  });
});
