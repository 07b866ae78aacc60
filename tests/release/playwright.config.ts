import { defineConfig } from '@playwright/test';

/**
 * The new-user flow in an installed package, driven by Playwright's Electron support. It runs in the
 * release workflow (.github/workflows/release.yml), on machines with the packaged app and a display;
 * SCRIPTORIUM_APP names the installed executable. npm test does not run it.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 1,
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  forbidOnly: true,
  reporter: [['list']],
});
