#!/usr/bin/env node
// Exporting a job again to the ZIP of its earlier export (issue 20), each beside `zip -q -r` over the
// same files unpacked, in one run, alternated, BENCH_REPEATS times (default 3), min and median:
//   R1. a 20,000-video channel job exported again, unchanged / zip over its files (wall)
//   R2. the same job after a sync added 1 % new videos, exported over the earlier ZIP / zip (wall)
//   R3. peak RSS of the export command in R1 and R2
//   R4. the first export of the finished job (to a new path): wall, and CPU per video against
//       bench/baseline.json's exportCpuMillisecondsPerVideo
// Run with `npm run bench:reexport` (it builds first). BENCH_VIDEOS changes the job's size.
// Every process talks only to 127.0.0.1 and stops by itself.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, cpuSecondsOf, loadAverage, machine, record, root, startSimulator } from './support.mjs';

const repeats = Number(process.env.BENCH_REPEATS ?? 3);
const videos = Number(process.env.BENCH_VIDEOS ?? 20_000);
const newVideos = Math.ceil(videos / 100);
const CHANNEL = `@benchReexport_n${videos}`;
const baseline = JSON.parse(readFileSync(join(root, 'bench', 'baseline.json'), 'utf8'));
const results = { machine: machine(), repeats, videos, figures: {} };

console.log(`machine: ${results.machine}; ${repeats} repeats; ${videos} videos; load ${loadAverage()}`);
const sim = await startSimulator([]);
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-reexport-'));
try {
  const data = join(dir, 'data');
  const args = (out) => ['export', CHANNEL, '--out', out, '--concurrency', '16'];
  const first = join(dir, 'v1.zip');
  await runCli(args(first), data); // the job, fetched once
  const unpackedV1 = unpack(first, 'v1');

  const firstWall = [];
  const firstCpu = [];
  const unchanged = [];
  const unchangedRss = [];
  for (let run = 0; run < repeats; run++) {
    const scratch = await runCli(args(join(dir, `scratch-${run}.zip`)), data);
    rmSync(join(dir, `scratch-${run}.zip`));
    firstWall.push(scratch.seconds);
    firstCpu.push((scratch.cpuSeconds * 1000) / videos);
    const again = join(dir, 'again.zip');
    copyFileSync(first, again);
    const exported = await runCli(args(again), data);
    const zipSeconds = zipTime(unpackedV1);
    unchanged.push(exported.seconds / zipSeconds);
    unchangedRss.push(exported.peakRss / 2 ** 20);
    console.log(
      `[R1] run ${run + 1}: export again ${exported.seconds.toFixed(2)} s (${exported.copyLine}), zip ${zipSeconds.toFixed(2)} s, ratio ${(exported.seconds / zipSeconds).toFixed(3)}, peak RSS ${(exported.peakRss / 2 ** 20).toFixed(1)} MiB; ` +
        `first export ${scratch.seconds.toFixed(2)} s, ${firstCpu.at(-1).toFixed(3)} ms CPU/video; load ${loadAverage()}`,
    );
  }
  record(results, 'R1', `unchanged ${videos}-video job exported again / zip -q -r (wall)`, unchanged);
  record(results, 'R3', 'peak RSS of the export again, unchanged, MiB', unchangedRss, 1);
  record(results, 'R4', `first export of the finished ${videos}-video job, wall seconds`, firstWall, 2);
  record(
    results,
    'R4',
    `first export, CPU ms per video (baseline ${baseline.exportCpuMillisecondsPerVideo})`,
    firstCpu,
  );

  await sim.admin('POST', 'uploads', { channel: CHANNEL, count: newVideos });
  const synced = await runCli(['sync', '1'], data);
  if (synced.code !== 0) throw new Error(`the sync failed (exit ${synced.code})`);
  const grown = join(dir, 'v2.zip');
  await runCli(args(grown), data);
  const unpackedV2 = unpack(grown, 'v2');
  const afterSync = [];
  const afterSyncRss = [];
  for (let run = 0; run < repeats; run++) {
    const again = join(dir, 'again.zip');
    copyFileSync(first, again);
    const exported = await runCli(args(again), data);
    const zipSeconds = zipTime(unpackedV2);
    afterSync.push(exported.seconds / zipSeconds);
    afterSyncRss.push(exported.peakRss / 2 ** 20);
    const identical = readFileSync(again).equals(readFileSync(grown));
    console.log(
      `[R2] run ${run + 1}: export over version 1 ${exported.seconds.toFixed(2)} s (${exported.copyLine}), zip ${zipSeconds.toFixed(2)} s, ratio ${(exported.seconds / zipSeconds).toFixed(3)}, peak RSS ${(exported.peakRss / 2 ** 20).toFixed(1)} MiB, same bytes as from scratch: ${identical}; load ${loadAverage()}`,
    );
    if (!identical) throw new Error('the export over version 1 differs from the export from scratch');
  }
  record(results, 'R2', `after a sync added ${newVideos} videos: export again / zip -q -r (wall)`, afterSync);
  record(results, 'R3', 'peak RSS of the export again after the sync, MiB', afterSyncRss, 1);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await sim.stop();
}
mkdirSync(join(root, 'bench', '.work'), { recursive: true });
writeFileSync(join(root, 'bench', '.work', 'reexport.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log('\nAll figures: bench/.work/reexport.json');

// ---------------------------------------------------------------------------------------------

function unpack(zip, name) {
  const folder = join(dir, `unpacked-${name}`);
  spawnSync('unzip', ['-q', zip, '-d', folder]);
  return folder;
}

/** `zip -q -r` over the unpacked files, timed. */
function zipTime(folder) {
  const out = join(dir, 'by-zip.zip');
  rmSync(out, { force: true });
  const started = performance.now();
  spawnSync('zip', ['-q', '-r', out, '.'], { cwd: folder });
  return (performance.now() - started) / 1000;
}

/** Runs a CLI command to its end: wall time, CPU time (every thread) and peak RSS from /proc. */
function runCli(args, dataDir) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, ...args], {
      env: {
        ...process.env,
        TRANSCRIPT_API_KEY: sim.key,
        TRANSCRIPT_API_BASE_URL: sim.url,
        SCRIPTORIUM_DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    let peakRss = 0;
    let cpuSeconds = 0;
    const timer = setInterval(() => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        peakRss = Math.max(peakRss, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024);
        cpuSeconds = cpuSecondsOf(child.pid) ?? cpuSeconds;
      } catch {
        // the process has just exited
      }
    }, 20);
    child.on('close', (code) => {
      clearInterval(timer);
      if (code !== 0) console.error(stderr);
      const copyLine = /([\d,]+ files? copied unchanged.*)$/m.exec(stdout)?.[1] ?? 'nothing copied';
      resolve({ code, seconds: (performance.now() - started) / 1000, peakRss, cpuSeconds, copyLine });
    });
  });
}
