import type { Locator, Page } from '@playwright/test';
import { parseSource } from '../../../src/shared/sources';
import { expect } from './fixtures';

/** Goes to a screen through the navigation, as a user would. */
export async function goTo(page: Page, screen: 'Jobs' | 'New job' | 'Library' | 'Settings'): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: screen, exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: screen, exact: true })).toBeVisible();
}

export async function pasteSources(page: Page, lines: readonly string[]): Promise<void> {
  await page.getByRole('textbox', { name: 'Sources' }).fill(lines.join('\n'));
}

/** A job's card on the Jobs screen, found by its title. */
export function jobCard(page: Page, title: string): Locator {
  return page.getByRole('article', { name: title, exact: true });
}

/**
 * Pastes the sources in New job, sets the given number fields, presses Start and waits for the
 * Jobs screen; resolves with the job's title once the lists it is named after are read (a job is
 * named after its first two sources, each a list's title once read: shared/job-name.ts).
 */
export async function startJob(
  page: Page,
  sources: readonly string[],
  numbers: Partial<Record<'Max videos per source' | 'Budget (credits)' | 'Concurrency', string>> = {},
): Promise<string> {
  await goTo(page, 'New job');
  await pasteSources(page, sources);
  for (const [name, value] of Object.entries(numbers))
    await page.getByRole('spinbutton', { name }).fill(value);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  // The job Start made, by the id its notice names: the first card may still be an older job's.
  const notice = page.getByRole('status').filter({ hasText: /^(Started|These sources and options match)/ });
  await expect(notice).toContainText(/job \d+/i);
  const jobId = /job (\d+)/i.exec((await notice.textContent()) ?? '')?.[1] ?? '';
  const heading = page
    .getByRole('article')
    .filter({ has: page.locator(`a[href="#/jobs/${jobId}"]`) })
    .getByRole('heading', { level: 2 });
  const namedLists = sources.slice(0, 2).filter((source) => {
    const parsed = parseSource(source);
    return parsed.ok && (parsed.source.kind === 'playlist' || parsed.source.kind === 'channel');
  });
  for (const list of namedLists) await expect(heading).not.toContainText(list);
  return (await heading.textContent()) ?? '';
}

/** Waits until the job's progress bar is full and its status says Completed (with any failures it had). */
export async function expectCompleted(page: Page, title: string, videos: number): Promise<void> {
  const card = jobCard(page, title);
  await expect(card.getByText(/^Completed(, .+)?$/)).toBeVisible({ timeout: 30_000 });
  const bar = page.getByRole('progressbar', { name: title, exact: true });
  await expect(bar).toHaveAttribute('aria-valuemax', String(videos));
  await expect(bar).toHaveAttribute('aria-valuenow', String(videos));
}

/** The job's progress bar value now. */
export async function videosDone(page: Page, title: string): Promise<number> {
  const value = await page
    .getByRole('progressbar', { name: title, exact: true })
    .getAttribute('aria-valuenow');
  return Number(value ?? 0);
}
