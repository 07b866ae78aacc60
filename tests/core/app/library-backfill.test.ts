import { rmSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { localApi, memoryKeyStore, openApp } from '../../../src/core/app';
import { PreparationLoop, type PreparationProgress } from '../../../src/core/engine';
import { DATABASE_FILE, openDatabase, SCHEMA_VERSION, type Database } from '../../../src/core/store';
import type { SearchResults } from '../../../src/shared/contract';
import { indexText } from '../../../src/shared/search-text';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { tempDir } from '../../support/cli';
import { BACK_TO_SCHEMA_6, BACK_TO_SCHEMA_8 } from '../../support/older-schema';

// Data folders from before the Library (schema 6), from before its index had a row per segment
// (schema 7) and from before it indexed the text the corpus exports (schema 8), holding transcripts
// bought from the simulator: opened by this version, their transcripts are indexed (again), in
// batches that survive a process stopped halfway, each transcript once, and a search then finds
// what it found before.

let sim: RunningSimulator;
let dataDir: string;
const VIDEOS = 30;
/** Queries of every kind, and what this version found for them before the upgrades. */
const QUERIES = ['river', 'RIVER engine', '"small engine"', 'quest*', 'river OR engine', 'river -light'];
let before: Map<string, SearchResults>;

function count(sql: string): number {
  const db = new BetterSqlite3(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return (db.prepare(sql).pluck().get() as number) ?? 0;
  } finally {
    db.close();
  }
}

/** How many transcripts have a segment in the index (FTS5's own list of what it holds). */
function indexedTranscripts(): number {
  const db = new BetterSqlite3(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    db.exec('CREATE VIRTUAL TABLE temp.held USING fts5vocab(main, segment_index, instance)');
    return db.prepare('SELECT count(DISTINCT doc >> 20) FROM temp.held').pluck().get() as number;
  } finally {
    db.close();
  }
}

/**
 * Indexes what is left to index with `batchSize` per batch, as the app's start does (without deriving
 * anything for export), in a process stopped once `indexed` transcripts are in the index.
 */
async function indexStopped(
  db: Database,
  batchSize: number,
  indexed: number,
): Promise<PreparationProgress[]> {
  const heard: PreparationProgress[] = [];
  const outcome = await new PreparationLoop(db, undefined, batchSize).run({
    stopped: () => indexedTranscripts() >= indexed,
    onProgress: (progress) => heard.push(progress),
  });
  expect(outcome).toEqual({ ok: true });
  return heard;
}

async function searched(app: ReturnType<typeof openApp>): Promise<Map<string, SearchResults>> {
  const api = localApi(app);
  const found = new Map<string, SearchResults>();
  for (const query of QUERIES) found.set(query, await api.searchTranscripts({ query, limit: 1000 }));
  return found;
}

/** The columns migration 009 adds, taken away (it makes the changes table again by itself). */
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
  before = await searched(app);
  await app.close();
  // As version 6 left it: the same transcripts, no index.
  const db = new BetterSqlite3(join(dataDir, DATABASE_FILE));
  db.exec(BACK_TO_SCHEMA_6);
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
  const heard = await indexStopped(first, 7, 14);
  first.close();
  expect(heard).toEqual([
    { done: 0, total: transcripts },
    { done: 7, total: transcripts },
    { done: 14, total: transcripts },
  ]);
  expect(indexedTranscripts()).toBe(14);

  // The next start finishes the rest, telling its progress (every transcript is still to be derived
  // for export too), and search finds every transcript.
  const progress: PreparationProgress[] = [];
  const app = openApp({
    dataDir,
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    onPreparing: (step) => progress.push(step),
  });
  try {
    await app.libraryIndexed;
    expect(progress.at(-1)).toEqual({ done: transcripts, total: transcripts });
    expect(indexedTranscripts()).toBe(transcripts);
    expect(count('SELECT count(*) FROM derived_transcripts')).toBe(transcripts);

    // Every segment that says the word, counted from the transcripts as read, not by the index.
    const api = localApi(app);
    const { rows } = await api.listVideos({ jobId: 1, offset: 0, limit: 100, status: 'all', search: '' });
    const readings = await Promise.all(
      rows.flatMap((row) =>
        row.transcriptId === null
          ? []
          : [api.readTranscript({ transcriptId: row.transcriptId, query: null })],
      ),
    );
    const saying = readings.map(
      (reading) =>
        reading.segments.filter((segment) => /(^|[^\p{L}])river([^\p{L}]|$)/iu.test(segment.text)).length,
    );
    const expected = saying.reduce((sum, n) => sum + n, 0);
    expect(expected).toBeGreaterThan(0);
    const found = await api.searchTranscripts({ query: 'river', limit: 1000 });
    expect(found.hits).toBe(expected);
    expect(found.videos).toBe(saying.filter((n) => n > 0).length);
    expect(await searched(app)).toEqual(before);
  } finally {
    await app.close();
  }

  // Opened again, there is nothing left to do.
  const again: PreparationProgress[] = [];
  const third = openApp({ dataDir, keys: memoryKeyStore(), onPreparing: (step) => again.push(step) });
  await third.libraryIndexed;
  await third.close();
  expect(again).toEqual([]);
  expect(indexedTranscripts()).toBe(transcripts);
});

it('indexes every transcript again, a row per segment, when a database from version 7 is opened, and finds what it found before', async () => {
  const transcripts = count('SELECT count(*) FROM transcripts');
  // As version 7 left it: the index with a row per transcript, every transcript in it.
  const old = new BetterSqlite3(join(dataDir, DATABASE_FILE));
  old.exec(`${BACK_TO_SCHEMA_8} DROP TABLE segment_index; DROP INDEX transcripts_facts;
    CREATE VIRTUAL TABLE transcript_index USING fts5(text, content = '',
      tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'");
    UPDATE transcript_index_backfill SET done_through = (SELECT max(id) FROM transcripts),
      until_id = (SELECT max(id) FROM transcripts);
    PRAGMA user_version = 7;`);
  const bodies = old.prepare('SELECT id, body FROM transcripts').all() as Array<{ id: number; body: string }>;
  const insert = old.prepare('INSERT INTO transcript_index (rowid, text) VALUES (?, ?)');
  for (const { id, body } of bodies) {
    const segments = (JSON.parse(body) as { transcript: Array<{ text: string }> }).transcript;
    insert.run(id, indexText(segments.map((segment) => segment.text).join('\n')));
  }
  old.close();

  // Stopped after the first batch, then opened again: every transcript once, in two goes.
  const first = openDatabase(join(dataDir, DATABASE_FILE));
  expect(count("SELECT count(*) FROM sqlite_master WHERE name = 'transcript_index'")).toBe(0);
  await indexStopped(first, 10, 10);
  first.close();
  expect(indexedTranscripts()).toBe(10);

  const progress: PreparationProgress[] = [];
  const app = openApp({ dataDir, keys: memoryKeyStore(), onPreparing: (step) => progress.push(step) });
  try {
    await app.libraryIndexed;
    expect(progress.at(-1)).toEqual({ done: transcripts, total: transcripts });
    expect(indexedTranscripts()).toBe(transcripts);
    expect(await searched(app)).toEqual(before);
  } finally {
    await app.close();
  }
});
