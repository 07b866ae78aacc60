#!/usr/bin/env node
// What a way of committing costs (each paid result on its own against groups; synchronous=FULL
// against NORMAL): two builds of the CLI, alternated run by run on one simulator, each running the
// same fresh job to its end.
// For each run: the CLI's CPU time per video over the walk + fetch phase (all its threads, from
// /proc/<pid>/stat, so the checkpoint thread counts too) and the phase's rate, both timed at the
// simulator from its first request to its last answer. Linux only (/proc).
//
//   node bench/durability.mjs LABEL=path/to/cli/index.js LABEL=path/to/cli/index.js
//
// Build each variant with `npx vite build --config vite.cli.config.ts --outDir bench/.work/<name>`.
// BENCH_REPEATS (default 5) runs of each; BENCH_VIDEOS (default 6,000) videos a job; BENCH_RATE, when
// set, the simulator's rate limit in requests per minute per key (the service's published pace is
// 300), else none (the raw simulator). The data folder is made in the system's temporary folder,
// which must be a disk (not tmpfs) for an fsync to cost what it costs a user.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { machine, record, startSimulator, wait } from './support.mjs';

const builds = process.argv.slice(2).map((argument) => {
  const [label, path] = argument.split('=');
  if (!label || !path) throw new Error(`expected LABEL=path/to/index.js, got ${argument}`);
  return { label, cli: resolve(path) };
});
if (builds.length < 2) throw new Error('give two builds to compare, as LABEL=path/to/index.js');
const repeats = Number(process.env.BENCH_REPEATS ?? 5);
const videos = Number(process.env.BENCH_VIDEOS ?? 6_000);
const ratePerMinute = process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : undefined;
const CONCURRENCY = 16;
// Under a rate limit every build meets the same pace: the rate is then told to the hundredth.
const rateDigits = ratePerMinute ? 2 : 0;
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const results = { machine: machine(), repeats, videos, ratePerMinute, figures: {} };

console.log(
  `machine: ${results.machine}; ${repeats} runs of each build, ${videos} videos, ${CONCURRENCY} in flight, ` +
    (ratePerMinute ? `${ratePerMinute} requests a minute` : 'no rate limit'),
);
const sim = await startSimulator(ratePerMinute ? ['--rate', String(ratePerMinute)] : []);
const runs = new Map(builds.map((build) => [build.label, { cpu: [], rate: [] }]));
try {
  for (let run = 0; run < repeats; run++) {
    // Alternated, and in turn first, so that neither build always meets the machine in the same mood.
    const order = run % 2 === 0 ? builds : [...builds].reverse();
    for (const build of order) {
      const measured = await measure(build.cli);
      runs.get(build.label).cpu.push(measured.cpuMsPerVideo);
      runs.get(build.label).rate.push(measured.rate);
      console.log(
        `${build.label}, run ${run + 1}: ${measured.cpuMsPerVideo.toFixed(3)} ms of CPU per video, ${measured.rate.toFixed(rateDigits)} videos/s`,
      );
    }
  }
} finally {
  await sim.stop();
}
for (const [label, { cpu, rate }] of runs) {
  record(results, 1, `${label}: CPU ms per video, walk + fetch`, cpu);
  record(results, 1, `${label}: videos a second, walk + fetch`, rate, rateDigits);
}

/** One fresh job run to its end by the CLI at `cli`; its phase timed and its CPU read at the simulator's edges. */
async function measure(cli) {
  await sim.admin('POST', 'reset');
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-durability-'));
  try {
    const child = spawn(
      process.execPath,
      [
        cli,
        'export',
        playlist(videos),
        '--out',
        join(dir, 'c.zip'),
        '--concurrency',
        String(CONCURRENCY),
        '--formats',
        'txt',
      ],
      {
        env: {
          ...process.env,
          TRANSCRIPT_API_KEY: sim.key,
          TRANSCRIPT_API_BASE_URL: sim.url,
          SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
        },
        stdio: ['ignore', 'ignore', 'ignore'],
      },
    );
    const exited = new Promise((resolve) => child.on('close', resolve));
    // Every list page and every transcript is one request.
    const requests = videos + Math.ceil(videos / 100);
    while ((await answered()) === 0) await wait(2);
    const cpuBefore = cpuSeconds(child.pid);
    const started = performance.now();
    while ((await answered()) < requests) await wait(5);
    const cpuAfter = cpuSeconds(child.pid);
    const seconds = (performance.now() - started) / 1000;
    const code = await exited;
    if (code !== 0) throw new Error(`the export exited ${code}`);
    return { cpuMsPerVideo: ((cpuAfter - cpuBefore) * 1000) / videos, rate: videos / seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Requests the simulator answered, less those it refused for the rate limit (the client asks again). */
async function answered() {
  const { requests, byStatus } = await sim.admin('GET', 'stats');
  return requests - (byStatus['429'] ?? 0);
}

/** User and system CPU of the process, all threads, in seconds. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** A playlist ID of real length (34 characters) whose simulated list holds `size` videos. */
function playlist(size) {
  const suffix = `_n${size}`;
  return `${'PLscriptoriumDurability'.padEnd(34 - suffix.length, 'x')}${suffix}`;
}
