/**
 * Issue 44 in browser mode, as a new user meets it, at 1280×800 and 800×600 with axe: Start during a
 * preview, the first run of Settings, a service that answered 503 to everything, and the smaller
 * things each screen said or did that it should not have.
 */
import type { Page } from '@playwright/test';
import { describePlaylist, type RunningSimulator } from '../../src/simulator';
import { expect, expectAccessible, saveScreenshot, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, pasteSources, startJob } from './support/screens';

/** Settings' form of the service's address and the key. */
function connection(page: Page) {
  const form = page.getByRole('region', { name: 'Service and key' });
  return {
    form,
    address: form.getByRole('textbox', { name: 'Service address' }),
    key: form.getByRole('textbox', { name: 'API key', exact: true }),
    save: form.getByRole('button', { name: 'Save key' }),
    test: form.getByRole('button', { name: 'Test connection' }),
  };
}

/** What Settings says once the key works with the simulator. */
const connected = (sim: RunningSimulator) =>
  `Connected to 127.0.0.1:${new URL(sim.url).port}: the service accepted the key.`;

const SIZES = [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
] as const;

for (const viewport of SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('Start pressed while the preview reads the list starts the job, and says so', async ({
      app: page,
      sim,
    }) => {
      await goTo(page, 'New job');
      await pasteSources(page, ['https://www.youtube.com/playlist?list=PLstartWhilePreviewing_n60']);
      // The list's page is held by the simulator: Start is pressed while the preview reads it.
      const requests = sim.admin.requests().length;
      const release = sim.admin.holdAnswers();
      await page.getByRole('button', { name: 'Preview', exact: true }).click();
      await expect.poll(() => sim.admin.requests().length).toBeGreaterThan(requests);
      await expect(page.getByRole('button', { name: 'Stop preview' })).toBeVisible();
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      release();

      await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
      const notice = page.getByRole('status').filter({ hasText: /^Started job 1, “[^”]+”\.Dismiss$/ });
      await expect(notice).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'continues where it stopped' })).toHaveCount(0);
      // Named after its list once the list's page is read.
      const heading = page.getByRole('article').first().getByRole('heading', { level: 2 });
      await expect(heading).not.toContainText('PLstartWhilePreviewing');
      const title = (await heading.textContent()) ?? '';
      await expectCompleted(page, title, 60);
      await expect(jobCard(page, title).getByRole('button', { name: 'Start' })).toHaveCount(0);
      await expectAccessible(page, 'Jobs after Start during a preview');
      await saveScreenshot(page, `start-during-preview-${viewport.width}`);
    });

    test('a service that answered 503 to everything: one sentence on the card, no Retry failed, and Resume finishes it', async ({
      app: page,
      sim,
    }) => {
      sim.admin.addFault({ kind: 'status', status: 503, match: { endpoint: 'transcript' }, times: 10 });
      const title = await startJob(page, ['PLstormOfUnavailable_n30'], { Concurrency: '1' });
      const card = jobCard(page, title);
      await expect(card.getByText('Paused', { exact: true })).toBeVisible({ timeout: 30_000 });
      await expect(card).toContainText(
        'The service failed 10 requests in a row (the last: HTTP 503 E_UNAVAILABLE), so nothing more was sent. Press Resume to try again.',
      );
      // The ten videos failed only because the service was down: they wait to be fetched, not failed.
      await expect(card.getByRole('button', { name: 'Retry failed' })).toHaveCount(0);
      await expect(card.getByText(/\d+ failed/)).toHaveCount(0);
      await expect(card).toContainText('30 to fetch');
      await expectAccessible(page, 'Jobs after a 503 storm');
      await saveScreenshot(page, `service-storm-${viewport.width}`);

      await card.getByRole('button', { name: 'Resume' }).click();
      await expectCompleted(page, title, 30);
      const charged = sim.admin.ledger().filter((charge) => charge.endpoint === 'transcript');
      expect(new Set(charged.map((charge) => charge.videoId)).size).toBe(charged.length);
    });

    test('the balance entered changes the credits bar without moving the page', async ({ app: page }) => {
      // A job in view, as on a working day: the bar holds the job's credits and budget too.
      const title = await startJob(page, ['PLbalanceBesideJob_n5'], { 'Budget (credits)': '400' });
      await expectCompleted(page, title, 5);
      const credits = page.getByRole('region', { name: 'Credits' });
      const heading = page.getByRole('heading', { level: 1, name: 'Jobs' });
      const before = { bar: await credits.boundingBox(), heading: await heading.boundingBox() };
      await credits.getByRole('button', { name: 'Enter balance' }).click();
      const dialog = page.getByRole('dialog', { name: 'Your balance' });
      await dialog.getByRole('spinbutton', { name: 'Credits on your account' }).fill('1234567');
      await dialog.getByRole('button', { name: 'Save balance' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(credits).toContainText('left');
      expect(await credits.boundingBox()).toEqual(before.bar);
      expect(await heading.boundingBox()).toEqual(before.heading);
      await expectAccessible(page, 'the credits bar with a balance');
      await saveScreenshot(page, `credits-balance-${viewport.width}`);
    });

    test('Job detail says a failure once; the Export dialog describes its formats, and keeps its buttons in one row', async ({
      app: page,
      sim,
    }) => {
      const list = 'PLoneVideoFails_n4';
      const [failing] = describePlaylist(list).videoIds();
      sim.admin.addFault({ kind: 'status', status: 500, match: { videoId: failing! } });
      const title = await startJob(page, [list], { Concurrency: '1' });
      await expectCompleted(page, title, 4);

      await jobCard(page, title).getByRole('link', { name: title }).click();
      const reason = page.locator('.vt-failed .vt-reason');
      await expect(reason).toContainText('500');
      // The status is in the service's words already: not said again after them.
      await expect(reason).toHaveText(/^The service answered 500 \(E_INTERNAL\)/);
      await expect(reason).not.toContainText('(HTTP 500)');
      await expectAccessible(page, 'Job detail with a failed video');

      await goTo(page, 'Jobs');
      await jobCard(page, title).getByRole('button', { name: 'Export', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Export “${title}”` });
      // Each format says what it is, as in New job.
      await expect(dialog.getByRole('checkbox', { name: 'TXT' })).toHaveAccessibleDescription('plain text');
      await expect(dialog.getByRole('checkbox', { name: 'Chunks' })).toHaveAccessibleDescription(
        'passages for search and language models, in chunks.jsonl',
      );
      // The last format does not touch the heading that follows it.
      const chunks = (await dialog.getByText('passages for search and language models').boundingBox())!;
      const next = (await dialog.getByText('Your name on the corpus').boundingBox())!;
      expect(next.y - (chunks.y + chunks.height)).toBeGreaterThanOrEqual(12);
      await expectAccessible(page, 'the Export dialog');
      await saveScreenshot(page, `export-dialog-${viewport.width}`);

      await dialog.getByRole('button', { name: 'Export ZIP' }).click();
      const download = dialog.getByRole('link', { name: /^Download scriptorium-job-1-/ });
      await expect(download).toBeFocused();
      const close = dialog.getByRole('button', { name: 'Close' });
      // Download and Close side by side, the download first: Close never sits above it.
      const linkBox = (await download.boundingBox())!;
      const closeBox = (await close.boundingBox())!;
      expect(closeBox.y).toBeGreaterThanOrEqual(linkBox.y);
      await expectAccessible(page, 'the Export dialog with its download');
      await saveScreenshot(page, `export-download-${viewport.width}`);
    });

    test.describe('on a fresh machine (no address, no key)', () => {
      test.use({ configured: false });

      for (const order of ['address first', 'key first'] as const) {
        test(`Settings: typed in any order (${order}), Save key saves both and tests them, then Test connection agrees`, async ({
          app: page,
          sim,
        }) => {
          await goTo(page, 'Settings');
          const { form, address, key, save, test: testConnection } = connection(page);
          if (order === 'address first') {
            await address.fill(sim.url);
            await key.fill(sim.key);
          } else {
            await key.fill(sim.key);
            await address.fill(sim.url);
          }
          await save.click();
          await expect(form.getByRole('status').filter({ hasText: 'Address and key saved.' })).toHaveText(
            `Address and key saved. ${connected(sim)}`,
          );
          await expect(key).toHaveValue('');
          await expect(page.getByRole('alert')).toHaveCount(0);
          // Said where it can be read, at the foot of a small window too.
          await expect(
            form.getByRole('status').filter({ hasText: 'Address and key saved.' }),
          ).toBeInViewport();
          // The README's order: Save key, then Test connection.
          await testConnection.click();
          await expect(form.getByRole('status').filter({ hasText: 'Connected' })).toHaveText(connected(sim));
          await expect(page.getByRole('alert')).toHaveCount(0);
          // Settings never sends the user to Settings.
          await expect(page.getByRole('main')).not.toContainText('in Settings');
          await expectAccessible(page, `Settings after a first run, ${order}`);
          if (order === 'address first') await saveScreenshot(page, `settings-first-run-${viewport.width}`);
        });
      }

      test('Settings: a problem is said under its field, and goes once the field is fixed', async ({
        app: page,
        sim,
      }) => {
        await goTo(page, 'Settings');
        const { form, address, key, save } = connection(page);
        await save.click();
        const addressProblem = 'Type the service’s address first, such as https://api.example.com.';
        await expect(form.getByText(addressProblem)).toBeVisible();
        await expect(form.getByText('Paste your API key first.')).toBeVisible();
        await expect(address).toHaveAttribute('aria-invalid', 'true');
        await expect(key).toHaveAttribute('aria-invalid', 'true');
        await expect(form).toContainText('No key is set.');
        await expect(page.getByRole('main')).not.toContainText('in Settings');

        await address.fill('ftp://example.com');
        await expect(form.getByText(addressProblem)).toHaveCount(0);
        await expect(address).toHaveAttribute('aria-invalid', 'false');
        await key.fill('kl');
        await save.click();
        await expect(form.getByText(/must start with https:\/\//)).toBeVisible();
        await expect(form.getByText(/The API key has 2 characters, too few to be a key/)).toBeVisible();

        await address.fill(sim.url);
        await key.fill(sim.key);
        await expect(form.getByText(/must start with/)).toHaveCount(0);
        await expect(form.getByText(/too few to be a key/)).toHaveCount(0);
        await save.click();
        await expect(form.getByRole('status').filter({ hasText: 'Address and key saved.' })).toBeVisible();
        await expect(page.getByRole('alert')).toHaveCount(0);
        await expectAccessible(page, 'Settings after its problems were fixed');
      });
    });

    test('Settings: a key from TRANSCRIPT_API_KEY is never called saved', async ({ app: page, sim }) => {
      await goTo(page, 'Settings');
      const { form, address, test: testConnection } = connection(page);
      await expect(form).toContainText('A key is set. The key comes from TRANSCRIPT_API_KEY.');
      const elsewhere = 'http://127.0.0.2:9/';
      await address.fill(elsewhere);
      await testConnection.click();
      const notHere = `The key from TRANSCRIPT_API_KEY is for ${sim.url}, the address Scriptorium started with, so it is not sent to ${elsewhere}.`;
      await expect(form.getByRole('alert')).toHaveText(`Address saved. ${notHere} Nothing was sent.`);
      await expect(form).toContainText(notHere);
      await expect(page.getByRole('main')).not.toContainText(/saved for|key saved|in Settings/i);
      await expectAccessible(page, 'Settings with a key from the environment');
    });
  });
}
