import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { tempDir } from '../../support/cli';
import { startUi, type RunningUi } from './ui';

// The README's screenshots are rewritten only when asked (`npm run screenshots`); an ordinary test run
// saves its own under out/, so that running the tests never changes tracked files.
const SCREENSHOTS = fileURLToPath(
  new URL(
    process.env.UPDATE_SCREENSHOTS === '1' ? '../../../docs/screenshots/' : '../../../out/screenshots/',
    import.meta.url,
  ),
);

interface Options {
  /** The simulator's starting credits. */
  credits: number;
  /** Added delay per simulated request, to watch a job at work. */
  latencyMs: number;
  /** Start `scriptorium ui` with the simulator's address and key, as a configured machine would. */
  configured: boolean;
}

interface Fixtures {
  sim: RunningSimulator;
  /** The data folder `scriptorium ui` (and any CLI run of the test) uses. */
  dataDir: string;
  ui: RunningUi;
  /** The page, opened at the ui's address (its private path carries the token). */
  app: Page;
}

/**
 * Each test gets its own simulator (in this process, on 127.0.0.1 port 0), its own data folder and
 * its own `scriptorium ui`, and stops them all at its end.
 */
export const test = base.extend<Options & Fixtures>({
  credits: [10_000, { option: true }],
  latencyMs: [0, { option: true }],
  configured: [true, { option: true }],

  sim: async ({ credits, latencyMs }, use) => {
    const sim = await startSimulator({ credits, latencyMs });
    await use(sim);
    await sim.close();
  },
  // Playwright reads a fixture's dependencies from its first parameter: this one has none.
  // eslint-disable-next-line no-empty-pattern
  dataDir: async ({}, use) => {
    const dir = tempDir('scriptorium-e2e-');
    await use(join(dir, 'data'));
    rmSync(dir, { recursive: true, force: true });
  },
  ui: async ({ sim, dataDir, configured }, use) => {
    const ui = await startUi(configured ? { dataDir, baseUrl: sim.url, key: sim.key } : { dataDir });
    await use(ui);
    await ui.stop();
  },
  app: async ({ page, ui }, use) => {
    // An exception in the page is a bug, whatever the test looks at.
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.stack ?? error.message));
    await page.goto(ui.url);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await use(page);
    expect(errors, 'errors thrown in the page').toEqual([]);
  },
});

export { expect };

/** No serious or critical axe-core violation on the page as it is now. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .map((node) => node.target.join(' '))
          .join(', ')}`,
    );
  expect(serious, `axe-core on ${screen}`).toEqual([]);
}

/** Saves the page as <name>.png, in docs/screenshots for the README when asked, else in out/screenshots. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** Calls the simulator's admin API over HTTP, as a test of another process would. */
export async function admin(sim: RunningSimulator, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${sim.url}/__admin/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.ok, `POST /__admin/${path}`).toBe(true);
}
