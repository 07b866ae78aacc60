import Database from 'better-sqlite3';
import { join } from 'node:path';
import { runCli } from '../support/cli';
import { admin, expect, expectAccessible, saveScreenshot, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, pasteSources, startJob } from './support/screens';
import { startUi } from './support/ui';

test('Keep current, marked on the Jobs screen, shows in Job detail, and the reverse; a job of videos only has none', async ({
  app: page,
}) => {
  const title = await startJob(page, ['PLkeptCurrentList_n6']);
  await expectCompleted(page, title, 6);
  const card = jobCard(page, title);
  const box = card.getByRole('checkbox', { name: 'Keep current', exact: true });
  await expect(box).not.toBeChecked();
  await expect(box).toHaveAccessibleDescription(
    'Syncs its playlists and channels when Scriptorium starts and every 24 hours while it runs, buying only new videos.',
  );

  // From the keyboard.
  await box.focus();
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
  // Marked between two rounds of syncs, it waits for the next one.
  await expect(box).toHaveAccessibleDescription(
    /^Not synced automatically yet · next sync due \d+ \w+, \d\d:\d\d$/,
  );
  // Browser mode writes no file of its own: it says so rather than offer one.
  await expect(card.getByText('In browser mode exports are downloads only', { exact: false })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Export after each sync to…' })).toHaveCount(0);

  await card.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const detailBox = page.getByRole('checkbox', { name: 'Keep current', exact: true });
  await expect(detailBox).toBeChecked();
  await detailBox.uncheck();
  await expect(detailBox).not.toBeChecked();
  await page.getByRole('link', { name: 'All jobs' }).click();
  await expect(box).not.toBeChecked();

  // Kept by the app, not the page: marked again, it is still marked after a reload.
  await box.check();
  await page.reload();
  await expect(box).toBeChecked();

  const video = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
  await goTo(page, 'New job');
  await pasteSources(page, [video]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expectCompleted(page, video, 1);
  await expect(jobCard(page, video).getByRole('checkbox', { name: 'Keep current' })).toHaveCount(0);
});

test('a job marked from the command line shows marked live; a file set by the desktop app for after each sync is shown, and browser mode can clear it', async ({
  app: page,
  dataDir,
}) => {
  const title = await startJob(page, ['PLkeptFromTheCommandLine_n4']);
  await expectCompleted(page, title, 4);
  const card = jobCard(page, title);
  const href = (await card.getByRole('link', { name: title }).getAttribute('href')) ?? '';
  const jobId = Number(/(\d+)$/.exec(href)?.[1]);

  const keep = await runCli(['keep', String(jobId), 'on', '--data-dir', dataDir]);
  expect(keep.code, keep.stderr).toBe(0);
  await expect(card.getByRole('checkbox', { name: 'Keep current' })).toBeChecked();

  // The desktop app, on the same data folder, keeps a file its save dialog returned. It cannot run
  // here (nor can its core be loaded by Playwright), so the test writes what it would, as another
  // process: the window learns of it as it learns of any other process's change.
  const file = join(dataDir, '..', 'kept-current.zip');
  const db = new Database(join(dataDir, 'scriptorium.db'));
  try {
    db.prepare('UPDATE jobs SET auto_export_path = ?, updated_at = ? WHERE id = ?').run(
      file,
      new Date().toISOString(),
      jobId,
    );
  } finally {
    db.close();
  }
  await expect(card).toContainText(`After each sync, its corpus is written to ${file}.`);
  // Browser mode offers no file of its own, but may stop the desktop app's.
  await expect(card.getByRole('button', { name: 'Export after each sync to…' })).toHaveCount(0);
  await card.getByRole('button', { name: 'Stop exporting after each sync' }).click();
  await expect(card.getByText('In browser mode exports are downloads only', { exact: false })).toBeVisible();
  await expect(card).not.toContainText(file);
  await expect(card.getByRole('button', { name: 'Stop exporting after each sync' })).toHaveCount(0);
});

test('Settings: "Sync every (hours)" and "Daily credit limit" are checked, one message at a time, and saved', async ({
  app: page,
}) => {
  await goTo(page, 'Settings');
  const section = page.getByRole('region', { name: 'Keep current' });
  const every = section.getByRole('spinbutton', { name: 'Sync every (hours)' });
  const limit = section.getByRole('spinbutton', { name: 'Daily credit limit' });
  const save = section.getByRole('button', { name: 'Save sync settings' });
  await expect(every).toHaveValue('24');
  await expect(limit).toHaveValue('');

  await every.fill('0');
  await limit.fill('2.5');
  await save.click();
  await expect(every).toHaveAccessibleDescription(
    /Enter a whole number of hours from 1 to 720 \(30 days\)\.$/,
  );
  await expect(limit).toHaveAccessibleDescription(
    /Enter a whole number of credits from 1 to 1,000,000, or leave it empty for no limit\.$/,
  );
  await expect(section.getByRole('alert')).toHaveText(
    'Some sync settings are not valid: see the fields marked above.',
  );

  await every.fill('6');
  await limit.fill('40');
  await save.click();
  const saved = section.getByText(
    'Saved: jobs marked Keep current are synced every 6 hours, within 40 credits a day.',
  );
  await expect(saved).toBeVisible();
  await expect(section.getByRole('alert')).toHaveCount(0);
  await section.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'settings-keep-current-light');
  await expect(every).toHaveAttribute('aria-invalid', 'false');

  // A new problem replaces the last message.
  await every.fill('');
  await save.click();
  await expect(section.getByRole('alert')).toBeVisible();
  await expect(saved).toHaveCount(0);

  await page.reload();
  await goTo(page, 'Settings');
  await expect(every).toHaveValue('6');
  await expect(limit).toHaveValue('40');
  // Emptied, the limit is none.
  await limit.fill('');
  await save.click();
  await expect(
    section.getByText('Saved: jobs marked Keep current are synced every 6 hours, with no daily limit.'),
  ).toBeVisible();
});

test('a sync the daily credit limit stops says so on its job, in Job detail (its syncs read again) and Jobs', async ({
  app: page,
  sim,
  ui,
  dataDir,
}) => {
  const channel = '@keptCurrentLimited_n10';
  const title = await startJob(page, [channel]);
  await expectCompleted(page, title, 10);
  const card = jobCard(page, title);
  await card.getByRole('checkbox', { name: 'Keep current' }).check();
  const href = (await card.getByRole('link', { name: title }).getAttribute('href')) ?? '';
  await goTo(page, 'Settings');
  await page.getByRole('spinbutton', { name: 'Daily credit limit' }).fill('2');
  await page.getByRole('button', { name: 'Save sync settings' }).click();
  await expect(page.getByText(/^Saved: jobs marked Keep current/)).toBeVisible();

  // Five new uploads; the app syncs its marked jobs when it starts. The service's answers wait
  // until the job's screen is open, so that the screen sees the sync end.
  await admin(sim, 'uploads', { channel, count: 5 });
  await ui.stop();
  const release = sim.admin.holdAnswers();
  const again = await startUi({ dataDir, baseUrl: sim.url, key: sim.key });
  try {
    await page.goto(`${again.url}${href}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Syncs' })).toHaveCount(0);
    release();

    const limitMessage = 'The daily credit limit of automatic syncs (2 credits) is spent';
    await expect(page.getByText(limitMessage, { exact: false })).toBeVisible({ timeout: 30_000 });
    const syncs = page.getByRole('table', { name: 'Syncs' });
    await expect(syncs.getByRole('row')).toHaveCount(2);
    await expect(syncs.getByRole('row').nth(1).getByRole('cell')).toHaveText([/\d/, '5', /^\d+$/]);

    await page.getByRole('link', { name: 'All jobs' }).click();
    await expect(card.getByText(limitMessage, { exact: false })).toBeVisible();
    await expect(card.getByText('Paused', { exact: true })).toBeVisible();
    await expect(card.getByRole('checkbox', { name: 'Keep current' })).toHaveAccessibleDescription(
      /^Last synced /,
    );
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expectAccessible(page, `Jobs with a job stopped by the daily limit (${colorScheme})`);
      await saveScreenshot(page, `jobs-daily-limit-${colorScheme}`);
    }
  } finally {
    release();
    await again.stop();
  }
});
