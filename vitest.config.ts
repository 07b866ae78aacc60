import { defineConfig } from 'vitest/config';
import pkg from './package.json' with { type: 'json' };

// The perf checks (tests/perf) measure CPU time and heap, so they run alone, one file at a time,
// after every other file has finished (npm test runs them as a run of their own, after the suite and
// the browser tests: tests/run-all.mjs); the rest run on two workers, which roughly halves the
// suite's wall time on a two-core machine (vitest's default is one worker fewer than the cores).
const PERF_CHECKS = 'tests/perf/**/*.test.ts';

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  test: {
    environment: 'node',
    pool: 'forks',
    reporters: ['default', './tests/support/summary-reporter.ts'],
    // A safety net that fails a hung test, never a verdict on speed: a CLI test runs a dozen
    // processes one after another, and two workers beside two busy loops took one past 20 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/e2e/**', PERF_CHECKS, 'node_modules/**'],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'perf',
          include: [PERF_CHECKS],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
