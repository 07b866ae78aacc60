/**
 * Issue 44 in browser mode, as a new user meets it, at 1280×800 and 800×600 with axe: Start during a
 * preview, the first run of Settings, a service that answered 503 to everything, and the smaller
 * things each screen said or did that it should not have.
 */
import { expect, expectAccessible, saveScreenshot, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, pasteSources } from './support/screens';

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
  });
}
