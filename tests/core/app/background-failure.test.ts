import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  localApi,
  memoryKeyStore,
  openApp,
  SEARCH_EXPORT_WORKER_FILE,
  type AppOptions,
  type ScriptoriumApp,
} from '../../../src/core/app';
import { csvWriteFailure } from '../../../src/core/app/search-export';
import { openDatabase, type Database } from '../../../src/core/store';
import type { JobDraft, JobView } from '../../../src/shared/contract';
import { ContractError } from '../../../src/shared/contract-error';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { tempDir } from '../../support/cli';
import {
  BREAKAGES,
  breakStore,
  expectPlain,
  PLAIN_BREAKAGE,
  recordingLogger,
} from '../../support/broken-store';

// Issue 44: the app's writers that work in the background, Keep current's schedule, the runner of
// queued jobs and Export results, fail as plainly as the engine does when the data folder's disk
// fills up or its folder turns read-only: one line, never a stack trace; and what they left undone
// is done at the next start. The app opens its database through openDatabase, which the test gives
// to keep the connection and break it (tests/support/broken-store.ts).

const BUILT_WORKER = fileURLToPath(new URL(`../../../out/cli/${SEARCH_EXPORT_WORKER_FILE}`, import.meta.url));

const CHANNEL = '@backgroundFailure_n10';

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

const draft: JobDraft = {
  sources: [{ where: 'line 1', text: CHANNEL }],
  languages: 'orig',
  includeTimestamp: true,
  sendMetadata: false,
  maxVideos: null,
  budget: null,
  concurrency: 2,
  formats: ['txt'],
};

function appOn(options: Partial<AppOptions> = {}): ScriptoriumApp {
  app = openApp({
    dataDir,
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    serviceUrl: sim.url,
    ...options,
  });
  return app;
}

/** Resolves with the job once it is completed with `videos` videos, told by the app's events. */
function whenCompleted(scriptorium: ScriptoriumApp, jobId: number, videos: number): Promise<JobView> {
  return new Promise((resolve) => {
    const check = (view: JobView) => {
      if (view.id !== jobId || view.status !== 'completed' || view.counts.total !== videos) return;
      stop();
      resolve(view);
    };
    const stop = scriptorium.on('jobChanged', check);
    void scriptorium.handlers.jobDetail({ jobId }).then(({ job }) => check(job));
  });
}

describe.each(BREAKAGES)('on a %s', (how) => {
  it("Keep current's automatic sync fails in one plain line, and the next start brings the job up to date", async () => {
    // A finished channel kept current, which has uploaded three videos since.
    const earlier = appOn();
    const { job } = await earlier.handlers.createJob({ draft, start: false });
    expect((await earlier.handlers.runJob({ jobId: job.id })).outcome.status).toBe('completed');
    await earlier.handlers.setKeepCurrent({ jobId: job.id, on: true });
    await earlier.close();
    sim.admin.addUploads(CHANNEL, 3);

    // Started again, the schedule syncs it at once, and the store gives way under it.
    const told = recordingLogger();
    let db: Database | undefined;
    const broken = appOn({
      runner: true,
      keepCurrent: true,
      logger: told.logger,
      openDatabase: (file, options) => (db = openDatabase(file, options)),
    });
    breakStore(db!, how);
    await told.when(`The automatic sync of job ${job.id} could not run`);
    expect(told.lines[0]).toEqual([
      `The automatic sync of job ${job.id} could not run: ${PLAIN_BREAKAGE[how]}`,
    ]);
    const view = (await broken.handlers.jobDetail({ jobId: job.id })).job;
    expect(view.keepCurrent.syncProblem).toBe(PLAIN_BREAKAGE[how]);
    await broken.close();
    app = undefined;
    expectPlain(told.lines);

    // The next start, with room again: the three new videos are bought.
    const next = appOn({ runner: true, keepCurrent: true, logger: recordingLogger().logger });
    const done = await whenCompleted(next, job.id, 13);
    expect(done.counts.pending).toBe(0);
    expect(done.counts.ok + done.counts.unavailable).toBe(13);
  });

  it('Export results fails in plain words, writing nothing, on either thread', async () => {
    const scriptorium = appOn();
    const { job } = await scriptorium.handlers.createJob({ draft, start: false });
    expect((await scriptorium.handlers.runJob({ jobId: job.id })).outcome.status).toBe('completed');
    await scriptorium.close();
    app = undefined;

    for (const writer of [{}, { searchExportWorker: BUILT_WORKER }]) {
      const told = recordingLogger();
      const opened = appOn({ ...writer, logger: told.logger });
      const api = localApi(opened);
      // sysfs lets no one, root included, create a file; a full disk is the real error of /dev/full.
      const destination = how === 'read-only folder' ? '/sys/scriptorium-results.csv' : undefined;
      if (destination === undefined) {
        const full = csvWriteFailure(errorOf(() => writeFileSync('/dev/full', 'text')));
        expect(full?.toData()).toEqual({
          code: 'disk_full',
          message:
            'Could not write the search results: the disk is full. Free some space or choose another location for the CSV file. Nothing was written.',
        });
      } else {
        const error = await api
          .exportSearchResults({ query: 'the', destination })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ContractError);
        expect((error as ContractError).message).toBe(
          'Could not write the search results: permission was denied. Choose a folder you are allowed to write to. Nothing was written.',
        );
      }
      expect(told.lines).toEqual([]);
      await opened.close();
      app = undefined;
    }
  });
});

function errorOf(action: () => void): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}
