/**
 * Issue 35 in browser mode, as a new user meets it: at 800×600 and 1280×800, light and dark, from the
 * keyboard. Each screen says what happened next to what caused it, and nothing moves under the mouse.
 */
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { runCli } from '../support/cli';
import { expect, expectAccessible, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, pasteSources, startJob } from './support/screens';
import { startUi } from './support/ui';

/** The element's box; fails the test when it has none (not rendered). */
async function box(page: Page, selector: Parameters<Page['locator']>[0]) {
  const found = await page.locator(selector).boundingBox();
  expect(found, `${selector} has a box`).not.toBeNull();
  return found!;
}

test.describe('at 800×600', () => {
  test.use({ viewport: { width: 800, height: 600 } });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`Export (${colorScheme}): the Download link stays in the dialog with its verb, keeps the focus, and the file follows the corpus title, else the job's name`, async ({
      app: page,
    }) => {
      await page.emulateMedia({ colorScheme });
      // The simulator names this playlist with 300 characters, and the job after it.
      const title = await startJob(page, ['PLlongTitledList7_n2']);
      await expectCompleted(page, title, 2);
      await jobCard(page, title).getByRole('button', { name: 'Export', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Export “${title}”` });
      await dialog.getByRole('button', { name: 'Export ZIP' }).click();

      // No corpus title: the file takes the job's name, cut to 60 characters.
      const link = dialog.getByRole('link', {
        name: `Download scriptorium-job-1-${title.slice(0, 60).trim()}.zip`,
      });
      await expect(link).toBeVisible();
      await expect(link).toBeFocused();
      const inside = await box(page, 'dialog[open]');
      const download = await link.boundingBox();
      expect(download).not.toBeNull();
      expect(download!.x).toBeGreaterThanOrEqual(inside.x);
      expect(download!.x + download!.width).toBeLessThanOrEqual(inside.x + inside.width);
      // Its verb is on screen, where the link starts.
      expect(download!.x).toBeGreaterThanOrEqual(0);
      expect(download!.y + download!.height).toBeLessThanOrEqual(600);
      await expectAccessible(page, `the export's download (${colorScheme})`);

      // A corpus title given: the file is named after it.
      await dialog.getByRole('button', { name: 'Close' }).click();
      await jobCard(page, title).getByRole('button', { name: 'Export', exact: true }).click();
      await dialog.getByRole('textbox', { name: 'Corpus title' }).fill('Lectures on engines');
      await dialog.getByRole('button', { name: 'Export ZIP' }).click();
      const named = dialog.getByRole('link', { name: 'Download scriptorium-job-1-Lectures on engines.zip' });
      await expect(named).toBeFocused();
      const [file] = await Promise.all([page.waitForEvent('download'), named.click()]);
      expect(file.suggestedFilename()).toBe('scriptorium-job-1-Lectures on engines.zip');
    });
  }

  test('Enter balance opens a dialog: the credits bar keeps its height and the page does not move', async ({
    app: page,
  }) => {
    for (const size of [
      { width: 800, height: 600 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(size);
      const credits = page.getByRole('region', { name: 'Credits' });
      const before = await credits.boundingBox();
      const heading = await page.getByRole('heading', { level: 1 }).boundingBox();
      await credits.getByRole('button', { name: 'Enter balance' }).click();
      const balance = page.getByRole('dialog', { name: 'Your balance' });
      await expect(balance.getByRole('spinbutton', { name: 'Credits on your account' })).toBeFocused();
      expect(await credits.boundingBox()).toEqual(before);
      expect(await page.getByRole('heading', { level: 1 }).boundingBox()).toEqual(heading);
      await expectAccessible(page, `the balance dialog at ${size.width}×${size.height}`);
      await balance.getByRole('button', { name: 'Cancel' }).click();
      await expect(balance).toHaveCount(0);
      await expect(credits.getByRole('button', { name: 'Enter balance' })).toBeFocused();
    }
  });
});

test.describe('with a service address but no key, at 1280×800', () => {
  test.use({ configured: false, viewport: { width: 1280, height: 800 } });

  test('Preview says so under its button, in view, and makes no job; Start then starts a new job', async ({
    app: page,
    sim,
  }) => {
    await goTo(page, 'Settings');
    await page.getByRole('textbox', { name: 'Service address' }).fill(sim.url);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByText('Address saved. No key is set. Nothing was sent.')).toBeVisible();

    await goTo(page, 'New job');
    await pasteSources(page, ['PLpreviewedWithoutKey_n8']);
    const preview = page.getByRole('button', { name: 'Preview', exact: true });
    await preview.click();
    const problem = page.getByRole('alert').filter({ hasText: 'No key is set. Enter it in Settings.' });
    await expect(problem).toBeInViewport();
    // Right under the button that caused it, before the preview's place and Start.
    const button = (await preview.boundingBox())!;
    const said = (await problem.boundingBox())!;
    expect(said.y).toBeGreaterThanOrEqual(button.y + button.height);
    expect(said.y - (button.y + button.height)).toBeLessThan(60);
    await expectAccessible(page, "a preview's problem");
    expect(sim.admin.requests()).toEqual([]);

    await goTo(page, 'Jobs');
    await expect(page.getByRole('heading', { name: 'No jobs yet' })).toBeVisible();
    await goTo(page, 'New job');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Started job 1, / })).toBeVisible();
  });
});

test('from the preview, the next Tab is Start', async ({ app: page }) => {
  await goTo(page, 'New job');
  await pasteSources(page, ['PLtabbedToStart_n12', '@tabbed_channel_n5']);
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const heading = page.getByRole('heading', { level: 2, name: 'Preview' });
  await expect(page.getByRole('region', { name: 'Preview' }).getByText('17 from 2 sources')).toBeVisible();
  await expect(heading).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeFocused();
});

test("a job's card counts add up to its videos, those still to fetch included", async ({ app: page }) => {
  const title = await startJob(page, ['PLcountedOnItsCard_n30'], { 'Budget (credits)': '9' });
  const card = jobCard(page, title);
  await expect(card.getByText('Paused', { exact: true })).toBeVisible();
  const counts = await card.locator('.job-counts').textContent();
  const number = (label: string) => Number(new RegExp(`([\\d,]+) ${label}`).exec(counts ?? '')?.[1] ?? 0);
  expect(number('to fetch')).toBeGreaterThan(0);
  expect(
    number('fetched') + number('unavailable') + number('failed') + number('skipped') + number('to fetch'),
  ).toBe(30);
});

test('started again without a key: the job that ran waits queued, the sync says why, and the key runs both', async ({
  page,
  sim,
  dataDir,
}) => {
  const env = {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: dataDir,
  };
  const out = join(dataDir, '..', 'x.zip');
  expect((await runCli(['export', 'PLkeptAcrossARestart_n4', '--out', out], env)).code).toBe(0);
  expect((await runCli(['keep', '1', 'on'], env)).code).toBe(0);
  expect((await runCli(['export', 'PLcutByARestart_n12', '--budget', '3', '--out', out], env)).code).toBe(3);
  // The window closed while job 2 ran: its row still says running.
  const db = new Database(join(dataDir, 'scriptorium.db'));
  db.prepare(
    "UPDATE jobs SET status = 'running', budget = NULL, stop_reason = NULL, stop_code = NULL, stop_message = NULL WHERE id = 2",
  ).run();
  db.close();

  const ui = await startUi({ dataDir, baseUrl: sim.url });
  try {
    await page.goto(ui.url);
    const cut = page.getByRole('article').filter({ has: page.locator('a[href="#/jobs/2"]') });
    const kept = page.getByRole('article').filter({ has: page.locator('a[href="#/jobs/1"]') });
    await expect(cut.getByText('Queued', { exact: true })).toBeVisible();
    await expect(cut).toContainText('It cannot start yet. No key is set. Enter it in Settings.');
    await expect(kept).toContainText(
      'Its last automatic sync could not run. No key is set. Enter it in Settings. Nothing was sent. It runs as soon as that is done.',
    );
    // No time a day away beside it: it runs once the key is given.
    await expect(kept).not.toContainText('next sync due');
    await expectAccessible(page, 'jobs waiting for the key');
    expect(ui.output()).not.toMatch(/^\s+at |AppError/m);

    await goTo(page, 'Settings');
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill(sim.key);
    await page.getByRole('button', { name: 'Save key' }).click();
    await goTo(page, 'Jobs');
    await expect(cut.getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(kept.getByText(/^Last synced /)).toBeVisible();
    await expect(kept).not.toContainText('could not run');
    expect(ui.output()).not.toMatch(/^\s+at |AppError/m);
  } finally {
    await ui.stop();
  }
});
