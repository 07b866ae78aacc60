#!/usr/bin/env node
// The speed and memory figures of bench/RESULTS.md, each measured directly and beside its
// comparison in the same run (alternated, repeated, min and median reported):
//   1. walk + fetch rate / the simulator's raw rate, latency 0
//   2. walk + fetch rate / (concurrency / latency), latency 100 ms, 16 and 64 in flight
//   3. peak RSS of the whole export command, by job size
//   4. the first export of a finished job / `zip -q -r` over the same files, and an earlier build's
//      export of the same job beside them (BENCH_OLD_CLI: that build's out/cli/index.js)
//   5. from starting an unfinished job again to its first request
//   6. pacing under a 300-requests-a-minute limit
// Run with `npm run bench` (it builds first). BENCH_LARGE=1 adds the 100,000-video job;
// BENCH_REPEATS (default 3) and BENCH_ONLY (a comma list of figure numbers) narrow the run, and
// BENCH_SIZES (a comma list of job sizes, for a smoke run: `BENCH_SIZES=300`) replaces the sizes of
// figures 3 to 5 (figure 4 then runs at the largest of them up to 20,000).
// Every process talks only to 127.0.0.1 and stops by itself.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cli,
  loadAverage,
  machine,
  median,
  record,
  root,
  startSimulator,
  wait,
  watchProcess,
} from './support.mjs';
const repeats = Number(process.env.BENCH_REPEATS ?? 3);
const large = process.env.BENCH_LARGE === '1';
const only = process.env.BENCH_ONLY?.split(',').map(Number);
const sizes = process.env.BENCH_SIZES
  ? process.env.BENCH_SIZES.split(',').map(Number)
  : large
    ? [2_000, 20_000, 100_000]
    : [2_000, 20_000];
/** The size figure 4 compares the export with zip at: 20,000 videos unless BENCH_SIZES says otherwise. */
const exportSize = Math.max(...sizes.filter((n) => n <= 20_000));
const CONCURRENCY = 16;
const wanted = (figure) => only === undefined || only.includes(figure);
const results = { machine: machine(), repeats, figures: {} };

console.log(`machine: ${results.machine}; ${repeats} repeats${large ? '; with 100,000 videos' : ''}`);
if (wanted(1)) await throughput();
if (wanted(2)) await latencyHiding();
if (wanted(3) || wanted(4) || wanted(5)) await bySize();
if (wanted(6)) await pacing();
mkdirSync(join(root, 'bench', '.work'), { recursive: true });
writeFileSync(join(root, 'bench', '.work', 'last.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log('\nAll figures: bench/.work/last.json');

// ---------------------------------------------------------------------------------------------

/** Figure 1: the engine's walk + fetch rate against the raw rate of the same simulator. */
async function throughput() {
  const sim = await startSimulator([]);
  try {
    for (const size of sizes.filter((n) => n <= 20_000)) {
      const ratios = [];
      for (let run = 0; run < repeats; run++) {
        const raw = await rawRate(sim, size, CONCURRENCY);
        const engine = await engineRate(sim, size, CONCURRENCY);
        ratios.push(engine.rate / raw);
        console.log(
          `[1] ${size} videos, run ${run + 1}: engine ${engine.rate.toFixed(0)}/s, raw ${raw.toFixed(0)}/s, ratio ${(engine.rate / raw).toFixed(2)}`,
        );
      }
      record(
        results,
        1,
        `${size} videos: walk + fetch rate / raw rate (latency 0, ${CONCURRENCY} in flight)`,
        ratios,
      );
    }
  } finally {
    await sim.stop();
  }
}

/**
 * Figure 2: with 100 ms of latency, how close the engine comes to concurrency / latency; beside it,
 * how close the load generator itself comes on the same simulator, which bounds what any client can,
 * and with BENCH_OLD_CLI an earlier build's engine, each round starting with the next contestant.
 */
async function latencyHiding() {
  const sim = await startSimulator(['--latency', '100']);
  try {
    for (const concurrency of [16, 64]) {
      const size = concurrency === 16 ? 2_000 : 6_000;
      const ideal = concurrency / 0.1;
      const contestants = [
        { name: 'walk + fetch rate', rate: async () => (await engineRate(sim, size, concurrency)).rate },
        { name: 'raw rate', rate: () => rawRate(sim, size, concurrency) },
      ];
      if (process.env.BENCH_OLD_CLI) {
        const oldCli = process.env.BENCH_OLD_CLI;
        contestants.push({
          name: 'old build: walk + fetch rate',
          rate: async () => (await engineRate(sim, size, concurrency, { cliPath: oldCli })).rate,
        });
      }
      const ratios = new Map(contestants.map(({ name }) => [name, []]));
      for (let run = 0; run < repeats; run++) {
        const said = [];
        for (let turn = 0; turn < contestants.length; turn++) {
          const { name, rate } = contestants[(run + turn) % contestants.length];
          const measured = await rate();
          ratios.get(name).push(measured / ideal);
          said.push(`${name} ${measured.toFixed(0)}/s (${(measured / ideal).toFixed(3)})`);
        }
        console.log(
          `[2] ${concurrency} in flight, run ${run + 1}, of ${ideal}/s: ${said.join(', ')}; load ${loadAverage()}`,
        );
      }
      for (const [name, values] of ratios)
        record(
          results,
          2,
          `latency 100 ms, ${concurrency} in flight: ${name} / (concurrency / latency)`,
          values,
        );
    }
  } finally {
    await sim.stop();
  }
}

/** Figures 3, 4 and 5 on jobs of each size: memory, export beside zip, restart to first request. */
async function bySize() {
  const sim = await startSimulator([]);
  try {
    for (const size of sizes) {
      const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-'));
      try {
        if (wanted(3)) {
          const peaks = [];
          for (let run = 0; run < repeats; run++) {
            const job = await engineRate(sim, size, CONCURRENCY, { formats: 'txt,json,srt,vtt' });
            peaks.push(job.peakRss / 2 ** 20);
            console.log(
              `[3] ${size} videos, run ${run + 1}: peak RSS ${(job.peakRss / 2 ** 20).toFixed(1)} MiB`,
            );
          }
          record(results, 3, `${size} videos: peak RSS of the whole export command, MiB`, peaks);
        }
        if (wanted(4) && size === exportSize) await exportBesideZip(sim, size, dir);
        if (wanted(5) && size === sizes.at(-1)) await restartToFirstRequest(sim, size, dir);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await sim.stop();
  }
}

/**
 * Figure 4: the first export of a finished job to a new file, beside `zip -q -r` over the same files on
 * disk and, with BENCH_OLD_CLI (the CLI of an earlier build: its out/cli/index.js or bin/scriptorium),
 * beside that build's export of the same job; each round runs the contestants one after another, each
 * round starting with the next one, so that none always runs first. Over its earlier export, an
 * unchanged job's export keeps that file: bench/reexport.mjs measures that.
 */
async function exportBesideZip(sim, size, dir) {
  const args = (out) => ['export', playlist(size), '--out', out, '--concurrency', String(CONCURRENCY)];
  const builds = [{ name: 'this build', cli }];
  if (process.env.BENCH_OLD_CLI) builds.unshift({ name: 'old build', cli: process.env.BENCH_OLD_CLI });
  else console.log('[4] BENCH_OLD_CLI unset: no row for an earlier build');
  // Each build fetches the job into a data folder of its own (an earlier build may not read a newer
  // database), then exports it to a new path each time, so that nothing of an earlier export is kept.
  const contestants = [];
  for (const build of builds) {
    const data = join(dir, `data-${contestants.length}`);
    const out = join(dir, `corpus-${contestants.length}.zip`);
    const fetched = await runCli(args(out), sim, data, build.cli);
    if (fetched.code !== 0)
      throw new Error(`${build.name}: the job's first run failed (exit ${fetched.code})`);
    const run = async () => {
      rmSync(out, { force: true });
      const exported = await runCli(args(out), sim, data, build.cli);
      if (exported.code !== 0) throw new Error(`${build.name}: the export failed (exit ${exported.code})`);
      return { ...exported, bytes: statSync(out).size };
    };
    contestants.push({ name: build.name, run, runs: [] });
  }
  const unpacked = join(dir, 'unpacked');
  spawnSync('unzip', ['-q', join(dir, `corpus-${contestants.length - 1}.zip`), '-d', unpacked]);
  const byZip = join(dir, 'by-zip.zip');
  contestants.push({
    name: 'zip -q -r',
    runs: [],
    run: async () => {
      rmSync(byZip, { force: true });
      const zipped = await watchProcess(spawn('zip', ['-q', '-r', byZip, '.'], { cwd: unpacked }));
      return { ...zipped, bytes: statSync(byZip).size };
    },
  });
  for (let round = 0; round < repeats; round++) {
    for (let turn = 0; turn < contestants.length; turn++) {
      const contestant = contestants[(round + turn) % contestants.length];
      const result = await contestant.run();
      contestant.runs.push(result);
      const cpu = `, CPU ${result.cpuSeconds.toFixed(2)} s (main thread ${result.mainCpuSeconds.toFixed(2)} s)`;
      const rss = `, peak RSS ${(result.peakRss / 2 ** 20).toFixed(1)} MiB`;
      console.log(
        `[4] ${size} videos, round ${round + 1}, ${contestant.name}: ${result.seconds.toFixed(2)} s${cpu}${rss}, ${(result.bytes / 1e6).toFixed(1)} MB; load ${loadAverage()}`,
      );
    }
  }
  const zip = contestants.at(-1);
  const zipMedian = median(zip.runs.map(({ seconds }) => seconds));
  for (const { name, runs } of contestants) {
    const seconds = runs.map((run) => run.seconds);
    record(results, 4, `first export of a finished ${size}-video job, wall seconds: ${name}`, seconds, 2);
    const cpu = runs.map((run) => run.cpuSeconds);
    record(results, 4, `the same, CPU seconds (every thread): ${name}`, cpu, 2);
    const mainCpu = runs.map((run) => run.mainCpuSeconds);
    record(results, 4, `the same, CPU seconds of the main thread: ${name}`, mainCpu, 2);
    if (name !== zip.name) {
      const ratio = median(seconds) / zipMedian;
      results.figures[4][`median / zip's median: ${name}`] = ratio;
      console.log(
        `    => ${name}: median ${median(seconds).toFixed(2)} s, ${ratio.toFixed(2)}x zip's median`,
      );
    }
  }
}

/** Figure 5: an unfinished job started again, from the command's start to its first request. */
async function restartToFirstRequest(sim, size, dir) {
  const data = join(dir, 'restart-data');
  const args = ['export', playlist(size), '--out', join(dir, 'partial.zip'), '--formats', 'txt'];
  // Every page walked and a few transcripts bought, then the budget stops it: an unfinished job.
  await runCli([...args, '--budget', String(Math.ceil(size / 100) + 10)], sim, data);
  const seconds = [];
  for (let run = 0; run < repeats; run++) {
    await sim.admin('POST', 'reset');
    const started = performance.now();
    const child = spawnCli(args, sim, data);
    while ((await sim.admin('GET', 'stats')).requests === 0) await wait(2);
    seconds.push((performance.now() - started) / 1000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));
    console.log(`[5] ${size} videos, run ${run + 1}: first request after ${seconds.at(-1).toFixed(2)} s`);
  }
  record(results, 5, `unfinished ${size}-video job started again: seconds to its first request`, seconds);
}

/** Figure 6: pacing to a 300-requests-a-minute limit: share of the limit used, share of 429s. */
async function pacing() {
  const sim = await startSimulator(['--rate', '300']);
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-'));
  try {
    const started = performance.now();
    await runCli(
      ['export', playlist(400), '--out', join(dir, 'paced.zip'), '--formats', 'txt'],
      sim,
      join(dir, 'data'),
    );
    const minutes = (performance.now() - started) / 60_000;
    const stats = await sim.admin('GET', 'stats');
    const limited = stats.byStatus['429'] ?? 0;
    const share = stats.requests / minutes / 300;
    console.log(
      `[6] ${stats.requests} requests in ${(minutes * 60).toFixed(0)} s: ${(share * 100).toFixed(0)} % of the limit, ${limited} answered 429`,
    );
    record(results, 6, 'pacing under 300/min: share of the limit used', [share]);
    record(results, 6, 'pacing under 300/min: share of requests answered 429', [limited / stats.requests]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sim.stop();
  }
}

// ---------------------------------------------------------------------------------------------

/** A playlist ID of real length (34 characters) whose simulated list holds `size` videos. */
function playlist(size) {
  const suffix = `_n${size}`;
  return `${'PLscriptoriumBench'.padEnd(34 - suffix.length, 'x')}${suffix}`;
}

/**
 * A fresh job of `size` videos run to its end; its walk + fetch rate is the phase itself, timed on
 * the simulator: from the first request it receives to the last transcript it serves.
 */
async function engineRate(sim, size, concurrency, { formats = 'txt', cliPath = cli } = {}) {
  await sim.admin('POST', 'reset');
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-'));
  try {
    const args = [
      'export',
      playlist(size),
      '--out',
      join(dir, 'c.zip'),
      '--concurrency',
      String(concurrency),
      '--formats',
      formats,
    ];
    // Every page and every transcript is one request (no retries at this latency).
    const phase = watchPhase(sim, size + Math.ceil(size / 100));
    const run = await runCli(args, sim, join(dir, 'data'), cliPath);
    const { seconds } = await phase;
    return { rate: size / seconds, peakRss: run.peakRss };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The load generator's rate: as many transcript requests, timed the same way. */
async function rawRate(sim, requests, connections) {
  await sim.admin('POST', 'reset');
  const phase = watchPhase(sim, requests);
  const child = spawn(
    process.execPath,
    [join(root, 'bench', 'load.mjs'), sim.url, sim.key, String(requests), String(connections)],
    {
      stdio: 'inherit',
    },
  );
  await new Promise((resolve) => child.on('close', resolve));
  const { seconds } = await phase;
  return requests / seconds;
}

/** From the first request the simulator sees to the moment it has answered `requests` of them. */
async function watchPhase(sim, requests) {
  while ((await sim.admin('GET', 'stats')).requests === 0) await wait(2);
  const started = performance.now();
  while ((await sim.admin('GET', 'stats')).requests < requests) await wait(10);
  return { seconds: (performance.now() - started) / 1000 };
}

function spawnCli(args, sim, dataDir, cliPath = cli) {
  return spawn(process.execPath, [cliPath, ...args], {
    env: {
      ...process.env,
      TRANSCRIPT_API_KEY: sim.key,
      TRANSCRIPT_API_BASE_URL: sim.url,
      SCRIPTORIUM_DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** Runs a CLI command (this build's, or the one at `cliPath`) to its end: see watchProcess. */
async function runCli(args, sim, dataDir, cliPath = cli) {
  const started = performance.now();
  const child = spawnCli(args, sim, dataDir, cliPath);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const run = await watchProcess(child, started);
  if (run.code !== 0 && run.code !== 3) console.error(stderr);
  return run;
}
