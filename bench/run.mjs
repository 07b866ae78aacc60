#!/usr/bin/env node
// Benchmarks for RESULTS.md: end-to-end job throughput against the simulator, the simulator's
// raw HTTP rate from a load generator in the same run, peak RSS by job size, and ZIP export
// time beside `zip -q -r` over the same files. Run with `npm run bench` (it builds the CLI first).
//
// Every process talks only to 127.0.0.1; everything stops by itself.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'scriptorium');
const sizes = (process.env.BENCH_SIZES ?? '2000,20000').split(',').map(Number);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const loadRequests = Number(process.env.BENCH_LOAD_REQUESTS ?? 20000);

const sim = await startSimulator();
try {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  console.log(`machine: ${machine}`);
  console.log(`concurrency: ${concurrency}`);

  const raw = await measureRawRate(sim.url, sim.key, loadRequests, concurrency);
  console.log(
    `raw simulator rate (GET /api/v2/transcript, ${loadRequests} requests, ${concurrency} connections): ${raw.toFixed(0)} req/s`,
  );

  for (const size of sizes) {
    const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-'));
    const out = join(dataDir, 'corpus.zip');
    const args = ['export', `PLbench${size}_n${size}`, '--out', out, '--concurrency', String(concurrency)];
    const env = {
      TRANSCRIPT_API_KEY: sim.key,
      TRANSCRIPT_API_BASE_URL: sim.url,
      SCRIPTORIUM_DATA_DIR: dataDir,
    };
    const job = await runMeasured(cli, args, env);
    const again = await runMeasured(cli, args, env); // finished job: export only, no request
    const fetchSeconds = job.seconds - again.seconds;
    console.log(
      `job of ${size} videos: ${job.seconds.toFixed(1)} s end to end (exit ${job.code}), ` +
        `${(size / job.seconds).toFixed(0)} transcripts/s end to end, ` +
        `${(size / fetchSeconds).toFixed(0)} transcripts/s excluding the ZIP export, peak RSS ${mib(job.peakRss)}`,
    );
    console.log(
      `export only of ${size} transcripts (4 formats): ${again.seconds.toFixed(2)} s, peak RSS ${mib(again.peakRss)}, ` +
        `ZIP ${mib(statSync(out).size)} (exit ${again.code})`,
    );
    const unpacked = join(dataDir, 'unpacked');
    spawnSync('unzip', ['-q', out, '-d', unpacked], { stdio: 'inherit' });
    const started = performance.now();
    spawnSync('zip', ['-q', '-r', join(dataDir, 'by-zip.zip'), '.'], { cwd: unpacked, stdio: 'inherit' });
    console.log(
      `zip -q -r over the same ${size}×4 files on disk: ${((performance.now() - started) / 1000).toFixed(2)} s`,
    );
    rmSync(dataDir, { recursive: true, force: true });
  }
} finally {
  sim.child.kill('SIGINT');
}

async function startSimulator() {
  const child = spawn(process.execPath, [cli, 'sim', '--port', '0', '--credits', '100000000'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  for await (const chunk of child.stdout) {
    output += chunk;
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output)?.[0];
    const key = /API key: (\S+)/.exec(output)?.[1];
    if (url && key) return { child, url, key };
  }
  throw new Error(`the simulator did not start:\n${output}`);
}

async function measureRawRate(url, key, total, connections) {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const headers = { authorization: `Bearer ${key}`, 'user-agent': 'scriptorium-bench' };
  let next = 0;
  const started = performance.now();
  async function worker() {
    while (next < total) {
      const id = `ld${String(next++).padStart(9, '0')}`;
      const path = `/api/v2/transcript?video_url=${id}&format=json&include_timestamp=true&send_metadata=true`;
      const response = await pool.request({ method: 'GET', path, headers });
      await response.body.arrayBuffer();
    }
  }
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return total / seconds;
}

/** Runs a CLI command and samples its peak resident set (VmHWM) from /proc while it runs. */
function runMeasured(command, args, env) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [command, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    let peakRss = 0;
    const sample = () => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kib = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        peakRss = Math.max(peakRss, kib * 1024);
      } catch {
        // the process has just exited
      }
    };
    const timer = setInterval(sample, 20);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) console.error(stderr);
      resolve({ code, seconds: (performance.now() - started) / 1000, peakRss });
    });
  });
}

function mib(bytes) {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}
