import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readZip } from '../support/cli';
import { baseline } from './baseline';
import { ALL_FILE_FORMATS, finishedJob, startPerfApp, type PerfApp } from './finished-job';

// The export's share of the regression check (cpu-per-video.test.ts has the engine's; the real
// figure is bench/run.mjs's figure 4): the CPU time per video of writing a finished job's ZIP in all
// four formats, the least of three exports after a warm-up, against bench/baseline.json with a
// generous margin. process.cpuUsage() counts every thread of the process, so the compression thread
// is in it; the simulator sends nothing while the ZIP is written.

const VIDEOS = 1000;
let perf: PerfApp;

beforeAll(async () => {
  perf = await startPerfApp();
});

afterAll(() => perf.close());

it(`spends no more CPU per exported video than ${baseline.margin}x the recorded baseline`, async () => {
  const jobId = await finishedJob(perf, `PLperfExportRegression_n${VIDEOS}`);
  const perVideo: number[] = [];
  // The first export warms the code up, as a long export would be; only the next three count.
  for (let run = 0; run < 4; run++) {
    const destination = join(perf.dataDir, `corpus-${run}.zip`);
    const before = process.cpuUsage();
    const written = await perf.api.exportJob({ jobId, formats: ALL_FILE_FORMATS, destination });
    const used = process.cpuUsage(before);
    expect(written.jobFinished).toBe(true);
    if (run > 0) perVideo.push((used.user + used.system) / 1000 / VIDEOS);
  }
  // What was timed is a whole corpus: every video listed, with files in all four formats.
  const zip = await readZip(join(perf.dataDir, 'corpus-3.zip'));
  expect(zip.index.slice(1)).toHaveLength(VIDEOS);
  expect(zip.entries.filter((entry) => entry.name.startsWith('vtt/')).length).toBeGreaterThan(VIDEOS / 2);

  const least = Math.min(...perVideo);
  console.log(
    `export CPU per video: ${perVideo.map((ms) => ms.toFixed(3)).join(', ')} ms (baseline ${baseline.exportCpuMillisecondsPerVideo} ms)`,
  );
  expect(least).toBeLessThanOrEqual(baseline.exportCpuMillisecondsPerVideo * baseline.margin);
}, 120_000);
