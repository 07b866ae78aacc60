import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Engine, type RunOutcome } from '../../../src/core/engine';
import { LEASE_MS, RENEW_EVERY_MS } from '../../../src/core/engine/lease';
import { openDatabase, type Database } from '../../../src/core/store';
import { jobById } from '../../../src/core/store/jobs';
import { writeLease } from '../../../src/core/store/leases';
import { describePlaylist } from '../../../src/simulator';
import { startHarness, spec, type Harness } from './helpers';

let h: Harness;
let otherDb: Database | undefined;
afterEach(async () => {
  vi.useRealTimers();
  otherDb?.close();
  otherDb = undefined;
  await h.close();
});

const FIRST_OWNER = `${process.pid}-first-engine`;

const busy = (jobId: number): RunOutcome => ({
  status: 'busy',
  message: `Job ${jobId} is being run by another Scriptorium process; wait for it to finish or stop it first.`,
});

/** The engine of a second Scriptorium process: its own connection to the same database file. */
function otherProcessEngine(): Engine {
  otherDb = openDatabase(h.dbFile);
  return new Engine({ db: otherDb, client: h.makeClient(), clock: h.clock });
}

/** Resolves once the engine has a transcript request in flight. */
function midRun(engine: Engine): Promise<void> {
  return new Promise((resolve) => {
    const stop = engine.on('item', ({ status }) => {
      if (status === 'fetching') {
        stop();
        resolve();
      }
    });
  });
}

function fetchingItems(jobId: number): number {
  return h.db
    .prepare<[number], { n: number }>(
      "SELECT count(*) AS n FROM items WHERE job_id = ? AND status = 'fetching'",
    )
    .get(jobId)!.n;
}

/** A pid no process has: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid;
}

/** As if a process died mid-run: the job 'running' under its lease, one video stored but not recorded, one in flight. */
function leaveMidRun(jobId: number, videoIds: string[], owner: string, expiresAt: number): void {
  h.db.prepare("UPDATE jobs SET status = 'running', finished_at = NULL WHERE id = ?").run(jobId);
  h.db
    .prepare("UPDATE items SET status = 'fetching', transcript_id = NULL WHERE video_id = ?")
    .run(videoIds[0]);
  h.db.prepare("UPDATE items SET status = 'fetching' WHERE video_id = ?").run(videoIds[1]);
  writeLease(h.db, jobId, { owner, expiresAt });
}

describe('two processes on one database', () => {
  it('the second run of a job another process is running returns busy and leaves it running', async () => {
    h = await startHarness({ credits: 1000, latencyMs: 30 });
    const firstEngine = new Engine({ db: h.db, client: h.client, clock: h.clock, leaseOwner: FIRST_OWNER });
    const other = otherProcessEngine();
    const { job } = firstEngine.findOrCreateJob(spec(['PLleasedByFirst_n8']));
    const inFlight = midRun(firstEngine);
    const running = firstEngine.run(job.id);
    await inFlight;

    expect(await other.run(job.id)).toEqual(busy(job.id));
    expect(other.job(job.id)!.status).toBe('running');
    expect(jobById(h.db, job.id)!.lease).toMatchObject({ owner: FIRST_OWNER });
    expect(() => other.deleteJob(job.id)).toThrow(/running/);

    expect((await running).status).toBe('completed');
    for (const id of describePlaylist('PLleasedByFirst_n8').videoIds())
      expect(h.sim.admin.chargesFor(id)).toBeLessThanOrEqual(1);
    // Once the first is done, the job is free: the other process exports it without a request.
    const requests = h.sim.admin.requests().length;
    expect((await other.run(job.id)).status).toBe('completed');
    expect(h.sim.admin.requests()).toHaveLength(requests);
  });

  it("recover() at another process's start leaves the running job alone", async () => {
    h = await startHarness({ credits: 1000, latencyMs: 30 });
    const { job } = h.engine.findOrCreateJob(spec(['PLrecovering_n8']));
    const inFlight = midRun(h.engine);
    const running = h.engine.run(job.id);
    await inFlight;

    const other = otherProcessEngine();
    other.recover();
    expect(other.job(job.id)).toMatchObject({ status: 'running', runningIn: 'elsewhere' });

    expect((await running).status).toBe('completed');
    for (const id of describePlaylist('PLrecovering_n8').videoIds())
      expect(h.sim.admin.chargesFor(id)).toBeLessThanOrEqual(1);
  });

  it('a lease that has expired (its holder hung) is taken over, and nothing stored is bought again', async () => {
    h = await startHarness({ credits: 1000 });
    const ids = ['dQw4w9WgXcQ', 'jNQXAC9IVRw', '9bZkp7q19f0'];
    const { job } = h.engine.findOrCreateJob(spec(ids));
    await h.engine.run(job.id);
    // This very process stands for the hung holder: alive, so only the expiry frees its lease.
    leaveMidRun(job.id, ids, `${process.pid}-hung`, h.clock.now() + LEASE_MS);

    const engine = h.makeEngine();
    expect(await engine.run(job.id)).toEqual(busy(job.id));
    engine.recover();
    expect(fetchingItems(job.id)).toBe(2);

    h.clock.time += LEASE_MS;
    engine.recover();
    expect(engine.job(job.id)).toMatchObject({ status: 'queued', counts: { pending: 2, ok: 1 } });
    expect(jobById(h.db, job.id)!.lease).toBeNull();
    expect(await engine.run(job.id)).toMatchObject({ status: 'completed' });
    for (const id of ids) expect(h.sim.admin.chargesFor(id)).toBe(1);
  });

  it('a lease whose process is dead is taken over at once, long before it expires', async () => {
    h = await startHarness({ credits: 1000 });
    const ids = ['dQw4w9WgXcQ', 'jNQXAC9IVRw', '9bZkp7q19f0'];
    const { job } = h.engine.findOrCreateJob(spec(ids));
    await h.engine.run(job.id);
    leaveMidRun(job.id, ids, `${deadPid()}-killed`, h.clock.now() + LEASE_MS);

    const engine = h.makeEngine();
    expect(await engine.run(job.id)).toMatchObject({ status: 'completed' });
    expect(engine.job(job.id)!.counts).toMatchObject({ ok: 3, pending: 0 });
    expect(jobById(h.db, job.id)!.lease).toBeNull();
    for (const id of ids) expect(h.sim.admin.chargesFor(id)).toBe(1);
  });

  it('a long run renews its lease, so it does not lapse mid-run', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    h = await startHarness({ credits: 1000, latencyMs: 30 });
    const { job } = h.engine.findOrCreateJob(spec(['PLrenewed_n6']));
    const inFlight = midRun(h.engine);
    const running = h.engine.run(job.id);
    await inFlight;
    const takenUntil = jobById(h.db, job.id)!.lease!.expiresAt;

    h.clock.time += RENEW_EVERY_MS;
    vi.advanceTimersByTime(RENEW_EVERY_MS);
    expect(jobById(h.db, job.id)!.lease!.expiresAt).toBe(h.clock.now() + LEASE_MS);
    h.clock.time = takenUntil; // the first expiry has passed; the renewal holds
    expect(await otherProcessEngine().run(job.id)).toEqual(busy(job.id));

    expect((await running).status).toBe('completed');
  });
});

describe('the lease is released however the run ends', () => {
  const cases: Array<{
    name: string;
    sim: Parameters<typeof startHarness>[0];
    run: (jobId: number) => Promise<RunOutcome>;
    status: RunOutcome['status'];
  }> = [
    { name: 'completed', sim: { credits: 100 }, run: (id) => h.engine.run(id), status: 'completed' },
    {
      name: 'budget spent',
      sim: { credits: 100 },
      run: (id) => h.engine.run(id, { budget: 1 }),
      status: 'paused',
    },
    {
      name: 'interrupted',
      sim: { credits: 100 },
      run: (id) => h.engine.run(id, { signal: AbortSignal.abort() }),
      status: 'paused',
    },
    { name: 'out of credits', sim: { credits: 2 }, run: (id) => h.engine.run(id), status: 'waiting_credits' },
    { name: 'key refused', sim: { apiKey: 'sk_wrong_key' }, run: (id) => h.engine.run(id), status: 'failed' },
    {
      name: 'cancelled',
      sim: { credits: 100 },
      run: (id) => {
        h.engine.on('page', () => h.engine.cancel(id));
        return h.engine.run(id);
      },
      status: 'cancelled',
    },
  ];

  for (const { name, sim, run, status } of cases) {
    it(name, async () => {
      h = await startHarness(sim);
      const { job } = h.engine.findOrCreateJob(spec(['PLreleased_n5']));
      expect((await run(job.id)).status).toBe(status);
      expect(jobById(h.db, job.id)!.lease).toBeNull();
      // Another process may now take the job (a cancelled one is simply not run).
      expect((await otherProcessEngine().run(job.id)).status).not.toBe('busy');
    });
  }

  it('a run that throws releases its lease too', async () => {
    h = await startHarness({ credits: 100 });
    const { job } = h.engine.findOrCreateJob(spec(['PLthrowingList_n5']));
    const broken = {
      ...h.client,
      playlistVideos: () => Promise.reject(new TypeError('a bug in the client')),
    };
    await expect(h.engine.run(job.id, { client: broken })).rejects.toThrow('a bug in the client');
    expect(jobById(h.db, job.id)!.lease).toBeNull();
  });

  it('a listener that throws is logged, and neither fails nor holds up the run', async () => {
    h = await startHarness({ credits: 100 });
    const warnings: string[] = [];
    const engine = new Engine({
      db: h.db,
      client: h.client,
      clock: h.clock,
      logger: { warn: (message) => warnings.push(message) },
    });
    const { job } = engine.findOrCreateJob(spec(['PLlistenerThrows_n5']));
    engine.on('page', () => {
      throw new Error('listener failed');
    });
    expect((await engine.run(job.id)).status).toBe('completed');
    expect(warnings).toEqual([expect.stringMatching(/listener of the engine's page event failed/)]);
  });
});
