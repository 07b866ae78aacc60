import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/core/api';
import { Engine } from '../../../src/core/engine';
import { openDatabase } from '../../../src/core/store';
import { videoPage } from '../../../src/core/store/queries/video-pages';
import { describeChannel, describePlaylist } from '../../../src/simulator';
import { startHostileService } from '../../support/hostile-service';
import { FastClock, startHarness, spec, tempDir, type Harness } from './helpers';
import { exportRowsOf, membershipRowsOf } from '../../../src/core/store/queries/export-rows';
import { changesOf } from '../../../src/core/store/queries/changes';
import { jobHistory } from '../../../src/core/store/queries/job-history';

let h: Harness;

const CHANNEL = '@synced_channel_n30';

function transcriptCharges(): number {
  return h.sim.admin.ledger().filter((charge) => charge.endpoint === 'transcript').length;
}

describe('bringing a finished job up to date', () => {
  afterEach(() => h.close());

  it('buys only the videos a channel gained, which lead its list, and says what it found', async () => {
    h = await startHarness({ credits: 10_000 });
    const { job } = h.engine.findOrCreateJob(spec([CHANNEL]));
    expect((await h.engine.run(job.id)).status).toBe('completed');
    const before = h.sim.admin.ledger().length;
    const transcriptsBefore = transcriptCharges();

    h.sim.admin.addUploads(CHANNEL, 4);
    const synced = await h.engine.sync(job.id);

    expect(synced).toMatchObject({ outcome: { status: 'completed' }, newVideos: 4, pages: 1 });
    expect(synced.credits).toBe(h.sim.admin.ledger().length - before);
    // One page, and a transcript for each new video that has captions: nothing bought again.
    expect(transcriptCharges() - transcriptsBefore).toBe(synced.credits - 1);
    for (const charge of h.sim.admin.ledger()) {
      if (charge.videoId !== undefined) expect(h.sim.admin.chargesFor(charge.videoId)).toBe(1);
    }
    const rows = [...exportRowsOf(h.db, job.id)];
    expect(rows).toHaveLength(34);
    // By corpus number, which never changes: the first thirty keep 1-30 and the new ones follow. Their
    // current positions are the channel's order now (the four new ones first), while each keeps the
    // position the channel gave when it first listed it, which its records carry.
    const all = describeChannel(CHANNEL).videoIds();
    expect(rows.map((row) => row.number)).toEqual(Array.from({ length: 34 }, (_, i) => i + 1));
    expect(new Set(rows.slice(0, 30).map((row) => row.videoId))).toEqual(new Set(all));
    expect(rows.slice(30).map((row) => row.latestPosition)).toEqual([1, 2, 3, 4]);
    expect(rows.slice(0, 30).map((row) => row.latestPosition)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 5),
    );
    expect(rows.slice(30).map((row) => row.position)).toEqual([1, 2, 3, 4]);
    expect(rows.slice(0, 30).map((row) => row.position)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    // The window's video table shows where the channel puts each video now.
    const table = videoPage(h.db, job.id, { offset: 0, limit: 50, status: 'all', search: '', source: null });
    expect(table.rows.map((row) => row.position)).toEqual(rows.map((row) => row.latestPosition));
    const history = jobHistory(h.db, job.id);
    expect(history.syncs).toEqual([{ at: expect.any(String), newVideos: 4, credits: synced.credits }]);
    // Versions are released by exports (tests/cli/versions.test.ts): none was, so nothing is released
    // and every video belongs to what the first export will release.
    expect(history.versions).toEqual([]);
    expect([...changesOf(h.db, job.id, 2)]).toEqual([]);
  });

  it('with nothing new, asks only the free latest videos of a channel and buys nothing', async () => {
    h = await startHarness({ credits: 10_000 });
    const { job } = h.engine.findOrCreateJob(spec([CHANNEL]));
    await h.engine.run(job.id);
    const requestsBefore = h.sim.admin.requests().length;
    const before = h.sim.admin.ledger().length;

    expect(await h.engine.sync(job.id)).toMatchObject({ newVideos: 0, pages: 0, credits: 0 });
    expect(h.sim.admin.ledger()).toHaveLength(before);
    const asked = h.sim.admin
      .requests()
      .slice(requestsBefore)
      .map((request) => request.path);
    expect(asked).toEqual(['/api/v2/channel/latest']);
  });

  it('walks a playlist again and buys no transcript it holds', async () => {
    h = await startHarness({ credits: 10_000 });
    const { job } = h.engine.findOrCreateJob(spec(['PLsyncedPlaylistList_n150']));
    await h.engine.run(job.id);
    const transcriptsBefore = transcriptCharges();
    const synced = await h.engine.sync(job.id);
    expect(synced).toMatchObject({ newVideos: 0, pages: 2, credits: 2 });
    expect(transcriptCharges()).toBe(transcriptsBefore);
    expect([...exportRowsOf(h.db, job.id)].map((row) => row.videoId)).toEqual(
      describePlaylist('PLsyncedPlaylistList_n150').videoIds(),
    );
  });

  it("read in part, places the videos past the pages it read as far down as the uploads pushed them, with that read's time", async () => {
    const LONG = '@partially_read_channel_n250';
    h = await startHarness({ credits: 10_000 });
    const { job } = h.engine.findOrCreateJob(spec([LONG]));
    expect((await h.engine.run(job.id)).status).toBe('completed');
    h.clock.time += 86_400_000;
    const syncRead = new Date(h.clock.time).toISOString();
    h.sim.admin.addUploads(LONG, 3);

    const synced = await h.engine.sync(job.id);
    // Page 1 brings the uploads; page 2, nothing new: the sync stops there, before the channel's last page.
    expect(synced).toMatchObject({ newVideos: 3, pages: 2 });
    const memberships = [...membershipRowsOf(h.db, job.id)];
    expect(memberships.map((row) => row.position).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 253 }, (_, i) => i + 1),
    );
    // Every position, read on those two pages or placed after them, comes from the sync's read: those
    // past page 2 with the time of page 2, which told how far the uploads pushed them.
    const channel = describeChannel(LONG).videoIds();
    const listedAt = new Map(memberships.map((row) => [row.videoId, row.listedAt!]));
    for (const time of listedAt.values()) expect(time >= syncRead).toBe(true);
    const lastPageRead = listedAt.get(channel[196]!);
    for (const id of channel.slice(197)) expect(listedAt.get(id)).toBe(lastPageRead);
    const rows = [...exportRowsOf(h.db, job.id)];
    for (const row of rows.slice(0, 250)) {
      expect(row.latestPosition).toBe(channel.indexOf(row.videoId) + 4);
      expect(row.latestListedAt).toBe(listedAt.get(row.videoId));
      // The records keep the place and time of the read that first numbered the video.
      expect(row.position).toBe(channel.indexOf(row.videoId) + 1);
      expect(row.listedAt! < syncRead).toBe(true);
    }
    const table = videoPage(h.db, job.id, { offset: 0, limit: 300, status: 'all', search: '', source: null });
    expect(table.rows.map((row) => row.position)).toEqual(rows.map((row) => row.latestPosition));
  });

  it('is refused for a job that has not finished, with nothing sent', async () => {
    h = await startHarness({ credits: 10_000 });
    const { job } = h.engine.findOrCreateJob(spec([CHANNEL]));
    await expect(h.engine.sync(job.id)).rejects.toThrow(/has not finished/);
    expect(h.sim.admin.requests()).toEqual([]);
  });
});

describe('a playlist read again whole', () => {
  it('that no longer holds a video leaves it without a position, in the window too; the rest as read now', async () => {
    const item = (id: string, index: number) => ({ type: 'video', index, video_id: id, title: `Talk ${id}` });
    const ids = ['wholeRead01', 'wholeRead02', 'wholeRead03'];
    const listItems: unknown[] = ids.map((id, i) => item(id, i + 1));
    const service = await startHostileService('scripted', { listItems });
    const temp = tempDir();
    const db = openDatabase(join(temp.dir, 'scriptorium.db'));
    const clock = new FastClock();
    const client = createClient({
      baseUrl: service.url,
      apiKey: 'sk_whole_read',
      userAgent: 'Scriptorium/test',
      clock,
    });
    try {
      const engine = new Engine({ db, client, clock });
      const { job } = engine.findOrCreateJob(spec(['PLwholeReadAgain0001']));
      expect((await engine.run(job.id)).status).toBe('completed');
      // The first video leaves the playlist; the others move up.
      listItems.splice(0, listItems.length, item(ids[1]!, 1), item(ids[2]!, 2));
      expect(await engine.sync(job.id)).toMatchObject({ newVideos: 0 });

      const table = videoPage(db, job.id, { offset: 0, limit: 10, status: 'all', search: '', source: null });
      expect(table.rows.map((row) => [row.videoId, row.position])).toEqual([
        [ids[0], null],
        [ids[1], 1],
        [ids[2], 2],
      ]);
      expect([...membershipRowsOf(db, job.id)].map((row) => row.position)).toEqual([null, 1, 2]);
    } finally {
      await client.close();
      await service.close();
      db.close();
      temp.remove();
    }
  });
});
