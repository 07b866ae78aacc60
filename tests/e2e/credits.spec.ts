import { admin, expect, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, startJob } from './support/screens';

const BILLING = 'https://billing.example.com/top-up';

test.describe('running out of credits', () => {
  // The free grant: one list page and 29 transcripts, then the service answers 402.
  test.use({ credits: 30 });

  test('shows an alert with what to do and the billing page; after a top-up, Resume finishes the job', async ({
    app: page,
    sim,
  }) => {
    await goTo(page, 'Settings');
    await page.getByRole('textbox', { name: 'Billing page' }).fill(BILLING);
    await page.getByRole('button', { name: 'Save billing page' }).click();
    await expect(page.getByText('Billing page saved.')).toBeVisible();

    const credits = page.getByRole('region', { name: 'Credits' });
    await credits.getByRole('button', { name: 'Enter balance' }).click();
    const balance = page.getByRole('dialog', { name: 'Your balance' });
    await balance.getByRole('spinbutton', { name: 'Credits on your account' }).fill('30');
    await balance.getByRole('button', { name: 'Save balance' }).click();
    await expect(credits).toContainText('Balanceabout 30 left');

    const title = await startJob(page, ['PLbeyondTheFreeGrant_n50']);
    const alert = page.getByRole('alert').filter({ hasText: 'waiting for credits' });
    await expect(alert).toContainText(
      `${title} (job 1) stopped: The free credit grant is used up: subscribe to a plan (E_FREE_GRANT_DEPLETED).`,
    );
    await expect(alert).toContainText('Once you have credits again, press Resume');
    await expect(alert.getByRole('link', { name: /Open the billing page/ })).toHaveAttribute('href', BILLING);
    const card = jobCard(page, title);
    await expect(card.getByText('Waiting for credits', { exact: true })).toBeVisible();
    await expect(credits).toContainText('Balanceabout 0 left');
    await expect(credits).toContainText('In total30 credits');

    // The alert stays on every screen until the job runs again.
    await goTo(page, 'New job');
    await expect(alert).toBeVisible();
    await goTo(page, 'Jobs');

    await admin(sim, 'topup', { credits: 100 });
    await card.getByRole('button', { name: 'Resume', exact: true }).click();
    await expectCompleted(page, title, 50);
    await expect(alert).toHaveCount(0);
    // Videos without captions cost nothing: the bar counts what the service charged.
    await expect(credits).toContainText(`In total${sim.admin.ledger().length} credits`);
    expect(sim.admin.ledger().length).toBeGreaterThan(30);
  });
});

test("a job's budget: the credits bar counts it down, and the job says why it paused", async ({
  app: page,
}) => {
  const title = await startJob(page, ['PLkeptWithinBudget_n40'], { 'Budget (credits)': '6' });
  const card = jobCard(page, title);
  await expect(card.getByText('Paused', { exact: true })).toBeVisible();
  await expect(
    card.getByText(/The budget of 6 credits is spent\. To go on, start the same sources again/),
  ).toBeVisible();
  const credits = page.getByRole('region', { name: 'Credits' });
  await expect(credits).toContainText(`Job “${title}”6 credits`);
  await expect(credits).toContainText('Budget left0 of 6');
});
