import { describePlaylist, describeVideo } from '../../src/simulator';
import { admin, expect, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, pasteSources, startJob } from './support/screens';

const PLAYLIST = 'PLdetailedVideos_n30';

test('Job detail: filter by status, search titles, and a failed row tells its status, code and message', async ({
  app: page,
  sim,
}) => {
  const videoIds = describePlaylist(PLAYLIST).videoIds();
  const failing = videoIds[6] ?? '';
  await admin(sim, 'faults', { match: { videoId: failing }, kind: 'status', status: 500 });
  const title = await startJob(page, [PLAYLIST, 'nocapVideo1']);
  await expectCompleted(page, title, 31);
  const card = jobCard(page, title);
  // Finished with a failure: not a plain success, in the card nor in the detail.
  await expect(card.getByText('Completed, 1 failed', { exact: true })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: title, exact: true })).toHaveClass(/progress-warning/);
  await expect(card.getByText('1 failed', { exact: true })).toBeVisible();
  await expect(
    card.getByText(/Finished, but 1 video failed \(Job detail says why\)\. Retry failed/),
  ).toBeVisible();

  await card.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.locator('.detail-title').getByText('Completed, 1 failed', { exact: true })).toBeVisible();
  // What happened, as it happened: a 500 is not retried, so it did not fail "after every retry".
  await expect(
    page.getByText(
      '1 video failed: the service answered HTTP 500 E_INTERNAL: not retried (only 408, 429 and 502 are tried again).',
    ),
  ).toBeVisible();
  const table = page.getByRole('table', { name: 'Videos' });
  await expect(table).toHaveAttribute('aria-rowcount', '32');
  await expect(page.getByRole('status').filter({ hasText: '31 videos' })).toBeVisible();

  await page.getByRole('radio', { name: /^Failed/ }).check();
  await expect(page.getByRole('status').filter({ hasText: '1 matching video' })).toBeVisible();
  const failedRow = table.getByRole('row').filter({ hasText: 'Failed' });
  await expect(failedRow).toHaveCount(1);
  await expect(failedRow).toContainText(describeVideo(failing).title);
  // The reason says the status once, in the service's words (issue 44).
  await expect(failedRow).toContainText('The service answered 500 (E_INTERNAL)');
  await expect(failedRow).not.toContainText('(HTTP 500)');
  await failedRow.click();
  const details = page.getByRole('region', { name: describeVideo(failing).title });
  await expect(details).toContainText('HTTP status500');
  await expect(details.getByRole('term').filter({ hasText: 'Code' })).toBeVisible();
  await expect(details).toContainText(`Video ID${failing}`);
  await details.getByRole('button', { name: 'Close details' }).click();
  await expect(details).toHaveCount(0);

  // By keyboard: from the search box, Tab reaches the table, arrows move, Enter opens a row.
  await page.getByRole('radio', { name: /^Unavailable/ }).check();
  await expect(page.getByRole('status').filter({ hasText: /matching video/ })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search titles' }).focus();
  await page.keyboard.press('Tab');
  const focused = table.locator('[role="row"]:focus');
  await expect(focused).toContainText('Unavailable');
  await page.keyboard.press('Enter');
  await expect(page.locator('.video-details')).toContainText('StatusUnavailable');

  const searched = describeVideo(videoIds[2] ?? '').title;
  await page.getByRole('radio', { name: /^All/ }).check();
  await page.getByRole('searchbox', { name: 'Search titles' }).fill(searched);
  const matching = videoIds.filter((id) =>
    describeVideo(id).title.toLowerCase().includes(searched.toLowerCase()),
  );
  await expect(table).toHaveAttribute('aria-rowcount', String(matching.length + 1));
  // The header, then only rows whose title holds the words.
  const texts = await table.getByRole('row').allTextContents();
  expect(texts).toHaveLength(matching.length + 1);
  for (const text of texts.slice(1)) expect(text).toContain(searched);

  // Retry failed, once the service is well again: nothing is left failed.
  sim.admin.clearFaults();
  await page.getByRole('button', { name: 'Retry failed' }).click();
  await expect(page.getByRole('radio', { name: /^Failed/ })).toHaveAccessibleName('Failed 0');
  await expect(page.locator('.detail-title').getByText('Completed', { exact: true })).toBeVisible();
});

test('Job detail stays quick with 100,000 videos: only the rows on screen are drawn', async ({
  app: page,
}) => {
  test.slow();
  await goTo(page, 'New job');
  await pasteSources(page, ['PLhundredThousandRows_n100000']);
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  // A safety net, not a verdict on speed: reading 1,000 list pages takes a while on a busy machine.
  await expect(page.getByRole('region', { name: 'Preview' }).getByText('100,000 from 1 source')).toBeVisible({
    timeout: 120_000,
  });

  await goTo(page, 'Jobs');
  await page.getByRole('article').first().getByRole('heading', { level: 2 }).getByRole('link').click();
  const table = page.getByRole('table', { name: 'Videos' });
  await expect(table).toHaveAttribute('aria-rowcount', '100001');
  const body = table.getByRole('rowgroup').nth(1);
  await expect(body.getByRole('row').first()).toContainText('Pending');
  expect(await body.getByRole('row').count()).toBeLessThan(60);

  // End goes to the last video: its page is fetched and the row takes the focus.
  await body.getByRole('row').first().focus();
  await page.keyboard.press('End');
  await expect(table.locator('[role="row"]:focus')).toContainText('100000');
  await expect(table.locator('[role="row"]:focus')).toHaveAttribute('aria-rowindex', '100001');

  // Scrolling to the middle draws the rows there, and still only a screenful of them.
  await body.evaluate((element) => element.scrollTo({ top: element.scrollHeight / 2 }));
  await expect(body.getByRole('row').filter({ hasText: '050000' })).toBeVisible();
  await expect(body.getByText('Loading', { exact: true })).toHaveCount(0);
  expect(await body.getByRole('row').count()).toBeLessThan(60);
});

test('Job detail numbers each video as its files in the ZIP do, names its source, and filters by source', async ({
  app: page,
}) => {
  const sources = ['PLnumberedFirst_n5', 'PLnumberedSecond_n3'];
  const EVERY_NUMBER = ['000001', '000002', '000003', '000004', '000005', '000006', '000007', '000008'];
  const title = await startJob(page, sources);
  await expectCompleted(page, title, 8);
  await jobCard(page, title).getByRole('link', { name: title }).click();
  const table = page.getByRole('table', { name: 'Videos' });
  await expect(table).toHaveAttribute('aria-rowcount', '9');

  // Every video has its own corpus number, six digits, 1 to 8: positions in each list would repeat.
  const numbers = async () => (await table.locator('.vt-item .vt-number').allTextContents()).sort();
  expect(await numbers()).toEqual(EVERY_NUMBER);

  const source = page.getByRole('combobox', { name: 'Source' });
  await source.selectOption({ label: 'PLnumberedSecond_n3' });
  await expect(page.getByRole('status').filter({ hasText: '3 matching videos' })).toBeVisible();
  await expect(table).toHaveAttribute('aria-rowcount', '4');
  const second = await numbers();
  expect(second).toHaveLength(3);
  for (const cell of await table.locator('.vt-item .vt-source').allTextContents())
    expect(cell).toBe('PLnumberedSecond_n3');

  await source.selectOption({ label: 'PLnumberedFirst_n5' });
  await expect(page.getByRole('status').filter({ hasText: '5 matching videos' })).toBeVisible();
  const first = await numbers();
  expect([...first, ...second].sort()).toEqual(EVERY_NUMBER);

  // A row's details name its corpus number and its place in its source.
  await table.locator('.vt-item').first().click();
  const details = page.locator('.video-details');
  await expect(details).toContainText(`Corpus number${first[0] ?? ''}`);
  await expect(details).toContainText(/Position\d in PLnumberedFirst_n5/);

  await source.selectOption({ label: 'All sources' });
  await expect(page.getByRole('status').filter({ hasText: '8 videos' })).toBeVisible();
});
