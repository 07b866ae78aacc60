import { join } from 'node:path';
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ALL_FILE_FORMATS, finishedJob, startPerfApp, type PerfApp } from './finished-job';

// The memory side of the regression check (bench/run.mjs's figure 3 measures the whole command):
// what an export keeps on the heap must not grow with its videos. Everything that does grow (the
// central directory, the checksum list, the tables) waits in files beside the ZIP; a set or list kept
// per video, like the file-name guard that once kept every stem (about 18 MB at 100,000 videos), shows
// here as the heap's floor rising from the first quarter of the export to the last.

// A full collection on demand: the flag, then a fresh context, which is given `gc`.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const VIDEOS = 6000;
/**
 * Videos between two looks at the heap during an export: often enough that, in each quarter, some look
 * finds the write batches of the ZIP's spools (append-file.ts, up to 256 KiB of small buffers each) nearly
 * empty, so that what they hold for the moment is not read as the floor rising.
 */
const SAMPLE_EVERY = 50;
let perf: PerfApp;
let jobId: number;

beforeAll(async () => {
  perf = await startPerfApp();
  jobId = await finishedJob(perf, `PLperfExportHeap_n${VIDEOS}`);
}, 60_000);

afterAll(() => perf.close());

/** Heap in use after a full collection, in bytes. */
function heapInUse(): number {
  collectGarbage();
  return getHeapStatistics().used_heap_size;
}

/**
 * How much the heap's floor rises over an export: the least heap in use (after a full collection)
 * at every SAMPLE_EVERY-th video of its last quarter, less the least in its first quarter. The least of
 * several looks leaves out what is only passing through (a batch of files on its way to compression).
 */
async function heapFloorRise(jobId: number, run: number): Promise<number> {
  const samples: Array<{ done: number; heap: number }> = [];
  // Progress is reported synchronously, from inside the export, as each video is taken up.
  const stop = perf.app.on('exportProgress', ({ jobId: exported, done }) => {
    if (exported === jobId && done % SAMPLE_EVERY === 0) samples.push({ done, heap: heapInUse() });
  });
  try {
    // A new file each time: over an earlier export of the unchanged job, the export keeps that file.
    const destination = join(perf.dataDir, `job-${jobId}-${run}.zip`);
    await perf.api.exportJob({ jobId, formats: ALL_FILE_FORMATS, destination });
  } finally {
    stop();
  }
  const floor = (from: number, to: number): number =>
    Math.min(...samples.filter(({ done }) => done > from && done <= to).map(({ heap }) => heap));
  return floor((VIDEOS * 3) / 4, VIDEOS) - floor(0, VIDEOS / 4);
}

it(`keeps the heap's floor level over a ${VIDEOS.toLocaleString('en')}-video export`, async () => {
  // Once to warm up (compiled code, caches, prepared statements), then measured.
  await heapFloorRise(jobId, 1);
  const rise = await heapFloorRise(jobId, 2);
  console.log(`heap floor rise over the export: ${(rise / 1024).toFixed(0)} KiB over ${VIDEOS} videos`);
  // Three quarters of the videos lie between the two floors: at most 80 bytes each. Since issue 45's
  // one pass the floor moves by up to about 280 KiB from run to run without growing with the videos
  // (not yet explained: bench/RESULTS.md's figure 3 measures the whole command); a file name kept for
  // every video (about 100 bytes, and its slot) would still not fit.
  expect(rise).toBeLessThan(((VIDEOS * 3) / 4) * 80);
}, 120_000);

/** Bytes in V8's space for new objects too large for the young generation's pages (over 128 KiB). */
function newLargeObjects(): number {
  const space = getHeapSpaceStatistics().find(({ space_name }) => space_name === 'new_large_object_space');
  if (space === undefined) throw new Error('this V8 reports no new large-object space');
  return space.space_size;
}

it('makes no large strings while writing the tables and the checksum list', async () => {
  // Large objects go to a space of their own, which only a collection empties; near the end of an
  // export, when little else is allocated, such pieces of text piled up there (16 MiB at 20,000
  // videos, the peak of the whole command). A look every few milliseconds sees the pile.
  let most = 0;
  const look = setInterval(() => (most = Math.max(most, newLargeObjects())), 2);
  try {
    const destination = join(perf.dataDir, `job-${jobId}-large.zip`);
    await perf.api.exportJob({ jobId, formats: ALL_FILE_FORMATS, destination });
  } finally {
    clearInterval(look);
  }
  console.log(`most in the new large-object space during the export: ${(most / 1024).toFixed(0)} KiB`);
  expect(most).toBeLessThan(1024 * 1024);
}, 120_000);
