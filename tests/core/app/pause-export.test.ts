import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { localApi, memoryKeyStore, openApp, type ScriptoriumApp } from '../../../src/core/app';
import { ContractError } from '../../../src/shared/contract-error';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { tempDir } from '../../support/cli';

// The contract's pauseJob says it stops the job's exports under way (the CLI's Ctrl+C while the ZIP
// is written relies on it): the export fails as interrupted and its target is left as it was.

let sim: RunningSimulator;
let app: ScriptoriumApp;

afterEach(async () => {
  await app.close();
  await sim.close();
});

it('pausing a job stops its export under way: interrupted, with nothing written at the target', async () => {
  sim = await startSimulator({ credits: 1_000 });
  const dataDir = tempDir();
  app = openApp({
    dataDir,
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    serviceUrl: sim.url,
  });
  const api = localApi(app);
  const { job } = await api.createJob({
    draft: {
      sources: [{ where: 'line 1', text: 'PLpausedWhileExporting_n40' }],
      languages: 'orig',
      includeTimestamp: true,
      sendMetadata: true,
      maxVideos: null,
      budget: null,
      concurrency: 4,
      formats: ['txt', 'json'],
    },
    start: false,
  });
  expect((await api.runJob({ jobId: job.id })).outcome.status).toBe('completed');

  // The user pauses the job as soon as its export has written its first video.
  const target = join(dataDir, 'corpus.zip');
  const stopPausing = app.on('exportProgress', ({ done }) => {
    if (done === 1) void api.pauseJob({ jobId: job.id });
  });
  const error = await api.exportJob({ jobId: job.id, formats: ['txt'], destination: target }).catch((e) => e);
  stopPausing();
  expect(error).toBeInstanceOf(ContractError);
  expect((error as ContractError).code).toBe('interrupted');
  expect(existsSync(target)).toBe(false);
  // A finished job is not paused: only its export stopped.
  expect((await api.jobDetail({ jobId: job.id })).job.status).toBe('completed');
  // Exported again, it is whole.
  expect(await api.exportJob({ jobId: job.id, formats: ['txt'], destination: target })).toMatchObject({
    jobFinished: true,
  });
});
