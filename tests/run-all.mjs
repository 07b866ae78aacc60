#!/usr/bin/env node
// Runs every test: vitest's suite and Playwright (the renderer in a real browser) side by side,
// then vitest's perf checks alone, since they measure CPU time and heap. Ends with the one plain
// line CI reads: `N passed, N failed, N skipped`, summed over the three. Exits non-zero if any
// runner failed. Expects the app and the CLI built (npm test builds them first).
//
// Side by side because neither fills the machine alone: the browser tests mostly wait on the page,
// and the suite's CLI tests on their child processes. vitest's output streams as it comes;
// Playwright's is held and printed whole when it ends, so the two never interleave.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const E2E_RESULTS = `${root}out/e2e-results.json`;
const SUMMARY = /(\d+) passed, (\d+) failed, (\d+) skipped/g;

/**
 * Runs a command in the project folder; resolves with its output and exit code. `live` shows the
 * output as it comes; otherwise it is printed once the command ends.
 */
function run(command, args, { env = {}, live = true } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (live) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      if (live) process.stderr.write(chunk);
      else errors += chunk;
    });
    child.on('close', (code, signal) => {
      if (!live) {
        process.stdout.write(output);
        process.stderr.write(errors);
      }
      resolve({ output, code: code ?? (signal ? 1 : 0) });
    });
  });
}

/** vitest's own last summary line (tests/support/summary-reporter.ts). */
function vitestCounts(output) {
  const last = [...output.matchAll(SUMMARY)].at(-1);
  if (last === undefined) return null;
  return { passed: Number(last[1]), failed: Number(last[2]), skipped: Number(last[3]) };
}

/** Playwright's JSON report: expected and flaky tests passed, unexpected ones failed. */
function playwrightCounts() {
  try {
    const { stats } = JSON.parse(readFileSync(E2E_RESULTS, 'utf8'));
    return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
  } catch {
    return null;
  }
}

const bin = (name) => `${root}node_modules/.bin/${name}`;

rmSync(E2E_RESULTS, { force: true });
const [suite, playwright] = await Promise.all([
  run(bin('vitest'), ['run', '--project', 'suite']),
  run(bin('playwright'), ['test'], { env: { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' }, live: false }),
]);
const perf = await run(bin('vitest'), ['run', '--project', 'perf']);

const total = { passed: 0, failed: 0, skipped: 0 };
for (const [runner, counts] of [
  ['vitest (suite)', vitestCounts(suite.output)],
  ['Playwright', playwrightCounts()],
  ['vitest (perf checks)', vitestCounts(perf.output)],
]) {
  if (counts === null) {
    // A runner that could not report (it crashed before its end) counts as one failure.
    process.stdout.write(`\n${runner} gave no count of its tests: it stopped before its end.\n`);
    total.failed += 1;
    continue;
  }
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
process.stdout.write(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
const failed = [suite, playwright, perf].some((runner) => runner.code !== 0) || total.failed > 0;
process.exit(failed ? 1 : 0);
