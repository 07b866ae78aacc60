import type { Locator, Page } from '@playwright/test';
import { describePlaylist } from '../../src/simulator';
import { admin, expect, expectAccessible, saveScreenshot, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, pasteSources, startJob } from './support/screens';

/**
 * Runs axe-core on the screen as it is, in the light and the dark theme, and saves the screenshots
 * the README shows (docs/screenshots/<name>-light.png and -dark.png).
 */
async function checkScreen(
  page: Page,
  name: string,
  screenshots: 'light' | 'both' | 'none',
  showFrom?: Locator,
): Promise<void> {
  // The screen from its top as it opens (clicks may have scrolled it), or from the part to show.
  if (showFrom === undefined) await page.locator('main').evaluate((main) => main.scrollTo({ top: 0 }));
  else await showFrom.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAccessible(page, `${name} (${colorScheme})`);
    if (screenshots === 'both' || (screenshots === 'light' && colorScheme === 'light'))
      await saveScreenshot(page, `${name}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

// Enough credits for the first job and the preview; the second job then runs out.
test.use({ credits: 60 });

test('every screen, in light and dark, has no serious or critical axe-core violation', async ({
  app: page,
  sim,
}) => {
  test.slow();
  await checkScreen(page, 'jobs-empty', 'light');

  await goTo(page, 'Settings');
  await page.getByRole('textbox', { name: 'Billing page' }).fill('https://billing.example.com/top-up');
  await page.getByRole('button', { name: 'Save billing page' }).click();
  await expect(page.getByText('Billing page saved.')).toBeVisible();
  await checkScreen(page, 'settings', 'light');

  // A finished job with one failed and one unavailable video.
  const playlist = 'PLaccessibleTalks_n24';
  const failing = describePlaylist(playlist).videoIds()[3] ?? '';
  await admin(sim, 'faults', { match: { videoId: failing }, kind: 'status', status: 500 });
  const finished = await startJob(page, [playlist, 'nocapVideo1']);
  await expectCompleted(page, finished, 25);
  // Kept current: its card and its screen show the sync times and why browser mode writes no file.
  await jobCard(page, finished).getByRole('checkbox', { name: 'Keep current' }).check();

  // New job with every kind of line, a warning and a refusal, and a preview over budget.
  await goTo(page, 'New job');
  await pasteSources(page, [
    'https://www.youtube.com/playlist?list=PLpreviewedSeminars_n40',
    '@demo_channel_n25',
    'PLabcdefghi',
    'search:history of printing',
    'youtube.com/watch?v=short',
  ]);
  await page.getByRole('spinbutton', { name: 'Budget (credits)' }).fill('20');
  await expect(page.locator('#sources-summary')).toContainText('1 line needs a check');
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(page.getByText('does not cover every transcript')).toBeVisible();
  await checkScreen(page, 'new-job', 'none');
  await page.getByRole('heading', { name: 'What to export' }).scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'new-job-light');
  await page.getByRole('heading', { name: 'Preview', level: 2 }).scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'preview-light');

  // The finished job's detail, with its failed video opened.
  await goTo(page, 'Jobs');
  await jobCard(page, finished).getByRole('link', { name: finished }).click();
  await expect(page.getByRole('table', { name: 'Videos' })).toHaveAttribute('aria-rowcount', '26');
  await page.getByRole('table', { name: 'Videos' }).getByRole('row').filter({ hasText: 'Failed' }).click();
  await expect(page.locator('.video-details')).toContainText('HTTP status500');
  await checkScreen(page, 'job-detail', 'both', page.getByRole('heading', { name: 'Videos' }));
  // A fetched video's transcript, in the reader below the table.
  await page
    .getByRole('table', { name: 'Videos' })
    .getByRole('row')
    .filter({ has: page.locator('.badge-video-ok') })
    .first()
    .click();
  await page.getByRole('button', { name: 'Read the transcript' }).click();
  const reader = page.getByRole('region', { name: 'Transcript' });
  await expect(reader.getByRole('listitem').first()).toBeVisible();
  await checkScreen(page, 'job-detail-reader', 'none', reader);

  // The Library before a search, then with a hit open in the reader (the README's screenshot).
  await goTo(page, 'Library');
  await checkScreen(page, 'library-empty', 'none');
  await page.getByRole('searchbox', { name: 'Search transcripts' }).fill('motor');
  await page.locator('button.hit').nth(2).click();
  await expect(reader.locator('[aria-current="true"] mark')).toBeVisible();
  // From the search down: the words, the hits and the reader with the current hit in view.
  await checkScreen(page, 'library', 'both', page.getByRole('search'));

  // A job that runs out of credits: the alert, on the Jobs screen.
  const waiting = await startJob(page, ['@demo_channel_n40'], { 'Budget (credits)': '' });
  await expect(jobCard(page, waiting).getByText('Waiting for credits', { exact: true })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'waiting for credits' })).toBeVisible();
  await page.getByRole('region', { name: 'Credits' }).getByRole('button', { name: 'Enter balance' }).click();
  await checkScreen(page, 'jobs-balance', 'none');
  await page.getByRole('dialog', { name: 'Your balance' }).getByRole('button', { name: 'Cancel' }).click();
  await jobCard(page, finished).click();
  await checkScreen(page, 'jobs', 'both');

  await jobCard(page, finished).getByRole('button', { name: 'Export', exact: true }).click();
  await checkScreen(page, 'export', 'light');
  await page.keyboard.press('Escape');
  await jobCard(page, finished).getByRole('button', { name: 'Delete', exact: true }).click();
  await checkScreen(page, 'delete', 'none');
  await page.keyboard.press('Escape');
});
