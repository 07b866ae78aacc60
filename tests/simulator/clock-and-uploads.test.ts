/**
 * The simulator's clock and the uploads added while it runs: listings word a video's age against
 * the simulator's own clock, so that reading "2 years ago" at that clock gives an interval holding the
 * exact date channel/latest gives; a new upload is its channel's newest video, minutes or hours old,
 * at the head of the channel and of its uploads playlist, under the channel's own name.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { publishedInterval } from '../../src/shared/published';
import { channelIdForHandle, describeChannel, startSimulator } from '../../src/simulator';
import type { RunningSimulator } from '../../src/simulator';
import { api } from './helpers';
import { channelVideosPageSchema, latestSchema, playlistPageSchema, transcriptSchema } from './schemas';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A clock a test moves by hand; it starts well after the catalog's dates. */
function manualClock(start = Date.UTC(2026, 10, 28, 9, 30)): {
  now: () => number;
  advance(ms: number): void;
} {
  let at = start;
  return {
    now: () => at,
    advance: (ms) => {
      at += ms;
    },
  };
}

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** channel/latest, and the first page of channel/videos, of one channel. */
async function latestAndListed(running: RunningSimulator, channel: string) {
  const latest = latestSchema.parse((await api(running, 'channel/latest', { channel })).json());
  const page = channelVideosPageSchema.parse((await api(running, 'channel/videos', { channel })).json());
  return { latest, page };
}

describe("relative dates are worded against the simulator's clock", () => {
  test('each relative date of a listing, read at that clock, holds the ISO date channel/latest gives', async () => {
    const clock = manualClock();
    sim = await startSimulator({ now: clock.now });
    sim.admin.addUploads('@dated_channel_n60', 2);
    // Now, then a year and a half on: the words change with the clock, and still hold the dates.
    for (const step of [0, 7 * HOUR_MS, 548 * DAY_MS]) {
      clock.advance(step);
      const { latest, page } = await latestAndListed(sim, '@dated_channel_n60');
      expect(latest.result_count).toBe(15);
      const worded = new Map(page.results.map((item) => [item.videoId, item.publishedTimeText]));
      for (const video of latest.results) {
        const text = worded.get(video.videoId) ?? '';
        const interval = publishedInterval(text, clock.now());
        const day = video.published.slice(0, 10);
        expect(interval, `${video.videoId}: "${text}"`).toBeDefined();
        expect(interval!.from <= day && day <= interval!.to, `"${text}" holds ${day}`).toBe(true);
      }
    }
  });

  test('the same seed and clock give the same listings; another clock words the same dates otherwise', async () => {
    const clock = manualClock();
    sim = await startSimulator({ now: clock.now });
    const twin = await startSimulator({ now: clock.now });
    const later = await startSimulator({ now: () => clock.now() + 400 * DAY_MS });
    try {
      for (const running of [sim, twin, later]) running.admin.addUploads('@twin_channel_n30', 3);
      const query = { channel: '@twin_channel_n30' };
      const mine = await api(sim, 'channel/videos', query);
      expect((await api(twin, 'channel/videos', query)).text).toBe(mine.text);
      expect((await api(later, 'channel/videos', query)).text).not.toBe(mine.text);
      const dates = async (running: RunningSimulator) =>
        latestSchema.parse((await api(running, 'channel/latest', query)).json()).results.slice(3);
      // The catalog's own videos keep their dates whatever the clock; only the uploads are dated by it.
      expect(await dates(later)).toEqual(await dates(sim));
    } finally {
      await Promise.all([twin.close(), later.close()]);
    }
  });
});

describe('uploads added while the simulator runs', () => {
  test("lead the channel and its uploads playlist, newest first, minutes or hours old, under the channel's name", async () => {
    const clock = manualClock();
    sim = await startSimulator({ now: clock.now });
    const channel = '@growing_channel_n40';
    const channelId = channelIdForHandle(channel);
    const before = describeChannel(channel).videoIds();
    sim.admin.addUploads(channel, 3);

    const { latest, page } = await latestAndListed(sim, channel);
    const uploads = page.results.slice(0, 3);
    expect(uploads.some((item) => before.includes(item.videoId))).toBe(false);
    expect(page.results.slice(3).map((item) => item.videoId)).toEqual(before);
    for (const item of uploads) expect(item.publishedTimeText).toMatch(/^\d+ (minute|hour)s? ago$/);

    const playlist = playlistPageSchema.parse(
      (await api(sim, 'playlist/videos', { playlist: `UU${channelId.slice(2)}` })).json(),
    );
    expect(playlist.playlist_info.num_videos).toBe('43');
    expect(playlist.results.map((item) => item.video_id)).toEqual(page.results.map((item) => item.videoId));
    expect(playlist.results.slice(0, 3).map((item) => item.published_time_text)).toEqual(
      uploads.map((item) => item.publishedTimeText),
    );

    // channel/latest dates them exactly: newest first, within hours of the clock, after every other.
    const times = latest.results.map((video) => Date.parse(video.published));
    expect(latest.results.slice(0, 3).map((video) => video.videoId)).toEqual(
      uploads.map((item) => item.videoId),
    );
    expect(times.slice(0, 3).every((time) => time <= clock.now() && clock.now() - time < DAY_MS)).toBe(true);
    expect(times[0]! > times[1]! && times[1]! > times[2]! && times[2]! > Math.max(...times.slice(3))).toBe(
      true,
    );

    // Their author is the channel, in the transcript's metadata and in channel/latest.
    const owner = latest.channel.title;
    expect(uploads.every((item) => item.channelTitle === owner && item.channelId === channelId)).toBe(true);
    for (const video of latest.results.slice(0, 3)) {
      expect(video.description).toContain(`Published by ${owner}.`);
      const reply = await api(sim, 'transcript', { video_url: video.videoId, send_metadata: 'true' });
      if (reply.status === 404) continue; // no captions: a seeded 5% of videos
      expect(transcriptSchema.parse(reply.json()).metadata?.author_name).toBe(owner);
    }

    // Described as served, without a request: the admin's describers know the uploads.
    expect(sim.admin.describeChannel(channel).videoIds()).toEqual(page.results.map((item) => item.videoId));
    expect(sim.admin.describeVideo(uploads[0]!.videoId)).toMatchObject({
      authorChannelId: channelId,
      published: latest.results[0]!.published,
    });
  });

  test('a later batch comes after the earlier one, and still ages with the clock', async () => {
    const clock = manualClock();
    sim = await startSimulator({ now: clock.now });
    const channel = '@batches_channel_n10';
    sim.admin.addUploads(channel, 2);
    clock.advance(3 * DAY_MS);
    sim.admin.addUploads(channel, 2);
    const { latest, page } = await latestAndListed(sim, channel);
    const times = latest.results.slice(0, 4).map((video) => Date.parse(video.published));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(
      page.results.slice(0, 2).every((item) => /(minute|hour)s? ago$/.test(item.publishedTimeText)),
    ).toBe(true);
    expect(page.results.slice(2, 4).map((item) => item.publishedTimeText)).toEqual([
      '3 days ago',
      '3 days ago',
    ]);
  });
});
