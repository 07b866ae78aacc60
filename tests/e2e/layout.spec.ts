import type { Locator, Page } from '@playwright/test';
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

// The browser global the function below uses in the page (this file is type-checked as Node code).
declare function getComputedStyle(element: unknown): { lineHeight: string };

/** The element's height in lines of its own text. */
async function linesTall(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const lineHeight = parseFloat(getComputedStyle(node).lineHeight);
    return node.getBoundingClientRect().height / lineHeight;
  });
}

test('a 300-character title takes two lines on its card and its screen, and is shown whole on hover and in detail', async ({
  app: page,
}) => {
  // The simulator names this playlist with 300 characters, and the job after it.
  const title = await startJob(page, ['PLlongTitledList7_n2']);
  expect(title).toHaveLength(300);
  await expectCompleted(page, title, 2);

  const heading = jobCard(page, title).getByRole('heading', { level: 2 });
  expect(await linesTall(heading)).toBeLessThanOrEqual(2.05);
  const link = heading.getByRole('link');
  await expect(link).toHaveAttribute('title', title);
  await expect(link).toHaveAccessibleName(title);
  // The notice of the start names the job by its number, which the cut keeps in view.
  const notice = page.getByRole('status').filter({ hasText: /^Started job \d+, “/ });
  expect(await linesTall(notice.locator('p'))).toBeLessThanOrEqual(2.05);
  await expect(notice.locator('p')).toHaveAttribute('title', `Started job 1, “${title}”.`);

  await link.click();
  const screenHeading = page.getByRole('heading', { level: 1 });
  await expect(screenHeading).toHaveAccessibleName(title);
  expect(await linesTall(screenHeading)).toBeLessThanOrEqual(2.05);
  await expect(screenHeading).toHaveAttribute('title', title);
  await expect(page.locator('.full-title')).toHaveText(title);
  await expect(page.locator('.full-title')).toBeVisible();
});
