import { afterEach, describe, expect, it } from 'vitest';
import { channelIdForHandle, describePlaylist } from '../../../src/simulator';
import { sourcesOfJob } from '../../../src/core/store/sources';
import { startHarness, spec, type Harness } from './helpers';
import { exportRowsOf } from '../../../src/core/store/queries/export-rows';

let h: Harness;
afterEach(async () => h.close());

function charges(endpoint: string): number {
  return h.sim.admin.ledger().filter((charge) => charge.endpoint === endpoint).length;
}

describe('walking list sources', () => {
  it('walks a 250-video playlist in 3 paid pages and fetches every video once', async () => {
    h = await startHarness({ credits: 1000 });
    const { job } = h.engine.findOrCreateJob(spec(['PLwalking_n250']));
    const outcome = await h.engine.run(job.id, { concurrency: 8 });

    expect(outcome).toEqual({ status: 'completed', failed: 0, failedSources: 0 });
    const summary = h.engine.job(job.id)!;
    expect(summary.counts.total).toBe(250);
    expect(summary.counts.ok + summary.counts.unavailable).toBe(250);
    expect(summary.walks[0]).toMatchObject({ walkStatus: 'done', pages: 3, videosFound: 250 });
    expect(charges('playlist/videos')).toBe(3);
    expect(charges('transcript')).toBe(summary.counts.ok);
    expect(summary.creditsSpent).toBe(3 + summary.counts.ok);
    expect(h.sim.admin.ledger().length).toBe(summary.creditsSpent);
    const expectedIds = describePlaylist('PLwalking_n250').videoIds();
    expect([...exportRowsOf(h.db, job.id)].map((row) => row.videoId)).toEqual(expectedIds);
  });

  it('resolves an @handle for free and walks the channel page by page', async () => {
    h = await startHarness({ credits: 1000 });
    const { job } = h.engine.findOrCreateJob(spec(['@walker_n120'], { includeTimestamp: false }));
    const outcome = await h.engine.run(job.id, { concurrency: 8 });

    expect(outcome.status).toBe('completed');
    const summary = h.engine.job(job.id)!;
    expect(summary.walks[0]).toMatchObject({
      resolvedChannelId: channelIdForHandle('@walker_n120'),
      pages: 2,
      videosFound: 120,
    });
    expect(summary.counts.total).toBe(120);
    const resolves = h.sim.admin.requests().filter((r) => r.path.endsWith('/channel/resolve'));
    expect(resolves).toHaveLength(1);
    expect(resolves[0]!.charged).toBe(false);
    expect(charges('channel/videos')).toBe(2);
    expect(summary.creditsSpent).toBe(2 + summary.counts.ok);
  });

  it('stops walking when has_more is false', async () => {
    h = await startHarness({ credits: 1000 });
    const { job } = h.engine.findOrCreateJob(spec(['PLshort_n150']));
    await h.engine.run(job.id);
    const pageRequests = h.sim.admin.requests().filter((r) => r.path.endsWith('/playlist/videos'));
    expect(pageRequests).toHaveLength(2);
    expect(h.engine.job(job.id)!.counts.total).toBe(150);
  });

  it('takes at most maxVideos from each list source and buys no page beyond them', async () => {
    h = await startHarness({ credits: 1000 });
    const { job } = h.engine.findOrCreateJob(spec(['PLcap_n250', 'search:cooking pasta'], { maxVideos: 7 }));
    await h.engine.run(job.id);

    const walks = h.engine.job(job.id)!.walks;
    expect(walks.map((w) => [w.pages, w.videosFound])).toEqual([
      [1, 7],
      [1, 7],
    ]);
    expect(h.engine.job(job.id)!.counts.total).toBeLessThanOrEqual(14);
    const search = h.sim.admin.requests().filter((r) => r.path.endsWith('/search'));
    expect(search).toHaveLength(1);
    expect(search[0]!.query).toMatchObject({ q: 'cooking pasta', limit: '7' });
    expect(charges('playlist/videos')).toBe(1);
  });

  it('marks a missing playlist unavailable and goes on with the other sources', async () => {
    h = await startHarness({ credits: 1000 });
    const { job } = h.engine.findOrCreateJob(spec(['PLmissing_n5', 'PLfine_n3']));
    const outcome = await h.engine.run(job.id);

    expect(outcome.status).toBe('completed');
    const summary = h.engine.job(job.id)!;
    expect(summary.walks.map((w) => w.walkStatus)).toEqual(['unavailable', 'done']);
    expect(summary.walks[0]!.error).toBeTruthy();
    expect(summary.counts.total).toBe(3);
  });

  it('resumes a walk stopped by a 402 from its stored cursor without buying a page twice', async () => {
    // One credit: the first page is bought, then everything else meets a 402.
    h = await startHarness({ credits: 1 });
    const { job } = h.engine.findOrCreateJob(spec(['PLresume_n150']));
    const first = await h.engine.run(job.id);

    expect(first).toMatchObject({ status: 'waiting_credits', code: 'E_FREE_GRANT_DEPLETED' });
    const [source] = sourcesOfJob(h.db, job.id);
    expect(source).toMatchObject({ walkStatus: 'pending', pages: 1, videosFound: 100 });
    expect(source!.cursor).toBeTruthy();

    h.sim.admin.topUp(1000);
    const second = await h.engine.run(job.id);
    expect(second.status).toBe('completed');
    expect(charges('playlist/videos')).toBe(2);
    const pageRequests = h.sim.admin.requests().filter((r) => r.path.endsWith('/playlist/videos'));
    expect(pageRequests.filter((r) => r.query.playlist !== undefined && r.status === 200)).toHaveLength(1);
    expect(
      pageRequests.filter((r) => r.query.continuation === source!.cursor && r.status === 200),
    ).toHaveLength(1);
    expect(h.engine.job(job.id)!.counts.total).toBe(150);
    for (const videoId of describePlaylist('PLresume_n150').videoIds()) {
      expect(h.sim.admin.chargesFor(videoId)).toBeLessThanOrEqual(1);
    }
  });
});

describe('previewing a job', () => {
  it('walks its lists and buys no transcript; the job stays a draft, and running it buys no page again', async () => {
    h = await startHarness({ credits: 1000 });
    const { job } = h.engine.findOrCreateJob(spec(['PLpreviewedList_n250', 'dQw4w9WgXcQ']));
    const outcome = await h.engine.preview(job.id);

    expect(outcome).toEqual({ status: 'walked', estimate: { pages: 0, transcripts: 251, exact: true } });
    expect(h.engine.job(job.id)).toMatchObject({ status: 'draft', counts: { total: 251, pending: 251 } });
    expect(charges('playlist/videos')).toBe(3);
    expect(charges('transcript')).toBe(0);

    expect((await h.engine.run(job.id)).status).toBe('completed');
    expect(charges('playlist/videos')).toBe(3);
  });
});
