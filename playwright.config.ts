import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests of the renderer in a real browser: Debian's Chromium, or the one CHROMIUM_PATH
 * names (no browser is ever downloaded), driving `scriptorium ui` over a simulator; each test starts and stops its own.
 * Run after `npm run build:app && npm run build:cli` (npm test does both).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  // Two cores, shared: one browser at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  reporter: [['list'], ['json', { outputFile: 'out/e2e-results.json' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 860 },
    locale: 'en-US',
    timezoneId: 'UTC',
    acceptDownloads: true,
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-gpu',
      ],
    },
  },
});
