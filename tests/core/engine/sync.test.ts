import { afterEach, describe, expect, it } from 'vitest';
import { videoPage } from '../../../src/core/store/video-pages';
import { describeChannel, describePlaylist } from '../../../src/simulator';
import { startHarness, spec, type Harness } from './helpers';

let h: Harness;
afterEach(() => h.close());

const CHANNEL = '@synced_channel_n30';

function transcriptCharges(): number {
  return h.sim.admin.ledger().filter((charge) => charge.endpoint === 'transcript').length;
}

describe('bringing a finished job up to date', () => {
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
    const rows = [...h.engine.exportRows(job.id)];
    expect(rows).toHaveLength(34);
    // By corpus number, which never changes: the first thirty keep 1-30 and the new ones follow. Their
    // current positions are the channel's order now (the four new ones first), while each keeps the
    // position the channel gave when it first listed it, which its records carry.
    const all = describeChannel(CHANNEL).videoIds();
    expect(rows.map((row) => row.number)).toEqual(Array.from({ length: 34 }, (_, i) => i + 1));
    expect(new Set(rows.slice(0, 30).map((row) => row.videoId))).toEqual(new Set(all));
    expect(rows.slice(30).map((row) => row.currentPosition)).toEqual([1, 2, 3, 4]);
    expect(rows.slice(0, 30).map((row) => row.currentPosition)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 5),
    );
    expect(rows.slice(30).map((row) => row.position)).toEqual([1, 2, 3, 4]);
    expect(rows.slice(0, 30).map((row) => row.position)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    // The window's video table shows where the channel puts each video now.
    const table = videoPage(h.db, job.id, { offset: 0, limit: 50, status: 'all', search: '', source: null });
    expect(table.rows.map((row) => row.position)).toEqual(rows.map((row) => row.currentPosition));
    const history = h.engine.history(job.id);
    expect(history.syncs).toEqual([{ at: expect.any(String), newVideos: 4, credits: synced.credits }]);
    // Versions are released by exports (tests/cli/versions.test.ts): none was, so nothing is released
    // and every video belongs to what the first export will release.
    expect(history.versions).toEqual([]);
    expect([...h.engine.exportChanges(job.id, 2)]).toEqual([]);
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
    expect([...h.engine.exportRows(job.id)].map((row) => row.videoId)).toEqual(
      describePlaylist('PLsyncedPlaylistList_n150').videoIds(),
    );
  });

  it('is refused for a job that has not finished, with nothing sent', async () => {
    h = await startHarness({ credits: 10_000 });
    const { job } = h.engine.findOrCreateJob(spec([CHANNEL]));
    await expect(h.engine.sync(job.id)).rejects.toThrow(/has not finished/);
    expect(h.sim.admin.requests()).toEqual([]);
  });
});
