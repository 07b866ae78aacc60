import { parse } from 'csv-parse/sync';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  localApi,
  memoryKeyStore,
  openApp,
  SEARCH_EXPORT_WORKER_FILE,
  type ScriptoriumApp,
} from '../../../src/core/app';
import type { CommandOutput, EventPayload } from '../../../src/shared/contract';
import { ContractError } from '../../../src/shared/contract-error';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { tempDir } from '../../support/cli';

// Export results on the two writers openApp can be given: the app's own thread (the sources, as
// here) and the BUILT worker of the CLI's bundle (out/cli, made by `npm run build:cli`), which the
// desktop app and browser mode use. Both over the same real database, bought from the simulator.

const BUILT_WORKER = fileURLToPath(new URL(`../../../out/cli/${SEARCH_EXPORT_WORKER_FILE}`, import.meta.url));

let sim: RunningSimulator;
let work: string;
let dataDir: string;

/** The app on the data folder, with Export results on the built worker or on this thread. */
function appWith(writer: 'worker' | 'this thread'): ScriptoriumApp {
  return openApp({
    dataDir,
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    serviceUrl: sim.url,
    ...(writer === 'worker' && { searchExportWorker: BUILT_WORKER }),
  });
}

async function failure(promise: Promise<unknown>): Promise<ContractError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ContractError)) throw new Error(`expected a ContractError, got ${String(error)}`);
  return error;
}

/** A CSV file's records, read by csv-parse. */
const csvRows = (path: string): string[][] => parse(readFileSync(path, 'utf8')) as string[][];

/** The files in a folder, hidden ones (a temporary file beside the target) included. */
const filesIn = (folder: string): string[] => readdirSync(folder).sort();

beforeAll(async () => {
  if (!existsSync(BUILT_WORKER)) throw new Error(`${BUILT_WORKER} is missing: run npm run build:cli first.`);
  sim = await startSimulator({ credits: 10_000 });
  work = tempDir('scriptorium-search-export-');
  dataDir = join(work, 'data');
  const app = appWith('this thread');
  try {
    const api = localApi(app);
    const draft = {
      sources: [{ where: 'line 1', text: 'PLsearchExport_n80' }],
      languages: 'en',
      includeTimestamp: true,
      sendMetadata: true,
      maxVideos: null,
      budget: null,
      concurrency: 4,
      formats: ['txt' as const],
    };
    const { job } = await api.createJob({ draft, start: false });
    expect((await api.runJob({ jobId: job.id })).outcome.status).toBe('completed');
  } finally {
    await app.close();
  }
});

afterAll(async () => {
  await sim?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('Export results on the built worker thread', () => {
  it('writes the same CSV as the app thread does, from a thread of its own, telling its progress', async () => {
    const here = appWith('this thread');
    const hereFile = join(work, 'here.csv');
    let fromHere: CommandOutput<'exportSearchResults'>;
    try {
      fromHere = await localApi(here).exportSearchResults({ query: 'the', destination: hereFile });
    } finally {
      await here.close();
    }

    const app = appWith('worker');
    const progress: Array<EventPayload<'searchExportProgress'>> = [];
    const stop = app.on('searchExportProgress', (event) => progress.push(event));
    try {
      const api = localApi(app);
      const { hits, videos } = await api.searchTranscripts({ query: 'the', limit: 1 });
      // More matching transcripts than are read between two progress events.
      expect(videos).toBeGreaterThan(32);
      const file = join(work, 'worker.csv');
      const written = await api.exportSearchResults({ query: 'the', destination: file });
      expect(written).toMatchObject({ path: file, hits, bytes: fromHere.bytes });
      // Written on another thread than the app's; the app thread's own export says its own.
      expect(written.threadId).not.toBe(threadId);
      expect(fromHere.threadId).toBe(threadId);
      expect(readFileSync(file, 'utf8')).toBe(readFileSync(hereFile, 'utf8'));
      expect(progress.every((event) => event.exportId === written.exportId && event.total === hits)).toBe(
        true,
      );
      expect(progress[0]?.done).toBe(0);
      expect(progress.at(-1)?.done).toBe(hits);
      expect(progress.length).toBeGreaterThan(2);

      // For download, and the first `limit` hits only.
      const offered = await api.exportSearchResults({ query: 'the', destination: null, limit: 5 });
      expect(offered).toMatchObject({ path: null, hits: 5 });
      const rows = csvRows(app.download(offered.exportId)?.path ?? '');
      expect(rows).toEqual(csvRows(file).slice(0, 6));
    } finally {
      stop();
      await app.close();
    }
  });

  it('keeps the code of what the thread refused: a query it cannot read, a job that does not exist; a target that would destroy something is refused first', async () => {
    const app = appWith('worker');
    try {
      const api = localApi(app);
      const folder = join(work, 'refusals');
      mkdirSync(folder);
      const refused = await failure(
        api.exportSearchResults({ query: '"river', destination: join(folder, 'a.csv') }),
      );
      expect(refused.code).toBe('invalid_input');
      expect(refused.message).not.toMatch(/fts5|syntax error/i);
      const noJob = await failure(
        api.exportSearchResults({ query: 'the', jobId: 999, destination: join(folder, 'b.csv') }),
      );
      expect(noJob).toMatchObject({ code: 'job_not_found', message: 'There is no job 999.' });
      expect((await failure(api.exportSearchResults({ query: 'the', destination: folder }))).code).toBe(
        'output_refused',
      );
      expect(filesIn(folder)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe.each(['worker', 'this thread'] as const)('Export results cancelled, on %s', (writer) => {
  /**
   * Starts an export and cancels it with `cancel` as soon as its first progress is told, while the
   * matching transcripts are still to be read: the moment is an event, not a time.
   */
  async function cancelledExport(
    name: string,
    cancel: (app: ScriptoriumApp, exportId: string) => void,
  ): Promise<{ error: ContractError; folder: string; app: ScriptoriumApp }> {
    const app = appWith(writer);
    const folder = join(work, `${name}-${writer.replace(' ', '-')}`);
    mkdirSync(folder);
    let cancelled = false;
    const stop = app.on('searchExportProgress', ({ exportId }) => {
      if (cancelled) return;
      cancelled = true;
      cancel(app, exportId);
    });
    try {
      const error = await failure(
        localApi(app).exportSearchResults({ query: 'the', destination: join(folder, 'hits.csv') }),
      );
      expect(cancelled).toBe(true);
      return { error, folder, app };
    } finally {
      stop();
    }
  }

  it('by the user: fails as interrupted and leaves no file at the target nor beside it', async () => {
    let answer: Promise<{ cancelled: boolean }> | undefined;
    const { error, folder, app } = await cancelledExport('user', (running, exportId) => {
      answer = running.handlers.cancelSearchExport({ exportId });
    });
    try {
      expect(await answer).toEqual({ cancelled: true });
      expect(error).toMatchObject({
        code: 'interrupted',
        message: 'Export results was cancelled: no file was written.',
      });
      expect(filesIn(folder)).toEqual([]);
      // Nothing is left under way: a cancel now finds nothing, and the next export is whole.
      expect(await app.handlers.cancelSearchExport({ exportId: 'ended' })).toEqual({ cancelled: false });
      const again = await localApi(app).exportSearchResults({
        query: 'the',
        destination: join(folder, 'hits.csv'),
      });
      expect(filesIn(folder)).toEqual(['hits.csv']);
      expect(csvRows(join(folder, 'hits.csv'))).toHaveLength(again.hits + 1);
    } finally {
      await app.close();
    }
  });

  it('by the app closing: fails as interrupted, leaves no file, and the app closes', async () => {
    let closed: Promise<void> | undefined;
    const { error, folder } = await cancelledExport('closing', (running) => {
      closed = running.close();
    });
    await closed;
    expect(error.code).toBe('interrupted');
    expect(filesIn(folder)).toEqual([]);
  });
});
