import { localApi, memoryKeyStore, openApp, type ScriptoriumApp } from '../../src/core/app';
import type { ExportFormat, ScriptoriumApi } from '../../src/shared/contract';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { tempDir } from '../support/cli';

/** The four file formats every export of these checks writes, as a default export does. */
export const ALL_FILE_FORMATS: ExportFormat[] = ['txt', 'json', 'srt', 'vtt'];

/** The application on a fresh data folder, over a simulator of its own, driven through its contract. */
export interface PerfApp {
  sim: RunningSimulator;
  app: ScriptoriumApp;
  api: ScriptoriumApi;
  dataDir: string;
  close(): Promise<void>;
}

export async function startPerfApp(): Promise<PerfApp> {
  const sim = await startSimulator({ credits: 100_000 });
  const dataDir = tempDir();
  const app = openApp({
    dataDir,
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    serviceUrl: sim.url,
    runner: true,
  });
  return {
    sim,
    app,
    api: localApi(app),
    dataDir,
    close: async () => {
      await app.close();
      await sim.close();
    },
  };
}

/** Fetches the simulator's playlist `playlist` into a job and resolves with its id once it completes. */
export async function finishedJob({ app, api }: PerfApp, playlist: string): Promise<number> {
  const { job } = await api.createJob({
    draft: {
      sources: [{ where: 'line 1', text: playlist }],
      languages: 'orig',
      includeTimestamp: true,
      sendMetadata: true,
      maxVideos: null,
      budget: null,
      concurrency: 16,
      formats: ALL_FILE_FORMATS,
    },
    start: false,
  });
  const completed = new Promise<void>((resolve) => {
    const stop = app.on('jobChanged', (view) => {
      if (view.id === job.id && view.status === 'completed') {
        stop();
        resolve();
      }
    });
  });
  await api.startJob({ jobId: job.id });
  await completed;
  return job.id;
}
