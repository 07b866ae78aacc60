import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { memoryKeyStore, openApp, type ScriptoriumApp } from '../../../src/core/app';
import type { EventPayload, JobDraft, JobView } from '../../../src/shared/contract';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { readZip, tempDir } from '../../support/cli';
import { TimerClock } from '../api/fake-clock';

// The desktop app's schedule (browser mode's too), against the real simulator and its uploads
// endpoint, on real SQLite: time moves only when the test moves the app's clock.

const HOUR_MS = 60 * 60_000;
const CHANNEL = '@keep_current_schedule_n10';

let sim: RunningSimulator;
let dataDir: string;
let app: ScriptoriumApp | undefined;

beforeEach(async () => {
  sim = await startSimulator({ credits: 10_000 });
  dataDir = tempDir();
});

afterEach(async () => {
  await app?.close();
  app = undefined;
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function draft(source: string): JobDraft {
  return {
    sources: [{ where: 'line 1', text: source }],
    languages: 'orig',
    includeTimestamp: true,
    sendMetadata: false,
    maxVideos: null,
    budget: null,
    concurrency: 2,
    formats: ['txt'],
  };
}

function open(options: { keepCurrent?: boolean; clock?: TimerClock } = {}): ScriptoriumApp {
  return openApp({
    dataDir,
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    serviceUrl: sim.url,
    logger: { warn: () => undefined },
    ...options,
  });
}

/** A job run to its end and marked Keep current, by an app without a schedule; its id. */
async function finishedMarkedJob(source = CHANNEL): Promise<number> {
  const setup = open();
  try {
    const { job } = await setup.handlers.createJob({ draft: draft(source), start: false });
    const ran = await setup.handlers.runJob({ jobId: job.id });
    expect(ran.outcome.status).toBe('completed');
    await setup.handlers.setKeepCurrent({ jobId: job.id, on: true });
    return job.id;
  } finally {
    await setup.close();
  }
}

/** Every jobSynced event of the app from now on. */
function recordSyncs(scriptorium: ScriptoriumApp): Array<EventPayload<'jobSynced'>> {
  const seen: Array<EventPayload<'jobSynced'>> = [];
  scriptorium.on('jobSynced', (sync) => seen.push(sync));
  return seen;
}

const syncCount = (syncs: unknown[], count: number) =>
  vi.waitFor(() => expect(syncs).toHaveLength(count), { timeout: 30_000, interval: 5 });

async function jobView(scriptorium: ScriptoriumApp, jobId: number): Promise<JobView> {
  return (await scriptorium.handlers.jobDetail({ jobId })).job;
}

const iso = (ms: number) => new Date(ms).toISOString();

it('syncs a marked job at start and every "Sync every (hours)", telling what was new and keeping quiet when nothing is', async () => {
  const jobId = await finishedMarkedJob();
  sim.admin.addUploads(CHANNEL, 3);
  const clock = new TimerClock();
  const start = clock.now();
  app = open({ keepCurrent: true, clock });
  const syncs = recordSyncs(app);

  // At start: the three new uploads, bought.
  await syncCount(syncs, 1);
  expect(syncs[0]).toEqual({
    jobId,
    title: expect.any(String),
    automatic: true,
    newVideos: 3,
    credits: expect.any(Number),
    completed: true,
    stopMessage: null,
  });
  // The round is over once the next one is set.
  await vi.waitFor(async () => expect((await jobView(app!, jobId)).keepCurrent.nextSyncAt).not.toBeNull(), {
    timeout: 30_000,
    interval: 5,
  });
  const afterStart = await jobView(app, jobId);
  expect(afterStart.status).toBe('completed');
  expect(afterStart.counts.total).toBe(13);
  expect(afterStart.keepCurrent).toEqual({
    available: true,
    marked: true,
    lastSyncAt: iso(start),
    nextSyncAt: iso(start + 24 * HOUR_MS),
    autoExportPath: null,
    limitMessage: null,
    syncProblem: null,
  });

  // A day later, nothing new: the free channel/latest says so, and the sync tells no news.
  const bought = sim.admin.ledger().length;
  clock.advance(24 * HOUR_MS);
  await syncCount(syncs, 2);
  expect(syncs[1]).toMatchObject({ jobId, automatic: true, newVideos: 0, credits: 0, completed: true });
  expect(sim.admin.ledger()).toHaveLength(bought);
  await vi.waitFor(
    async () =>
      expect((await jobView(app!, jobId)).keepCurrent).toMatchObject({
        lastSyncAt: iso(start + 24 * HOUR_MS),
        nextSyncAt: iso(start + 48 * HOUR_MS),
      }),
    { timeout: 30_000, interval: 5 },
  );

  // Sync every 6 hours from now on: the next round is 6 hours after the last one started.
  await app.handlers.updateSettings({ keepCurrent: { syncEveryHours: 6 } });
  await vi.waitFor(
    async () => expect((await jobView(app!, jobId)).keepCurrent.nextSyncAt).toBe(iso(start + 30 * HOUR_MS)),
    { timeout: 30_000, interval: 5 },
  );
  sim.admin.addUploads(CHANNEL, 2);
  clock.advance(6 * HOUR_MS);
  await syncCount(syncs, 3);
  expect(syncs[2]).toMatchObject({ jobId, newVideos: 2, completed: true });
  expect((await jobView(app, jobId)).counts.total).toBe(15);
});

it('stops a sync at the daily credit limit with the message on the job, and continues it the next day', async () => {
  const jobId = await finishedMarkedJob();
  const clock = new TimerClock();
  const setup = open();
  // One credit a day: the channel's page, which finds the new uploads, and no transcript.
  await setup.handlers.updateSettings({ keepCurrent: { dailyCreditLimit: 1 } });
  await setup.close();
  sim.admin.addUploads(CHANNEL, 5);
  const bought = sim.admin.ledger().length;
  app = open({ keepCurrent: true, clock });
  const syncs = recordSyncs(app);

  await syncCount(syncs, 1);
  expect(syncs[0]).toMatchObject({ jobId, automatic: true, newVideos: 5, credits: 1, completed: false });
  const limitMessage =
    'the daily credit limit of automatic syncs (1 credit) is spent; the first automatic sync after midnight continues it';
  expect(syncs[0]?.stopMessage).toBe(limitMessage);
  expect(sim.admin.ledger()).toHaveLength(bought + 1);
  const stopped = await jobView(app, jobId);
  expect(stopped.status).toBe('paused');
  expect(stopped.stop).toEqual({ reason: 'budget', code: 'daily_limit', message: limitMessage });
  expect(stopped.keepCurrent.limitMessage).toBe(limitMessage);
  expect(stopped.counts).toMatchObject({ total: 15, pending: 5 });
  expect((await app.handlers.creditStatus({})).today).toBe(1);

  // The next day, with room for the rest, the next round continues it: only the transcripts left.
  await app.handlers.updateSettings({ keepCurrent: { dailyCreditLimit: 20 } });
  clock.advance(24 * HOUR_MS);
  await syncCount(syncs, 2);
  expect(syncs[1]).toMatchObject({ jobId, newVideos: 0, completed: true, stopMessage: null });
  expect(syncs[1]?.credits).toBeGreaterThan(0);
  const continued = await jobView(app, jobId);
  expect(continued.status).toBe('completed');
  expect(continued.counts).toMatchObject({ total: 15, pending: 0 });
  expect(continued.keepCurrent.limitMessage).toBeNull();
  expect(sim.admin.ledger()).toHaveLength(bought + 1 + syncs[1]!.credits);
  expect(
    new Set(
      sim.admin
        .ledger()
        .slice(bought + 1)
        .map((charge) => charge.endpoint),
    ),
  ).toEqual(new Set(['transcript']));
});

it('leaves unmarked jobs alone, and writes the auto-export file after a sync that completes', async () => {
  const jobId = await finishedMarkedJob();
  const other = await finishedMarkedJob('PLkeepCurrentUnmarked_n5');
  const setup = open();
  await setup.handlers.setKeepCurrent({ jobId: other, on: false });
  const path = join(dataDir, 'kept.zip');
  expect((await setup.handlers.setAutoExport({ jobId, destination: path })).keepCurrent.autoExportPath).toBe(
    path,
  );
  await setup.close();
  sim.admin.addUploads(CHANNEL, 1);
  const clock = new TimerClock();
  app = open({ keepCurrent: true, clock });
  const syncs = recordSyncs(app);

  await syncCount(syncs, 1);
  expect(syncs.map((sync) => sync.jobId)).toEqual([jobId]);
  await vi.waitFor(async () => expect((await app!.handlers.jobDetail({ jobId })).exportPath).toBe(path), {
    timeout: 30_000,
    interval: 5,
  });
  expect((await readZip(path)).manifest.counts).toMatchObject({ videos: 11 });
  expect((await jobView(app, other)).keepCurrent).toMatchObject({
    marked: false,
    lastSyncAt: null,
    nextSyncAt: null,
  });
});
