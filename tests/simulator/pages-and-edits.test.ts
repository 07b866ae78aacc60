/**
 * The simulator's knobs for tests that walk lists (the model-based test, tests/model): a page size of
 * one's own, playlists edited while it runs (videos appended, removed, moved), credits set to a
 * number, each request seen as it arrives, a page's offset in the ledger, and the transcript a
 * request would get, told without HTTP.
 */
import { afterEach, describe, expect, test } from 'vitest';
import {
  channelIdForHandle,
  describePlaylist,
  startSimulator,
  type ArrivingRequest,
  type RunningSimulator,
} from '../../src/simulator';
import { api } from './helpers';
import { channelVideosPageSchema, playlistPageSchema, transcriptSchema } from './schemas';

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** Every video of a playlist, page by page, and how many pages that took. */
async function walk(running: RunningSimulator, playlist: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let query: Record<string, string> = { playlist };
  for (let pages = 1; ; pages++) {
    const page = playlistPageSchema.parse((await api(running, 'playlist/videos', query)).json());
    ids.push(...page.results.map((item) => item.video_id));
    if (!page.has_more || page.continuation_token === null) return { ids, pages };
    query = { continuation: page.continuation_token };
  }
}

describe('a page size of its own', () => {
  test('splits playlists and channels into pages of that size, each charged with its offset', async () => {
    sim = await startSimulator({ pageSize: 7 });
    const { ids, pages } = await walk(sim, 'PLpagedPlaylistList_n23');
    expect(pages).toBe(4);
    expect(ids).toEqual(describePlaylist('PLpagedPlaylistList_n23').videoIds());
    const first = channelVideosPageSchema.parse(
      (await api(sim, 'channel/videos', { channel: '@paged_channel_n9' })).json(),
    );
    expect(first.results.map((item) => item.index)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(sim.admin.ledger().map((charge) => charge.offset)).toEqual([0, 7, 14, 21, 0]);
  });

  test('leaves channel/latest its 15 videos', async () => {
    sim = await startSimulator({ pageSize: 5 });
    const latest = (await api(sim, 'channel/latest', { channel: '@latest_channel_n40' })).json() as {
      result_count: number;
    };
    expect(latest.result_count).toBe(15);
  });
});

describe('playlists edited while it runs', () => {
  test('gain videos at their end, lose one, see one moved: in pages, size and describePlaylist', async () => {
    sim = await startSimulator({ pageSize: 4 });
    const playlist = 'PLeditedPlaylistList_n6';
    const before = describePlaylist(playlist).videoIds();
    sim.admin.editPlaylist(playlist, { kind: 'append', count: 2 });
    sim.admin.editPlaylist(playlist, { kind: 'remove', position: 2 });
    sim.admin.editPlaylist(playlist, { kind: 'move', from: 1, to: 4 });
    const after = sim.admin.describePlaylist(playlist).videoIds();
    expect(after).toHaveLength(7);
    expect(after.slice(0, 4)).toEqual([before[2], before[3], before[4], before[0]]);
    expect(after[4]).toBe(before[5]);
    expect(after.slice(5).some((id) => before.includes(id))).toBe(false);
    expect((await walk(sim, playlist)).ids).toEqual(after);
    const info = playlistPageSchema.parse((await api(sim, 'playlist/videos', { playlist })).json());
    expect(info.playlist_info.num_videos).toBe('7');
    // Appended videos are catalog videos: their transcripts answer.
    expect((await api(sim, 'transcript', { video_url: after[6]! })).status).toBeOneOf([200, 404]);
  });

  test('refuses an uploads playlist, a missing playlist and a position outside the list', async () => {
    sim = await startSimulator();
    const uploads = `UU${channelIdForHandle('@refused_channel_n5').slice(2)}`;
    expect(() => sim!.admin.editPlaylist(uploads, { kind: 'append', count: 1 })).toThrow(RangeError);
    expect(() => sim!.admin.editPlaylist('PLmissingPlaylistXX', { kind: 'append', count: 1 })).toThrow(
      RangeError,
    );
    expect(() => sim!.admin.editPlaylist('PLshortPlaylistList_n3', { kind: 'remove', position: 4 })).toThrow(
      RangeError,
    );
    expect(sim.admin.describePlaylist('PLshortPlaylistList_n3').size).toBe(3);
  });
});

describe('credits, arrivals and transcripts told without HTTP', () => {
  test('credits set to 0 make paid requests 402 with the plan’s code, free ones still answer', async () => {
    sim = await startSimulator();
    sim.admin.setCredits(0);
    const refused = (await api(sim, 'transcript', { video_url: 'dQw4w9WgXcQ' })).json() as { code: string };
    expect(refused.code).toBe('E_FREE_GRANT_DEPLETED');
    expect((await api(sim, 'channel/resolve', { input: '@free_channel_n3' })).status).toBe(200);
    sim.admin.setCredits(1);
    expect((await api(sim, 'playlist/videos', { playlist: 'PLcreditPlaylistLst_n3' })).status).toBe(200);
    expect(sim.admin.credits()).toBe(0);
  });

  test('onRequest hears each API request as it arrives, in order, until unsubscribed', async () => {
    sim = await startSimulator();
    const heard: ArrivingRequest[] = [];
    const stop = sim.admin.onRequest((request) => heard.push(request));
    const release = sim.admin.holdAnswers();
    const answered = api(sim, 'transcript', { video_url: 'dQw4w9WgXcQ' });
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toMatchObject({ endpoint: 'transcript', query: { video_url: 'dQw4w9WgXcQ' } });
    release();
    await answered;
    stop();
    await api(sim, 'channel/resolve', { input: '@quiet_channel_n3' });
    expect(heard).toHaveLength(1);
  });

  test('describeTranscript tells what transcript/ sends, and null for its 404s', async () => {
    sim = await startSimulator();
    const playlist = describePlaylist('PLtranscriptToldLst_n30').videoIds();
    for (const videoId of playlist.slice(0, 8)) {
      const video = sim.admin.describeVideo(videoId);
      for (const lang of [undefined, ...video.languages, 'xx']) {
        const told = sim.admin.describeTranscript(videoId, lang);
        const reply = await api(sim, 'transcript', { video_url: videoId, ...(lang && { lang }) });
        if (told === null) {
          expect(reply.status).toBe(404);
          continue;
        }
        const sent = transcriptSchema.parse(reply.json());
        expect(sent.language).toBe(told.language);
        expect(sent.transcript).toEqual(told.segments);
      }
    }
  });
});
