import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { memoryKeyStore, openApp, type ScriptoriumApp } from '../../../src/core/app';
import type { EventPayload, JobDraft, JobView } from '../../../src/shared/contract';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { tempDir } from '../../support/cli';

// The desktop app (or `scriptorium ui`) started again on a data folder whose key is gone: a job that
// was running and a job kept current wait for the key, say so on the job, and run once it is given.

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

function draft(source: string, budget: number | null = null): JobDraft {
  return {
    sources: [{ where: 'line 1', text: source }],
    languages: 'orig',
    includeTimestamp: true,
    sendMetadata: false,
    maxVideos: null,
    budget,
    concurrency: 2,
    formats: ['txt'],
  };
}

/**
 * The data folder as a session with the key left it: job 1 finished and kept current, job 2 cut off
 * while it ran (the process died: its row still says running).
 */
async function leftByAnEarlierSession(): Promise<void> {
  const earlier = openApp({
    dataDir,
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    serviceUrl: sim.url,
    logger: { warn: () => undefined },
  });
  try {
    const kept = (await earlier.handlers.createJob({ draft: draft('PLrestartKept_n4'), start: false })).job;
    expect((await earlier.handlers.runJob({ jobId: kept.id })).outcome.status).toBe('completed');
    await earlier.handlers.setKeepCurrent({ jobId: kept.id, on: true });
    const cut = (await earlier.handlers.createJob({ draft: draft('PLrestartCutOff_n12', 3), start: false }))
      .job;
    expect((await earlier.handlers.runJob({ jobId: cut.id })).outcome.status).toBe('paused');
  } finally {
    await earlier.close();
  }
  const db = new Database(join(dataDir, 'scriptorium.db'));
  db.prepare(
    "UPDATE jobs SET status = 'running', budget = NULL, stop_reason = NULL, stop_code = NULL, stop_message = NULL WHERE id = 2",
  ).run();
  db.close();
}

async function jobView(scriptorium: ScriptoriumApp, jobId: number): Promise<JobView> {
  return (await scriptorium.handlers.jobDetail({ jobId })).job;
}

const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 30_000, interval: 10 });

it('started again without a key: the running job waits queued and the sync says why, without a stack trace; the key runs both', async () => {
  await leftByAnEarlierSession();
  const requestsBefore = sim.admin.requests().length;

  const warnings: Array<{ message: string; error: unknown }> = [];
  app = openApp({
    dataDir,
    keys: memoryKeyStore(),
    serviceUrl: sim.url,
    addressFromSettings: true,
    runner: true,
    keepCurrent: true,
    logger: { warn: (message, error) => void warnings.push({ message, error }) },
  });
  const syncs: Array<EventPayload<'jobSynced'>> = [];
  app.on('jobSynced', (sync) => syncs.push(sync));

  await eventually(async () => {
    const kept = await jobView(app!, 1);
    expect(kept.keepCurrent.syncProblem).toBe('No key is set. Enter it in Settings. Nothing was sent.');
    // It runs once the key is given, not at the next round a day away: no time is promised.
    expect(kept.keepCurrent.nextSyncAt).toBeNull();
    const cut = await jobView(app!, 2);
    expect(cut).toMatchObject({
      status: 'queued',
      stop: null,
      waitingFor: 'No key is set. Enter it in Settings. Nothing was sent.',
    });
  });
  // One plain line for the sync that could not run, and no error (so no stack trace) in any.
  expect(warnings.map((warning) => warning.message)).toEqual([
    'The automatic sync of job 1 could not run: No key is set. Enter it in Settings. Nothing was sent.',
  ]);
  expect(warnings.every((warning) => warning.error === undefined)).toBe(true);
  expect(sim.admin.requests()).toHaveLength(requestsBefore);

  // The key, once given, runs what waited: the job continues to its end, and the sync runs now.
  await app.handlers.setKey({ key: sim.key });
  await eventually(async () => {
    const cut = await jobView(app!, 2);
    expect(cut).toMatchObject({ status: 'completed', waitingFor: null });
    expect(cut.counts.total).toBe(12);
    expect(syncs).toEqual([expect.objectContaining({ jobId: 1, automatic: true, completed: true })]);
    const kept = await jobView(app!, 1);
    expect(kept.keepCurrent).toMatchObject({ syncProblem: null, lastSyncAt: expect.any(String) });
  });
});

it('started again with neither a key nor an address: what waits names both, and both given run it', async () => {
  await leftByAnEarlierSession();
  const warnings: string[] = [];
  app = openApp({
    dataDir,
    keys: memoryKeyStore(),
    addressFromSettings: true,
    runner: true,
    keepCurrent: true,
    logger: { warn: (message) => void warnings.push(message) },
  });
  const missing =
    'No service address is set: enter it in Settings. No key is set. Enter it in Settings. Nothing was sent.';
  await eventually(async () => {
    const kept = await jobView(app!, 1);
    expect(kept.keepCurrent).toMatchObject({ syncProblem: missing, nextSyncAt: null });
    expect(await jobView(app!, 2)).toMatchObject({ status: 'queued', waitingFor: missing });
  });
  expect(warnings).toEqual([`The automatic sync of job 1 could not run: ${missing}`]);

  await app.handlers.updateSettings({ serviceUrl: sim.url });
  await app.handlers.setKey({ key: sim.key });
  await eventually(async () => {
    expect(await jobView(app!, 2)).toMatchObject({ status: 'completed', waitingFor: null });
    expect((await jobView(app!, 1)).keepCurrent).toMatchObject({
      syncProblem: null,
      nextSyncAt: expect.any(String),
    });
  });
});
