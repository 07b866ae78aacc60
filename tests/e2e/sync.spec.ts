import { admin, expect, expectAccessible, saveScreenshot, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, pasteSources, startJob } from './support/screens';

/** A channel of exactly 20 uploads, until the test adds some. */
const CHANNEL = '@research_synced_n20';

test('Sync brings a finished channel job up to date, buying only its new videos, and lists each sync', async ({
  app: page,
  sim,
}) => {
  const title = await startJob(page, [CHANNEL]);
  await expectCompleted(page, title, 20);
  // Offered on the Jobs screen too, for a finished job with a channel.
  await expect(jobCard(page, title).getByRole('button', { name: 'Sync', exact: true })).toBeVisible();
  await jobCard(page, title).getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Syncs' })).toHaveCount(0);

  const before = sim.admin.ledger();
  const known = new Set(before.map((charge) => charge.videoId).filter(Boolean));
  await admin(sim, 'uploads', { channel: CHANNEL, count: 3 });

  const actions = page.getByRole('group', { name: `Actions for ${title}` });
  // The service's answers wait until the sync has been seen at work.
  const release = sim.admin.holdAnswers();
  await actions.getByRole('button', { name: 'Sync', exact: true }).click();
  const syncing = actions.getByRole('button', { name: 'Syncing…' });
  await expect(syncing).toHaveAttribute('aria-disabled', 'true');
  release();
  const found = page.getByRole('status').filter({ hasText: /^3 new videos, \d+ credits$/ });
  await expect(found).toBeVisible({ timeout: 30_000 });
  await expect(syncing).toHaveCount(0);

  // Exactly the three new transcripts were bought, besides the channel's first page.
  const bought = sim.admin.ledger().slice(before.length);
  const transcripts = bought.filter((charge) => charge.endpoint === 'transcript');
  expect(transcripts).toHaveLength(3);
  expect(transcripts.filter((charge) => known.has(charge.videoId))).toEqual([]);
  await expect(found).toHaveText(`3 new videos, ${bought.length} credits`);
  await expect(page.getByRole('progressbar', { name: title, exact: true })).toHaveAttribute(
    'aria-valuenow',
    '23',
  );

  const syncs = page.getByRole('table', { name: 'Syncs' });
  await expect(syncs.getByRole('row')).toHaveCount(2);
  await expect(syncs.getByRole('row').nth(1).getByRole('cell')).toHaveText([
    /\d/,
    '3',
    String(bought.length),
  ]);

  await page.locator('main').evaluate((main) => main.scrollTo({ top: 0 }));
  for (const colorScheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAccessible(page, `Job detail with a sync (${colorScheme})`);
  }
  await saveScreenshot(page, 'job-detail-sync-light');

  // Nothing new since: the free question to the channel says so, and nothing is bought.
  const settled = sim.admin.ledger().length;
  await actions.getByRole('button', { name: 'Sync', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /^No new videos$/ })).toBeVisible({
    timeout: 30_000,
  });
  expect(sim.admin.ledger()).toHaveLength(settled);
  await expect(syncs.getByRole('row')).toHaveCount(3);
  await expect(syncs.getByRole('row').nth(2).getByRole('cell')).toHaveText([/\d/, '0', '0']);
});

test('Sync is offered only for a finished job with a playlist or a channel', async ({ app: page }) => {
  const playlist = await startJob(page, ['PLresearchSyncOffer_n12']);
  await expectCompleted(page, playlist, 12);
  // A video given by itself: the job is named after it.
  const video = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
  await goTo(page, 'New job');
  await pasteSources(page, [video]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expectCompleted(page, video, 1);

  await expect(jobCard(page, playlist).getByRole('button', { name: 'Sync', exact: true })).toBeVisible();
  await expect(jobCard(page, video).getByRole('button', { name: 'Export', exact: true })).toBeVisible();
  await expect(jobCard(page, video).getByRole('button', { name: 'Sync', exact: true })).toHaveCount(0);
});
