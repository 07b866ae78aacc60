import { rmSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { localApi, memoryKeyStore, openApp } from '../../../src/core/app';
import { backfillLibrary, type IndexingProgress } from '../../../src/core/app/library-backfill';
import { DATABASE_FILE, openDatabase, SCHEMA_VERSION } from '../../../src/core/store';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { tempDir } from '../../support/cli';

// A data folder from before the Library (schema 6) holding transcripts bought from the simulator:
// opened by this version, its transcripts are indexed after migration 007, in batches that survive
// a process stopped halfway, each transcript exactly once.

let sim: RunningSimulator;
let dataDir: string;
const VIDEOS = 30;

function count(sql: string): number {
  const db = new BetterSqlite3(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return (db.prepare(sql).pluck().get() as number) ?? 0;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  sim = await startSimulator({ credits: 10_000 });
  dataDir = tempDir();
  const app = openApp({
    dataDir,
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    serviceUrl: sim.url,
  });
  const api = localApi(app);
  const { job } = await api.createJob({
    draft: {
      sources: [{ where: 'line 1', text: `PLlibraryBackfill_n${VIDEOS}` }],
      languages: 'en,orig',
      includeTimestamp: true,
      sendMetadata: true,
      maxVideos: null,
      budget: null,
      concurrency: 4,
      formats: ['txt'],
    },
    start: false,
  });
  expect((await api.runJob({ jobId: job.id })).outcome.status).toBe('completed');
  await app.close();
  // As version 6 left it: the same transcripts, no index.
  const db = new BetterSqlite3(join(dataDir, DATABASE_FILE));
  db.exec(
    'DROP TABLE transcript_index; DROP TABLE transcript_index_backfill; DROP INDEX items_by_transcript; PRAGMA user_version = 6;',
  );
  db.close();
});

afterAll(async () => {
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('indexes the transcripts of an older database in batches, carrying on after a stop halfway without indexing twice', async () => {
  const transcripts = count('SELECT count(*) FROM transcripts');
  expect(transcripts).toBeGreaterThan(20);

  // The first start is stopped after two batches of 7 (as a process killed then would be).
  const first = openDatabase(join(dataDir, DATABASE_FILE));
  expect(first.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  const heard: IndexingProgress[] = [];
  const stopped = backfillLibrary(first, {
    logger: { warn: () => undefined },
    batchSize: 7,
    stopped: () => false,
    onProgress: (progress) => {
      heard.push(progress);
      if (heard.length === 2) throw new Error('killed between batches');
    },
  });
  await expect(stopped).rejects.toThrow('killed between batches');
  first.close();
  expect(heard).toEqual([
    { done: 7, total: transcripts },
    { done: 14, total: transcripts },
  ]);
  expect(count('SELECT count(*) FROM transcript_index_docsize')).toBe(14);

  // The next start finishes the rest, telling its progress, and search finds every transcript.
  const progress: IndexingProgress[] = [];
  const app = openApp({
    dataDir,
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    onIndexing: (step) => progress.push(step),
  });
  try {
    await app.libraryIndexed;
    expect(progress.at(-1)).toEqual({ done: transcripts - 14, total: transcripts - 14 });
    expect(count('SELECT count(*) FROM transcript_index_docsize')).toBe(transcripts);
    const ids = count('SELECT count(DISTINCT id) FROM transcript_index_docsize');
    expect(ids).toBe(transcripts);

    const api = localApi(app);
    const { rows } = await api.listVideos({ jobId: 1, offset: 0, limit: 100, status: 'all', search: '' });
    const readings = await Promise.all(
      rows.flatMap((row) =>
        row.transcriptId === null
          ? []
          : [api.readTranscript({ transcriptId: row.transcriptId, query: 'river' })],
      ),
    );
    const expected = readings.reduce((sum, reading) => sum + reading.hits.length, 0);
    expect(expected).toBeGreaterThan(0);
    const found = await api.searchTranscripts({ query: 'river', limit: 1000 });
    expect(found.hits).toBe(expected);
    expect(found.videos).toBe(readings.filter((reading) => reading.hits.length > 0).length);
  } finally {
    await app.close();
  }

  // Opened again, there is nothing left to do.
  const again: IndexingProgress[] = [];
  const third = openApp({ dataDir, keys: memoryKeyStore(), onIndexing: (step) => again.push(step) });
  await third.libraryIndexed;
  await third.close();
  expect(again).toEqual([]);
  expect(count('SELECT count(*) FROM transcript_index_docsize')).toBe(transcripts);
});
