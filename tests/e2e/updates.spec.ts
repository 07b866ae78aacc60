import type { Page } from '@playwright/test';
import type { UpdateState, UpdateStatus } from '../../src/shared/contract';
import { expect, expectAccessible, saveScreenshot, test } from './support/fixtures';
import { goTo } from './support/screens';

// Settings' Updates, in Chromium, in browser mode: `scriptorium ui` has no updater (it runs from
// npm), so the updates commands of the contract are answered here, as the desktop app's updater
// would answer them (src/main/updates, tested against a release feed in tests/main/updates.test.ts),
// while everything else, Settings' "Check for updates" included, goes to the app.

const CURRENT = '0.1.0';
const SHA512 = 'ab'.repeat(64);
const RELEASE = 'https://github.com/scriptorium-project/scriptorium/releases/tag/v0.2.0';
const WAITING = 'A job is running: updates wait until it ends (or pause it).';

/**
 * Answers the updates commands of the contract over the page's HTTP transport: `found` once asked to
 * check, then downloaded, as the desktop app's updater steps. Keeps what it was asked, and what
 * Settings saved of "Check for updates" (passed on to the app).
 */
async function scriptedUpdates(page: Page, found: UpdateState, { jobRunning = false } = {}) {
  const asked: string[] = [];
  let state: UpdateState = { phase: 'current', checkedAt: '2026-03-04T05:06:07.000Z' };
  const status = (): UpdateStatus => ({ current: CURRENT, state, waiting: jobRunning ? WAITING : null });
  const steps: Record<string, () => void> = {
    updateStatus: () => undefined,
    checkForUpdates: () => (state = found),
    downloadUpdate: () => (state = { phase: 'downloaded', version: '0.2.0' }),
    installUpdate: () => undefined,
  };
  await page.route(
    /\/api\/command\/(updateStatus|checkForUpdates|downloadUpdate|installUpdate)$/,
    async (route) => {
      const name = new URL(route.request().url()).pathname.split('/').at(-1)!;
      if (name !== 'updateStatus') asked.push(name);
      steps[name]!();
      await route.fulfill({ json: { ok: true, value: status() } });
    },
  );
  await page.route(/\/api\/command\/updateSettings$/, async (route) => {
    const change = route.request().postDataJSON() as { updates?: { check: boolean } };
    if (change.updates !== undefined) {
      asked.push(`checking ${change.updates.check}`);
      state = change.updates.check ? { phase: 'current', checkedAt: null } : { phase: 'off' };
    }
    await route.continue();
  });
  return { asked };
}

const INSTALLABLE: UpdateState = {
  phase: 'available',
  version: '0.2.0',
  offer: 'install',
  releaseUrl: RELEASE,
  file: { name: 'Scriptorium-0.2.0-x86_64.AppImage', sha512: SHA512, size: 130_000_000 },
};

test('an update found is downloaded and installed only when the user says so', async ({ app: page }) => {
  const { asked } = await scriptedUpdates(page, INSTALLABLE);
  await page.reload();
  await goTo(page, 'Settings');
  const section = page.getByRole('region', { name: 'Updates' });
  await expect(section.getByRole('checkbox', { name: 'Check for updates' })).toBeChecked();
  await expect(section).toContainText('Scriptorium 0.1.0 is the latest release');

  await section.getByRole('button', { name: 'Check now' }).click();
  await expect(section).toContainText('Scriptorium 0.2.0 is available (this is 0.1.0).');
  await expect(section.getByRole('link', { name: /Release page/ })).toHaveAttribute('href', RELEASE);
  expect(asked).toEqual(['checkForUpdates']);
  await expectAccessible(page, 'Settings, an update available');
  await saveScreenshot(page, 'settings-update-light');

  await section.getByRole('button', { name: 'Download update' }).click();
  await expect(section).toContainText(
    'Scriptorium 0.2.0 is downloaded and matches its checksum: restart to install it.',
  );
  await section.getByRole('button', { name: 'Restart to update' }).click();
  await expect.poll(() => asked).toEqual(['checkForUpdates', 'downloadUpdate', 'installUpdate']);
});

test('a package that cannot replace itself: where the new one is and its SHA-512, no download', async ({
  app: page,
}) => {
  const deb = 'scriptorium_0.2.0_amd64.deb';
  const { asked } = await scriptedUpdates(page, {
    phase: 'available',
    version: '0.2.0',
    offer: 'download',
    releaseUrl: RELEASE,
    file: { name: deb, sha512: SHA512, size: 95_000_000 },
  });
  await page.reload();
  await goTo(page, 'Settings');
  const section = page.getByRole('region', { name: 'Updates' });
  await section.getByRole('button', { name: 'Check now' }).click();
  await expect(section).toContainText(`Take ${deb}`);
  await expect(section).toContainText(`sha512sum ${deb}`);
  await expect(section.getByLabel('SHA-512')).toHaveText(SHA512);
  await expect(section.getByRole('link', { name: /Release page/ })).toHaveAttribute('href', RELEASE);
  await expect(section.getByRole('button', { name: 'Download update' })).toHaveCount(0);
  await expectAccessible(page, 'Settings, a deb to download');
  expect(asked).toEqual(['checkForUpdates']);
});

test('while a job runs the buttons say why they wait, and do nothing', async ({ app: page }) => {
  const { asked } = await scriptedUpdates(page, INSTALLABLE, { jobRunning: true });
  await page.reload();
  await goTo(page, 'Settings');
  const section = page.getByRole('region', { name: 'Updates' });
  await expect(section).toContainText(WAITING);
  const checkNow = section.getByRole('button', { name: 'Check now' });
  await expect(checkNow).toHaveAttribute('aria-disabled', 'true');
  // Clicked all the same (a screen reader user can), it does nothing.
  await checkNow.click({ force: true });
  await expect(section).toContainText('Scriptorium 0.1.0 is the latest release');
  expect(asked).toEqual([]);
});

test('"Check for updates" turned off is saved by the app and shown', async ({ app: page }) => {
  const { asked } = await scriptedUpdates(page, INSTALLABLE);
  await page.reload();
  await goTo(page, 'Settings');
  const section = page.getByRole('region', { name: 'Updates' });
  await section.getByRole('checkbox', { name: 'Check for updates' }).uncheck();
  await expect(section).toContainText('Scriptorium 0.1.0 does not look for new releases.');
  expect(asked).toEqual(['checking false']);
  await page.reload();
  await goTo(page, 'Settings');
  await expect(
    page.getByRole('region', { name: 'Updates' }).getByRole('checkbox', { name: 'Check for updates' }),
  ).not.toBeChecked();
});

test('browser mode itself says it does not update itself', async ({ app: page }) => {
  await goTo(page, 'Settings');
  await expect(page.getByRole('region', { name: 'Updates' })).toContainText(
    'This copy of Scriptorium does not update itself',
  );
});
