import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { DeflateWorker } from '../../src/core/export/zip/deflate-worker';
import { readZip } from '../support/cli';
import { ALL_FILE_FORMATS, startPerfApp, type PerfApp } from './finished-job';

// The export's work, counted rather than timed (bench/run.mjs's figure 4 times it): what depends only
// on a stored transcript is derived once, after it is stored, so that the first export of a job whose
// transcripts are derived reads its rows once, writes each record's JSON once, counts no word again and
// compresses only what depends on the job. Each count is of real work, seen where it is done: the rows
// SQLite returns, the JSON.stringify calls, Intl.Segmenter's, the texts sent to the compression thread.

const VIDEOS = 300;
let perf: PerfApp;
let jobId: number;

beforeAll(async () => {
  perf = await startPerfApp();
  const { job } = await perf.api.createJob({
    draft: {
      sources: [{ where: 'line 1', text: `PLperfExportWork_n${VIDEOS}` }],
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
  jobId = job.id;
  // A run ends with what it stored prepared for search and export.
  expect((await perf.api.runJob({ jobId })).outcome.status).toBe('completed');
}, 120_000);

afterAll(() => perf.close());

/**
 * What an export of the job does (the first to `name`, or of its released `version` again), counted
 * while it runs; and the ZIP it wrote, read back.
 */
async function countedExport(name: string, version?: number) {
  const rowReads = new Map<number, number>();
  const recordSerializations = new Map<string, number>();
  const all = vi.spyOn(statementPrototype(), 'all');
  const stringify = vi.spyOn(JSON, 'stringify');
  const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
  const compressFiles = vi.spyOn(DeflateWorker.prototype, 'compressFiles');
  try {
    const destination = join(perf.dataDir, name);
    const written = await perf.api.exportJob({
      jobId,
      formats: ALL_FILE_FORMATS,
      destination,
      ...(version !== undefined && { version }),
    });
    expect(written.jobFinished).toBe(true);
    // A row of the job's items, as the export reads it: each read of the same item is another pass.
    for (const result of all.mock.results) {
      if (result.type !== 'return' || !Array.isArray(result.value)) continue;
      for (const row of result.value as unknown[]) {
        if (isRecord(row) && typeof row['item_id'] === 'number' && 'number' in row)
          rowReads.set(row['item_id'], (rowReads.get(row['item_id']) ?? 0) + 1);
      }
    }
    for (const [value] of stringify.mock.calls) {
      if (isRecord(value) && typeof value['video_id'] === 'string' && 'fetched_at' in value)
        recordSerializations.set(value['video_id'], (recordSerializations.get(value['video_id']) ?? 0) + 1);
    }
    return {
      zip: await readZip(destination),
      passes: Math.max(...rowReads.values()),
      itemsRead: rowReads.size,
      serializations: [...new Set(recordSerializations.values())],
      records: recordSerializations.size,
      // Words, not graphemes: a long title is cut between graphemes for its file name, which is the job's.
      wordSegmenterCalls: (segment.mock.contexts as Intl.Segmenter[]).filter(
        (segmenter) => segmenter.resolvedOptions().granularity === 'word',
      ).length,
      compressedFiles: compressFiles.mock.calls.reduce((sum, [texts]) => sum + texts.length, 0),
    };
  } finally {
    all.mockRestore();
    stringify.mockRestore();
    segment.mockRestore();
    compressFiles.mockRestore();
  }
}

/** better-sqlite3's Statement class's prototype, which every statement's all() comes from. */
function statementPrototype(): { all(...parameters: unknown[]): unknown[] } {
  const db = new BetterSqlite3(':memory:');
  try {
    return Object.getPrototypeOf(db.prepare('SELECT 1')) as { all(...parameters: unknown[]): unknown[] };
  } finally {
    db.close();
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

it('reads each row of the job once, serializes each record once, and counts no word, for a job whose transcripts are derived', async () => {
  const counted = await countedExport('first.zip');
  const ok = counted.zip.transcripts.length;
  expect(counted.zip.index.slice(1)).toHaveLength(VIDEOS);
  // Some transcripts are in a script without spaces, whose words only a dictionary tells apart.
  expect(counted.zip.transcripts.some((record) => record['language'] === 'ja')).toBe(true);

  expect(counted.itemsRead).toBe(VIDEOS);
  expect(counted.records).toBe(ok);
  // Each count on its own: a failure names every guard it breaks.
  expect.soft(counted.passes, 'passes over the rows').toBe(1);
  expect.soft(counted.serializations, 'JSON serializations of each record').toEqual([1]);
  expect.soft(counted.wordSegmenterCalls, 'calls of Intl.Segmenter to count words').toBe(0);
});

it("compresses only the job's own files: each record's json file and the tables, never a transcript's txt, srt or vtt", async () => {
  const counted = await countedExport('again-elsewhere.zip');
  const ok = counted.zip.transcripts.length;
  const vtt = counted.zip.entries.filter((entry) => entry.name.startsWith('vtt/')).length;
  expect(vtt).toBeGreaterThan(ok / 2);
  // manifest.json, CITATION.cff and datapackage.json are whole files too; the other tables are streams.
  expect(counted.compressedFiles, 'files compressed').toBe(ok + 3);
});

it('writes a released version again (export --version N) from the same derived transcripts: no word counted, no transcript file compressed', async () => {
  const latest = await readZip(join(perf.dataDir, 'first.zip'));
  const counted = await countedExport('version-1.zip', 1);
  const ok = counted.zip.transcripts.length;
  expect(counted.zip.manifest.version).toBe(1);
  expect(counted.zip.index).toEqual(latest.index);
  expect.soft(counted.wordSegmenterCalls, 'calls of Intl.Segmenter to count words').toBe(0);
  expect.soft(counted.compressedFiles, 'files compressed').toBe(ok + 3);
});
