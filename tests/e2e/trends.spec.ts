import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { runCli } from '../support/cli';
import { expect, expectAccessible, saveScreenshot, test } from './support/fixtures';
import { expectCompleted, goTo, startJob } from './support/screens';

// The Library's Concordance and Trends views (issue 47) in Chromium: a playlist the simulator dates
// in years ("3 years ago", an interval a year wide) and a video given alone (undated), counted over
// time with the band the dates allow, the hits of a period listed and read, the figures downloaded as
// the CLI prints them, the chart saved as SVG and PNG; every view passes axe-core in the light and
// the dark theme at 1280 × 800 and 800 × 600, and works from the keyboard.

/** Four English transcripts of this playlist say "river" (tests/e2e/library.spec.ts). */
const CORPUS = 'PLlibraryCorpus3_n10';

async function fillLibrary(page: Page): Promise<void> {
  const title = await startJob(page, [CORPUS, 'dQw4w9WgXcQ']);
  await expectCompleted(page, title, 11);
  await goTo(page, 'Library');
}

/** axe-core in both themes at both sizes, with a screenshot of each to look at (out/screenshots). */
async function checkEverywhere(page: Page, name: string): Promise<void> {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 800, height: 600 },
  ]) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expectAccessible(page, `${name} at ${viewport.width} × ${viewport.height} (${colorScheme})`);
      await saveScreenshot(page, `${name}-${viewport.width}-${colorScheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('Trends: chips, a chart with its band, the figures, a period’s hits opening the reader, CSV, SVG and PNG', async ({
  app: page,
  dataDir,
}) => {
  test.slow();
  await fillLibrary(page);
  await page.getByRole('navigation', { name: 'Library views' }).getByRole('link', { name: 'Trends' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Add a query' })).toBeVisible();

  // A chip from the keyboard: type, Enter.
  const add = page.getByRole('searchbox', { name: 'Add a query' });
  await add.fill('river');
  await add.press('Enter');
  await add.fill('"river');
  await add.press('Enter');
  await expect(page.getByRole('alert')).toContainText('quote');
  await add.fill('静か');
  await page.getByRole('button', { name: 'Add query' }).click();
  const chips = page.getByRole('list', { name: 'Queries charted' });
  await expect(chips.getByRole('listitem')).toHaveCount(2);
  await page.getByRole('combobox', { name: 'Period' }).selectOption('year');

  // The chart: one image, named by what it shows; the table holds what the CLI counts.
  const chart = page.locator('.trend-chart svg[role="img"]');
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAttribute('aria-label', /Matching videos per year for river, 静か/);
  const cli = await runCli(['trends', 'river', '静か', '--by', 'year', '--json', '--data-dir', dataDir]);
  expect(cli.code, cli.stderr).toBe(0);
  const trend = JSON.parse(cli.stdout) as {
    periods: Array<{ label: string }>;
    series: Array<{ query: string; values: Array<{ low: number; high: number }>; undated: { low: number } }>;
  };
  const table = page.getByRole('table', { name: /Every figure of the trend/ });
  await expect(table.getByRole('row')).toHaveCount(trend.periods.length + 2);
  const river = trend.series.find((series) => series.query === 'river');
  const widest = river?.values.findIndex((cell) => cell.high > cell.low) ?? -1;
  expect(widest, 'a year-wide date makes a band').toBeGreaterThanOrEqual(0);
  const cell = river?.values[widest];
  const period = trend.periods[widest]?.label ?? '';
  const button = table.getByRole('button', {
    name: `river in ${period}: ${cell?.low} to ${cell?.high}. List its hits`,
  });
  await expect(button).toBeVisible();
  // The video given alone has no date: counted apart.
  await expect(table.getByRole('row', { name: /^Undated/ })).toContainText(String(river?.undated.low));

  // Pointing at the chart shows the exact figures of a period.
  const box = await chart.boundingBox();
  await page.mouse.move((box?.x ?? 0) + (box?.width ?? 0) / 2, (box?.y ?? 0) + (box?.height ?? 0) / 2);
  await expect(
    page
      .locator('.trend-chart [aria-hidden], .trend-chart g')
      .filter({ hasText: /matching videos/ })
      .first(),
  ).toBeVisible();

  // The period's hits, from the keyboard, each opening the reader at its moment.
  await button.focus();
  await page.keyboard.press('Enter');
  const hits = page.getByRole('region', { name: `Hits in ${period}` });
  await expect(hits.getByRole('status')).toContainText(`hit`);
  await expect(hits.locator('mark').first()).toHaveText(/river/i);
  await hits
    .getByRole('button', { name: /^Read at / })
    .first()
    .click();
  const reader = page.getByRole('region', { name: 'Transcript' });
  await expect(reader.locator('[aria-current="true"] mark')).toContainText(/river/i);

  // Download CSV: the very lines `trends --csv` prints.
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const csvText = readFileSync((await csv.path()) ?? '', 'utf8');
  expect(csvText).toBe(
    (await runCli(['trends', 'river', '静か', '--by', 'year', '--csv', '--data-dir', dataDir])).stdout,
  );
  const [svg] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Save chart as SVG' }).click(),
  ]);
  expect(readFileSync((await svg.path()) ?? '', 'utf8')).toMatch(
    /^<svg[^>]+xmlns="http:\/\/www\.w3\.org\/2000\/svg"/,
  );
  const [png] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Save chart as PNG' }).click(),
  ]);
  expect(
    readFileSync((await png.path()) ?? '')
      .subarray(1, 4)
      .toString(),
  ).toBe('PNG');

  await checkEverywhere(page, 'library-trends');

  // Small multiples per channel, and a share: one chart per channel, still one image.
  await page.getByRole('combobox', { name: 'Series' }).selectOption('channel');
  await page.getByRole('combobox', { name: 'Measure' }).selectOption('share');
  await expect(chart).toHaveAttribute(
    'aria-label',
    /Share of the videos \(%\) per year .* one small chart per group/,
  );
  await checkEverywhere(page, 'library-trends-channels');

  // A chip goes as it came.
  await chips.getByRole('button', { name: 'Remove 静か' }).click();
  await expect(chips.getByRole('listitem')).toHaveCount(1);
});

test('Concordance: every hit in its context, sorted by the words around it, and Export hits', async ({
  app: page,
}) => {
  test.slow();
  await fillLibrary(page);
  await page
    .getByRole('navigation', { name: 'Library views' })
    .getByRole('link', { name: 'Concordance' })
    .click();
  await page.getByRole('searchbox', { name: 'Search transcripts' }).fill('river');
  const count = page.locator('.library-count');
  await expect(count).toHaveText(/(\d+) videos, (\d+) hits in all\./);
  const hits = Number(/, (\d+) hits/.exec((await count.textContent()) ?? '')?.[1]);
  const lines = page.getByRole('region', { name: 'Concordance lines' }).locator('tbody tr');
  await expect(lines).toHaveCount(hits);
  await expect(lines.first().locator('mark')).toHaveText(/river/i);

  // Sorted by the word right of the match: the words after each match in order.
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption('right');
  await expect(lines).toHaveCount(hits);
  const rights = await lines.locator('.concordance-right').allTextContents();
  const firstWords = rights.map(
    (text) =>
      text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)[0] ?? '',
  );
  expect(firstWords).toEqual([...firstWords].sort());

  // A line's time opens the reader there.
  await lines
    .first()
    .getByRole('button', { name: /^Read “.*” at / })
    .click();
  await expect(
    page.getByRole('region', { name: 'Transcript' }).locator('[aria-current="true"] mark'),
  ).toContainText(/river/i);

  // Written on the worker thread, then offered as a download.
  await page.getByRole('button', { name: 'Export hits' }).click();
  const link = page.getByRole('link', { name: 'Download concordance.csv' });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const path = await download.path();
  const written = readFileSync(path ?? '', 'utf8')
    .trimEnd()
    .split('\n');
  expect(written[0]).toBe(
    'video_id,transcript_id,language,title,channel_title,published_from,published_to,time,start_seconds,url,left,match,right',
  );
  expect(written).toHaveLength(hits + 1);

  await checkEverywhere(page, 'library-concordance');
});
