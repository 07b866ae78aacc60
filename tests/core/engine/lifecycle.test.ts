import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvents } from '../../../src/core/engine';
import { describePlaylist } from '../../../src/simulator';
import { startHarness, spec, type Harness } from './helpers';
import { exportRowsOf } from '../../../src/core/store/queries/export-rows';

let h: Harness;
afterEach(async () => h.close());

function transcriptRequests(videoId?: string): number {
  return h.sim.admin
    .requests()
    .filter((r) => r.path.endsWith('/transcript') && (videoId === undefined || r.query.video_url === videoId))
    .length;
}

/** Resolves once the service has received four transcript requests (a job's default concurrency). */
function fourTranscriptsAtTheService(): Promise<void> {
  return vi.waitFor(() => expect(transcriptRequests()).toBe(4), { timeout: 15_000, interval: 5 });
}

describe('jobs', () => {
  it('finds the same job for the same identity; budget and concurrency are not part of it', async () => {
    h = await startHarness();
    const first = h.engine.findOrCreateJob(spec(['PLidentity_n3', 'search:cats'], { langs: ['es', 'orig'] }));
    const again = h.engine.findOrCreateJob(spec(['PLidentity_n3', 'search:cats'], { langs: ['es', 'orig'] }));
    const otherLangs = h.engine.findOrCreateJob(
      spec(['PLidentity_n3', 'search:cats'], { langs: ['orig', 'es'] }),
    );
    const otherFlags = h.engine.findOrCreateJob(
      spec(['PLidentity_n3', 'search:cats'], { langs: ['es', 'orig'], sendMetadata: false }),
    );
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, job: { id: first.job.id } });
    expect(new Set([first.job.id, otherLangs.job.id, otherFlags.job.id]).size).toBe(3);
    expect(h.engine.listJobs().map((job) => job.id)).toEqual([
      first.job.id,
      otherLangs.job.id,
      otherFlags.job.id,
    ]);
    expect(first.job).toMatchObject({
      status: 'draft',
      options: { langs: ['es', 'orig'], includeTimestamp: true, sendMetadata: true },
      sources: [
        { kind: 'playlist', id: 'PLidentity_n3' },
        { kind: 'search', id: 'cats' },
      ],
    });
  });

  it('estimates pages and transcripts before a run, exactly once the walk is done', async () => {
    h = await startHarness({ credits: 100 });
    const { job } = h.engine.findOrCreateJob(spec(['PLestimate_n5', 'dQw4w9WgXcQ', 'jNQXAC9IVRw']));
    expect(h.engine.estimate(job.id)).toEqual({ pages: 1, transcripts: 2, exact: false });
    await h.engine.run(job.id);
    expect(h.engine.estimate(job.id)).toEqual({ pages: 0, transcripts: 0, exact: true });
  });

  it('leaves a completed job completed when its process closes while the run prepares what it stored', async () => {
    h = await startHarness({ credits: 100 });
    const { job } = h.engine.findOrCreateJob(spec(['PLclosingWhilePreparing_n5']));
    // The process closes as the run's transcripts are being prepared, after its work is done.
    const { preparation } = h.engine;
    const drain = preparation.drain.bind(preparation);
    let closing: Promise<void> | undefined;
    preparation.drain = () => {
      closing = h.engine.shutdown();
      return drain();
    };
    expect((await h.engine.run(job.id)).status).toBe('completed');
    await closing;
    expect(closing).toBeDefined();
    expect(h.engine.job(job.id)?.status).toBe('completed');
  });

  it('a finished job runs again without a single request and keeps its finish time', async () => {
    h = await startHarness({ credits: 100 });
    const { job } = h.engine.findOrCreateJob(spec(['PLfinished_n3']));
    const first = await h.engine.run(job.id);
    const finishedAt = h.engine.job(job.id)!.finishedAt;
    const requests = h.sim.admin.requests().length;
    h.clock.time += 60_000;

    expect(await h.engine.run(job.id)).toEqual(first);
    expect(h.sim.admin.requests()).toHaveLength(requests);
    expect(h.engine.job(job.id)!.finishedAt).toBe(finishedAt);
  });

  it('streams export rows by corpus number: the order in which the job first had them', async () => {
    h = await startHarness({ credits: 100 });
    const { job } = h.engine.findOrCreateJob(spec(['PLfirstlist_n3', 'dQw4w9WgXcQ', 'PLsecondlist_n2']));
    await h.engine.run(job.id);
    const rows = [...exportRowsOf(h.db, job.id)];
    // The single video is known when the job is made, so it is number 1; the lists follow as walked.
    expect(rows.map((row) => [row.sourceInput, row.position, row.videoId])).toEqual([
      ['dQw4w9WgXcQ', 1, 'dQw4w9WgXcQ'],
      ...describePlaylist('PLfirstlist_n3')
        .videoIds()
        .map((id, i) => ['PLfirstlist_n3', i + 1, id]),
      ...describePlaylist('PLsecondlist_n2')
        .videoIds()
        .map((id, i) => ['PLsecondlist_n2', i + 1, id]),
    ]);
    expect(rows.map((row) => row.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.every((row) => (row.status === 'ok') === (row.transcript !== null))).toBe(true);
  });
});

describe('budget, abort, pause, cancel', () => {
  it('spends exactly the budget, pauses, and finishes with a larger one', async () => {
    h = await startHarness({ credits: 1000 });
    const { job } = h.engine.findOrCreateJob(spec(['PLbudget_n20']));
    const paused = await h.engine.run(job.id, { budget: 6, concurrency: 4 });

    expect(paused).toEqual({ status: 'paused', reason: 'budget' });
    expect(h.engine.job(job.id)).toMatchObject({
      status: 'paused',
      stopReason: 'budget',
      budget: 6,
      creditsSpent: 6,
    });
    expect(h.sim.admin.ledger()).toHaveLength(6);

    const done = await h.engine.run(job.id, { budget: 100 });
    expect(done.status).toBe('completed');
    const summary = h.engine.job(job.id)!;
    expect(summary.creditsSpent).toBe(1 + summary.counts.ok);
    expect(h.sim.admin.ledger()).toHaveLength(summary.creditsSpent);
  });

  it('a budget already spent starts nothing', async () => {
    h = await startHarness({ credits: 1000 });
    const { job } = h.engine.findOrCreateJob(spec(['PLnothing_n5']));
    expect(await h.engine.run(job.id, { budget: 0 })).toEqual({ status: 'paused', reason: 'budget' });
    expect(h.sim.admin.requests()).toHaveLength(0);
  });

  it('leaves checkpoints to their thread while it runs (its connection keeps only the backstop), and gives them back after', async () => {
    h = await startHarness();
    const { job } = h.engine.findOrCreateJob(spec(['PLcheckpoints_n5']));
    const during = new Set<unknown>();
    h.engine.on('item', () => during.add(h.db.pragma('wal_autocheckpoint', { simple: true })));
    expect((await h.engine.run(job.id)).status).toBe('completed');
    expect(during).toEqual(new Set([10_000]));
    expect(h.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
  });

  it('an interrupt sends nothing new, lets the requests in flight finish and records them, so none is bought twice', async () => {
    h = await startHarness({ credits: 1000 });
    const { job } = h.engine.findOrCreateJob(spec(['PLinterrupting_n12']));
    const controller = new AbortController();
    let release: (() => void) | undefined;
    h.engine.on('item', ({ status }) => {
      // 'fetching' comes just before the request leaves, so its answer is held.
      if (status === 'fetching') release ??= h.sim.admin.holdAnswers();
    });
    const running = h.engine.run(job.id, { signal: controller.signal });
    await fourTranscriptsAtTheService();
    controller.abort();
    release?.();
    const outcome = await running;

    expect(outcome).toEqual({ status: 'paused', reason: 'interrupted' });
    const stopped = h.engine.job(job.id)!;
    expect(stopped).toMatchObject({ status: 'paused', stopReason: 'interrupted' });
    // The four in flight were answered, paid for and kept; nothing was sent after the interrupt.
    expect(stopped.counts.ok + stopped.counts.unavailable).toBe(4);
    expect(h.sim.admin.requests().filter((r) => r.path.endsWith('/transcript'))).toHaveLength(4);

    expect((await h.engine.run(job.id)).status).toBe('completed');
    for (const id of describePlaylist('PLinterrupting_n12').videoIds()) {
      expect(h.sim.admin.chargesFor(id)).toBeLessThanOrEqual(1);
    }
  });

  it('a forced stop cuts the requests in flight at once and counts them as possibly charged, never resent silently', async () => {
    h = await startHarness({ credits: 1000 });
    const { job } = h.engine.findOrCreateJob(spec(['PLforcing_n6']));
    const interrupt = new AbortController();
    const force = new AbortController();
    h.engine.on('item', ({ status }) => {
      // Held until the end of the test: a run that waited for these answers would never end.
      if (status === 'fetching') h.sim.admin.holdAnswers();
    });
    const running = h.engine.run(job.id, { signal: interrupt.signal, force: force.signal });
    await fourTranscriptsAtTheService();
    interrupt.abort();
    force.abort();
    const outcome = await running;
    expect(outcome).toEqual({ status: 'paused', reason: 'interrupted' });
    const stopped = h.engine.job(job.id)!;
    expect(stopped.counts.failed).toBe(4);
    expect(stopped.creditsPossible).toBe(4);
    expect(h.ledger.status().possible).toBe(4);
    const rows = [...exportRowsOf(h.db, job.id)].filter((row) => row.status === 'failed');
    expect(rows.every((row) => /may have been charged/.test(row.message ?? ''))).toBe(true);
  });

  it('a signal aborted before the run starts sends nothing', async () => {
    h = await startHarness();
    const { job } = h.engine.findOrCreateJob(spec(['PLearly_n5']));
    const outcome = await h.engine.run(job.id, { signal: AbortSignal.abort() });
    expect(outcome).toEqual({ status: 'paused', reason: 'interrupted' });
    expect(h.sim.admin.requests()).toHaveLength(0);
  });

  it('pause while running lets requests in flight finish, so nothing is bought twice', async () => {
    h = await startHarness({ credits: 1000 });
    const { job } = h.engine.findOrCreateJob(spec(['PLpausing_n10']));
    const stop = h.engine.on('item', ({ status }) => {
      if (status === 'ok') h.engine.pause(job.id);
    });
    expect(await h.engine.run(job.id)).toEqual({ status: 'paused', reason: 'user' });
    stop();
    expect(h.engine.job(job.id)).toMatchObject({ status: 'paused', stopReason: 'user' });

    h.engine.resume(job.id);
    expect(h.engine.job(job.id)).toMatchObject({ status: 'queued', stopReason: null });
    expect((await h.engine.run(job.id)).status).toBe('completed');
    for (const id of describePlaylist('PLpausing_n10').videoIds()) {
      expect(h.sim.admin.chargesFor(id)).toBeLessThanOrEqual(1);
    }
  });

  it('cancel while running stops the job for good; asked for again, its sources make a new job that buys no transcript twice', async () => {
    h = await startHarness({ credits: 1000 });
    const jobSpec = spec(['PLcancel_n10']);
    const { job } = h.engine.findOrCreateJob(jobSpec);
    h.engine.on('page', () => h.engine.cancel(job.id));
    expect(await h.engine.run(job.id)).toEqual({ status: 'cancelled' });
    expect(h.engine.job(job.id)!.status).toBe('cancelled');
    const requests = h.sim.admin.requests().length;
    expect(await h.engine.run(job.id)).toEqual({ status: 'cancelled' });
    expect(h.sim.admin.requests()).toHaveLength(requests);

    expect(h.engine.findJob(jobSpec)).toBeUndefined();
    const again = h.engine.findOrCreateJob(jobSpec);
    expect(again).toMatchObject({ created: true, job: { status: 'draft' } });
    expect(again.job.id).not.toBe(job.id);
    expect(h.engine.job(job.id)!.status).toBe('cancelled');
    expect((await h.engine.run(again.job.id)).status).toBe('completed');
    for (const id of describePlaylist('PLcancel_n10').videoIds())
      expect(h.sim.admin.chargesFor(id)).toBeLessThanOrEqual(1);
  });

  it('refuses to delete a running job; a deleted job keeps its spending', async () => {
    h = await startHarness({ credits: 1000 });
    const { job } = h.engine.findOrCreateJob(spec(['PLdeleted_n3']));
    const running = h.engine.run(job.id);
    expect(() => h.engine.deleteJob(job.id)).toThrow(/running/);
    await running;
    const spent = h.engine.job(job.id)!.creditsSpent;

    h.engine.deleteJob(job.id);
    expect(h.engine.job(job.id)).toBeUndefined();
    expect(h.ledger.status()).toMatchObject({ total: spent, today: spent, byJob: {} });
  });
});

describe('crash recovery', () => {
  it('recover() requeues what a dead process left running, and no stored transcript is bought again', async () => {
    h = await startHarness({ credits: 1000 });
    const ids = ['dQw4w9WgXcQ', 'jNQXAC9IVRw', '9bZkp7q19f0'];
    const { job } = h.engine.findOrCreateJob(spec(ids));
    await h.engine.run(job.id);
    expect(transcriptRequests()).toBe(3);

    // As if the process died mid-run: one item stored but its row not yet updated, one in flight.
    h.db.prepare("UPDATE jobs SET status = 'running', finished_at = NULL").run();
    h.db.prepare("UPDATE items SET status = 'fetching', transcript_id = NULL WHERE video_id = ?").run(ids[0]);
    h.db.prepare("UPDATE items SET status = 'fetching' WHERE video_id = ?").run(ids[1]);

    const restarted = h.makeEngine();
    restarted.recover();
    expect(restarted.job(job.id)).toMatchObject({ status: 'queued', counts: { pending: 2, ok: 1 } });
    expect(await restarted.run(job.id)).toMatchObject({ status: 'completed' });
    expect(restarted.job(job.id)!.counts.ok).toBe(3);
    expect(transcriptRequests()).toBe(3);
    for (const id of ids) expect(h.sim.admin.chargesFor(id)).toBe(1);
  });
});

describe('credits and events', () => {
  it('counts credits by job and day, and estimates the balance left', async () => {
    h = await startHarness({ credits: 1000 });
    h.ledger.setBalance(50);
    const credits: Array<EngineEvents['credit']> = [];
    h.engine.on('credit', (event) => credits.push(event));
    const { job } = h.engine.findOrCreateJob(spec(['PLcounting_n6']));
    await h.engine.run(job.id);

    const spent = h.engine.job(job.id)!.creditsSpent;
    expect(credits).toHaveLength(spent);
    expect(credits.filter((c) => c.endpoint === 'playlist/videos')).toHaveLength(1);
    expect(h.ledger.status()).toEqual({
      byJob: { [job.id]: spent },
      today: spent,
      total: spent,
      possible: 0,
      balance: 50,
      estimatedRemaining: 50 - spent,
    });
    h.clock.time += 24 * 3600 * 1000;
    expect(h.ledger.status().today).toBe(0);
    h.ledger.setBalance(null);
    expect(h.ledger.status().balance).toBeUndefined();
  });

  it('emits at most ten snapshots per second of clock time, and a final one', async () => {
    h = await startHarness({ credits: 1000 });
    const snapshots: Array<{ at: number; snapshot: EngineEvents['snapshot'] }> = [];
    h.engine.on('snapshot', (snapshot) => snapshots.push({ at: h.clock.now(), snapshot }));
    const { job } = h.engine.findOrCreateJob(spec(['PLsnapshots_n40']));
    await h.engine.run(job.id, { concurrency: 8 });

    expect(snapshots.length).toBeGreaterThan(2);
    // The final snapshot may follow the last throttled one at once; all others keep the pace.
    const throttled = snapshots.slice(0, -1);
    for (let i = 0; i + 10 < throttled.length; i++) {
      expect(throttled[i + 10]!.at - throttled[i]!.at).toBeGreaterThanOrEqual(1000);
    }
    const last = snapshots.at(-1)!.snapshot;
    const summary = h.engine.job(job.id)!;
    expect(last).toMatchObject({
      jobId: job.id,
      status: 'completed',
      counts: summary.counts,
      sourcesWalked: 1,
      sourcesTotal: 1,
      creditsSpent: summary.creditsSpent,
    });
    expect(last.counts.pending).toBe(0);
  });
});

describe('pacing', () => {
  it('waits for the pacer before every request', async () => {
    h = await startHarness({ credits: 1000 });
    let waits = 0;
    const engine = h.makeEngine();
    const { job } = engine.findOrCreateJob(spec(['@pacing_n5', 'dQw4w9WgXcQ']));
    await engine.run(job.id, {
      pacer: {
        wait: async () => {
          waits++;
        },
      },
    });
    expect(waits).toBe(h.sim.admin.requests().length);
    expect(waits).toBeGreaterThanOrEqual(8); // resolve, page, six transcripts
  });
});
