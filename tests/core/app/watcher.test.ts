import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { memoryKeyStore, openApp, type ScriptoriumApp } from '../../../src/core/app';
import { DATABASE_FILE, openDatabase, type Database } from '../../../src/core/store';
import { finishItem } from '../../../src/core/store/items';
import { setJobStatus } from '../../../src/core/store/jobs';
import { writeLease } from '../../../src/core/store/leases';
import type { JobView } from '../../../src/shared/contract';
import { tempDir } from '../../support/cli';
import { FastClock } from '../engine/helpers';

// The database watcher measures the pace of a job another process runs on the app's clock, as every
// other measure of time in the app is: here a fake one, moved by the test alone.

let app: ScriptoriumApp;
let other: Database;

afterEach(async () => {
  other.close();
  await app.close();
});

/** Resolves with the first jobChanged view that passes `done`. */
function jobChanged(done: (job: JobView) => boolean): Promise<JobView> {
  return new Promise((resolve) => {
    const stop = app.on('jobChanged', (job) => {
      if (!done(job)) return;
      stop();
      resolve(job);
    });
  });
}

it("measures the pace of a job run by another process on the app's clock", async () => {
  const dataDir = tempDir();
  const clock = new FastClock();
  app = openApp({ dataDir, keys: memoryKeyStore(), watch: true, clock });
  const videos = Array.from({ length: 10 }, (_, index) => `watchedVid${index}`);
  const { job } = await app.handlers.createJob({
    draft: {
      sources: videos.map((text, index) => ({ where: `line ${index + 1}`, text })),
      languages: 'orig',
      includeTimestamp: true,
      sendMetadata: true,
      maxVideos: null,
      budget: null,
      concurrency: 4,
      formats: ['txt'],
    },
    start: false,
  });

  // Another process (a connection of its own) runs the job: it holds the lease and finishes videos.
  other = openDatabase(join(dataDir, DATABASE_FILE));
  const items = other.prepare('SELECT id FROM items WHERE job_id = ? ORDER BY id').all(job.id) as Array<{
    id: number;
  }>;
  const finish = (from: number, to: number) =>
    other
      .transaction(() => {
        for (const { id } of items.slice(from, to))
          finishItem(other, id, { status: 'ok', attempts: 1, at: 'x' });
      })
      .immediate();
  const at = new Date(clock.now()).toISOString();
  other
    .transaction(() => {
      setJobStatus(other, job.id, { status: 'running', at });
      writeLease(other, job.id, {
        owner: `${process.pid}-another-process`,
        expiresAt: clock.now() + 3_600_000,
      });
    })
    .immediate();

  clock.time += 1_000;
  const seenTwo = jobChanged((view) => view.counts.ok === 2);
  finish(0, 2);
  expect((await seenTwo).runningIn).toBe('elsewhere');

  // Ten seconds of the app's clock later, five more: half a video a second, three left.
  clock.time += 10_000;
  const seenSeven = jobChanged((view) => view.counts.ok === 7);
  finish(2, 7);
  expect(await seenSeven).toMatchObject({ ratePerSecond: 0.5, etaSeconds: 6 });
});
