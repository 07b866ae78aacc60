#!/usr/bin/env node
// Runs both test runners, vitest then Playwright (the renderer in a real browser), and ends with
// the one plain line CI reads: `N passed, N failed, N skipped`, summed over both. Exits non-zero if
// either runner failed. Expects the app and the CLI built (npm test builds them first).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const E2E_RESULTS = `${root}out/e2e-results.json`;
const SUMMARY = /(\d+) passed, (\d+) failed, (\d+) skipped/g;

/** Runs a command in the project folder, its output shown as it comes; resolves with it and the exit code. */
function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (code, signal) => resolve({ output, code: code ?? (signal ? 1 : 0) }));
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

const vitest = await run(bin('vitest'), ['run']);
rmSync(E2E_RESULTS, { force: true });
const playwright = await run(bin('playwright'), ['test'], { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' });

const total = { passed: 0, failed: 0, skipped: 0 };
for (const [runner, counts] of [
  ['vitest', vitestCounts(vitest.output)],
  ['Playwright', playwrightCounts()],
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
process.exit(vitest.code !== 0 || playwright.code !== 0 || total.failed > 0 ? 1 : 0);
