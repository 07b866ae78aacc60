import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, startJob } from './support/screens';

/** The credits bar's height while each job in turn is the selected one. */
async function creditsBarHeights(page: Page, titles: string[]): Promise<number[]> {
  const heights: number[] = [];
  for (const title of titles) {
    await jobCard(page, title).getByRole('link', { name: title, exact: true }).focus();
    await expect(page.getByRole('region', { name: 'Credits' })).toContainText(`Job “${title.slice(0, 20)}`);
    heights.push((await page.getByRole('region', { name: 'Credits' }).boundingBox())?.height ?? 0);
  }
  return heights;
}

test('selecting a job moves nothing, at any width: the first click on a title or on Export lands', async ({
  app: page,
}) => {
  // Jobs with titles of different lengths, one with a budget and one without.
  const budgeted = await startJob(page, ['PLlayoutBudgetedList_n3'], { 'Budget (credits)': '50' });
  await expectCompleted(page, budgeted, 3);
  const plain = await startJob(page, ['PLlayoutPlainListWithAnotherName_n2']);
  await expectCompleted(page, plain, 2);

  for (const width of [480, 800, 1280]) {
    await page.setViewportSize({ width, height: 860 });
    const heights = await creditsBarHeights(page, [budgeted, plain, budgeted]);
    expect(new Set(heights).size, `the credits bar at ${width} px: ${heights.join(', ')}`).toBe(1);
  }

  await page.setViewportSize({ width: 800, height: 860 });
  await jobCard(page, budgeted).getByRole('link', { name: budgeted, exact: true }).focus();
  // One click each, as a user makes it: pressed on one job while the other is selected.
  await jobCard(page, plain).getByRole('button', { name: 'Export', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await jobCard(page, budgeted).getByRole('link', { name: budgeted, exact: true }).focus();
  await jobCard(page, plain).getByRole('link', { name: plain, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: plain })).toBeVisible();
  await goTo(page, 'Jobs');
});
