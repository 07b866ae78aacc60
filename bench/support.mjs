// What the benchmark scripts (run.mjs, renderer.mjs, library.mjs, chaos.mjs) share: the CLI they
// drive, the simulator in a process of its own, modules bundled from the sources, and how a figure's
// runs are kept and printed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const cli = join(root, 'bin', 'scriptorium');

/**
 * `scriptorium sim` on a free port of 127.0.0.1, with credits to spare and `extraArgs`; `admin` calls
 * its /__admin/ routes (`admin('POST', 'reset')`), `stop` sends Ctrl+C and waits for it to exit.
 */
export async function startSimulator(extraArgs = []) {
  const child = spawn(
    process.execPath,
    [cli, 'sim', '--port', '0', '--credits', '1000000000', ...extraArgs],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  for await (const chunk of child.stdout) {
    output += chunk;
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output)?.[0];
    const key = /API key: (\S+)/.exec(output)?.[1];
    if (url && key) {
      child.stdout.resume();
      const admin = async (method, route, body) => {
        const response = await fetch(`${url}/__admin/${route}`, {
          method,
          ...(body !== undefined && {
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }),
        });
        if (!response.ok)
          throw new Error(`${method} /__admin/${route}: ${response.status} ${await response.text()}`);
        return response.json();
      };
      const stop = () => {
        if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
        return new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill('SIGINT');
        });
      };
      return { child, url, key, admin, stop };
    }
  }
  throw new Error(`the simulator did not start:\n${output}`);
}

/** Keeps a figure's runs in `results.figures` and prints their min and median. */
export function record(results, figure, label, values, digits = 3) {
  const min = Math.min(...values);
  const middle = median(values);
  (results.figures[figure] ??= {})[label] = { values, min, median: middle };
  console.log(`    => ${label}: min ${min.toFixed(digits)}, median ${middle.toFixed(digits)}`);
}

/** The median of `values`; of an even count, the lower of the two middle ones. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** The load average over 1, 5 and 15 minutes, as /proc/loadavg gives it. */
export function loadAverage() {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/**
 * CPU seconds (user + system) a running process has used so far, from /proc/<pid>/stat: every thread's,
 * or with `thread` that thread's alone (the main thread's id is the pid); undefined once it has exited.
 */
export function cpuSecondsOf(pid, thread) {
  const path = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  try {
    // utime and stime, fields 14 and 15 of /proc/<pid>/stat (after the command's parenthesis).
    const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return undefined;
  }
}

/**
 * Waits for a spawned process to end, sampling from /proc every 20 ms its peak resident set (VmHWM),
 * its CPU time and its main thread's: the thread that bounds a Node command whose other threads wait
 * for it. Resolves with those, its exit code and its wall time from `started`.
 */
export function watchProcess(child, started = performance.now()) {
  return new Promise((resolve) => {
    let peakRss = 0;
    let cpuSeconds = 0;
    let mainCpuSeconds = 0;
    const timer = setInterval(() => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        peakRss = Math.max(peakRss, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024);
      } catch {
        // the process has just exited
      }
      cpuSeconds = cpuSecondsOf(child.pid) ?? cpuSeconds;
      mainCpuSeconds = cpuSecondsOf(child.pid, child.pid) ?? mainCpuSeconds;
    }, 20);
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ code, seconds: (performance.now() - started) / 1000, peakRss, cpuSeconds, mainCpuSeconds });
    });
  });
}

const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

export function machine() {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

export function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Modules of the sources, bundled for this run (in bench/.work/<name>, inside the project so that
 * the bundle finds the packages) and imported: `exports` maps each source path, relative to the
 * project, to the names it gives.
 */
export async function bundleSources(name, exports) {
  const bundleDir = join(root, 'bench', '.work', name);
  mkdirSync(bundleDir, { recursive: true });
  const entry = join(bundleDir, 'entry.ts');
  const lines = Object.entries(exports).map(
    ([path, names]) => `export { ${names.join(', ')} } from '${root}${path}';`,
  );
  writeFileSync(entry, lines.join('\n'));
  await build({
    input: entry,
    platform: 'node',
    transform: { define: { __APP_VERSION__: JSON.stringify('bench') } },
    // Packages stay outside, but a JSON file (spdx-license-ids) is bundled: Node would need an import
    // attribute to load it.
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.endsWith('.json'),
    output: { file: join(bundleDir, 'core.mjs'), format: 'esm' },
    logLevel: 'silent',
  });
  return import(join(bundleDir, 'core.mjs'));
}

/**
 * mulberry32 from `seed`: the same numbers in [0, 1) every run, in integer arithmetic throughout (a
 * multiplier past 2^53 would lose the low bits and repeat itself).
 */
export function seededRandom(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
