import type { Locator, Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describePlaylist, type RunningSimulator } from '../../src/simulator';
import { readZip, runCli } from '../support/cli';
import { transcriptSegments, videoFacts } from '../../src/simulator/videos';
import { expect, expectAccessible, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, startJob } from './support/screens';
import { startUi } from './support/ui';

/**
 * A playlist of ten videos in their original languages (seed 1): four English transcripts that say
 * "river" and three Japanese ones, whose words run together, saying 静かに ("quietly").
 */
const CORPUS = 'PLlibraryCorpus3_n10';

/** The simulator's own segments of each captioned video of the corpus, in its original language. */
function corpusTruth(): Array<{
  videoId: string;
  language: string;
  segments: Array<{ text: string; start: number }>;
}> {
  return describePlaylist(CORPUS)
    .videoIds()
    .map((videoId) => videoFacts(videoId, 1))
    .filter((facts) => facts.hasCaptions)
    .map((facts) => ({
      videoId: facts.videoId,
      language: facts.original,
      segments: transcriptSegments(facts, facts.original, 1),
    }));
}

/** Videos and segments whose text holds `matches`, by the simulator's truth. */
function expectedCounts(matches: (text: string) => boolean): { videos: number; hits: number } {
  const perVideo = corpusTruth().map(
    (video) => video.segments.filter((segment) => matches(segment.text)).length,
  );
  return { videos: perVideo.filter((hits) => hits > 0).length, hits: perVideo.reduce((a, b) => a + b, 0) };
}

const saysRiver = (text: string) => /(^|[^\p{L}])river([^\p{L}]|$)/iu.test(text);

/** "03:05" or "1:02:03", as the screens write a moment. */
function clock(seconds: number): string {
  const whole = Math.floor(seconds);
  const pad = (value: number) => String(value).padStart(2, '0');
  const mmss = `${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
  return whole >= 3600 ? `${Math.floor(whole / 3600)}:${mmss}` : mmss;
}

/** Runs the corpus as a job through the app and opens the Library. */
async function fillLibrary(page: Page): Promise<string> {
  const title = await startJob(page, [CORPUS]);
  await expectCompleted(page, title, 10);
  await goTo(page, 'Library');
  return title;
}

async function search(page: Page, words: string): Promise<Locator> {
  await page.getByRole('searchbox', { name: 'Search transcripts' }).fill(words);
  return page.locator('.library-count');
}

/** The Open at link's moment, in whole seconds, and its video. */
async function openAt(reader: Locator): Promise<{ videoId: string; seconds: number; href: string }> {
  const link = reader.getByRole('link', { name: /^Open at / });
  const href = (await link.getAttribute('href')) ?? '';
  const url = new URL(href);
  return {
    href,
    videoId: url.searchParams.get('v') ?? '',
    seconds: Number(/^(\d+)s$/.exec(url.searchParams.get('t') ?? '')?.[1] ?? NaN),
  };
}

/** A CSV file read by Python's csv module: an independent reader. */
function readCsv(path: string): string[][] {
  const python = [
    'import csv, json, sys',
    'with open(sys.argv[1], newline="", encoding="utf-8-sig") as f:',
    '    print(json.dumps(list(csv.reader(f))))',
  ].join('\n');
  const run = spawnSync('python3', ['-c', python, path], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 could not read ${path}: ${run.stderr}`);
  return JSON.parse(run.stdout) as string[][];
}

test('searching the library: hits grouped by video with their times and the match marked, Japanese included', async ({
  app: page,
}) => {
  const title = await fillLibrary(page);
  await expect(page.getByRole('link', { name: 'Library' })).toHaveAttribute('aria-current', 'page');

  const river = expectedCounts(saysRiver);
  const count = await search(page, 'RIVER');
  await expect(count).toHaveText(`${river.videos} videos, ${river.hits} hits in all.`);
  const groups = page.getByRole('list', { name: 'Videos found' }).locator(':scope > li');
  await expect(groups).toHaveCount(river.videos);
  // Each hit: its moment and its text, "river" marked.
  const hits = page.locator('button.hit');
  await expect(hits).toHaveCount(river.hits);
  for (const hit of (await hits.all()).slice(0, 8)) {
    await expect(hit.locator('.hit-time')).toHaveText(/^\d{2}:\d{2}$|^\d+:\d{2}:\d{2}$/);
    await expect(hit.locator('mark').first()).toHaveText(/^river$/i);
  }

  // Japanese: words without spaces match inside a longer run of text.
  const japanese = expectedCounts((text) => text.includes('静か'));
  await search(page, '静か');
  await expect(count).toHaveText(`${japanese.videos} videos, ${japanese.hits} hits in all.`);
  await expect(page.locator('button.hit mark').first()).toHaveText('静か');
  // A language filter narrows to it; a job filter keeps the job's hits.
  await page.getByRole('textbox', { name: 'Language' }).fill('en');
  await expect(count).toHaveText('No transcript matches “静か”.');
  await page.getByRole('textbox', { name: 'Language' }).fill('ja');
  await expect(count).toHaveText(`${japanese.videos} videos, ${japanese.hits} hits in all.`);
  await page.getByRole('combobox', { name: 'Job' }).selectOption({ label: `Job 1: ${title}` });
  await expect(count).toHaveText(`${japanese.videos} videos, ${japanese.hits} hits in all.`);

  // A query the index cannot read is refused in plain words, and costs nothing.
  await search(page, '"river');
  const refusal = page.getByRole('alert');
  await expect(refusal).toBeVisible();
  await expect(refusal).not.toContainText(/fts5|syntax error/i);
  await search(page, 'zebra');
  await expect(count).toHaveText('No transcript matches “zebra”.');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('the reader shows the whole transcript at the hit, moves between hits and opens the video at that second', async ({
  app: page,
}) => {
  await fillLibrary(page);
  const river = expectedCounts(saysRiver);
  await expect(await search(page, 'river')).toHaveText(`${river.videos} videos, ${river.hits} hits in all.`);
  const firstGroup = page.getByRole('list', { name: 'Videos found' }).locator(':scope > li').first();
  const groupHits = firstGroup.locator('button.hit');
  const hitCount = await groupHits.count();
  expect(hitCount).toBeGreaterThan(2);
  await groupHits.nth(1).click();

  const reader = page.getByRole('region', { name: 'Transcript' });
  await expect(reader.getByRole('status')).toHaveText(`Hit 2 of ${hitCount}`);
  const current = reader.locator('[aria-current="true"]');
  await expect(current).toBeInViewport();
  await expect(current.locator('mark')).toContainText(/river/i);

  // The link: https, the video at the hit's whole second, which the simulator's segment says.
  const at = await openAt(reader);
  expect(at.href).toMatch(/^https:\/\/www\.youtube\.com\/watch\?v=[\w-]{11}&t=\d+s$/);
  const video = corpusTruth().find((candidate) => candidate.videoId === at.videoId);
  const segment = video?.segments.find((candidate) => Math.floor(candidate.start) === at.seconds);
  expect(segment !== undefined && saysRiver(segment.text)).toBe(true);
  await expect(reader.getByRole('link', { name: /^Open at / })).toHaveAccessibleName(
    new RegExp(`^Open at ${clock(at.seconds)}`),
  );
  await expect(current.locator('.reader-segment-time')).toHaveText(clock(at.seconds));
  // The whole transcript is there: its segment count, as the simulator made it.
  await expect(reader).toContainText(`${video?.segments.length} segments`);

  await reader.getByRole('button', { name: 'Next hit' }).click();
  await expect(reader.getByRole('status')).toHaveText(`Hit 3 of ${hitCount}`);
  const next = await openAt(reader);
  expect(next.seconds).toBeGreaterThan(at.seconds);
  await expect(current).toBeInViewport();
  await expect(groupHits.nth(2)).toHaveAttribute('aria-current', 'true');

  await reader.getByRole('button', { name: 'Previous hit' }).click();
  await reader.getByRole('button', { name: 'Previous hit' }).click();
  await expect(reader.getByRole('status')).toHaveText(`Hit 1 of ${hitCount}`);
  expect((await openAt(reader)).seconds).toBeLessThan(at.seconds);
  // At the first hit, there is no previous one: the button says so, and stays in the tab order.
  await expect(reader.getByRole('button', { name: 'Previous hit' })).toHaveAttribute('aria-disabled', 'true');
  await reader.getByRole('button', { name: 'Previous hit' }).focus();
  await page.keyboard.press('Enter');
  await expect(reader.getByRole('status')).toHaveText(`Hit 1 of ${hitCount}`);

  // From the keyboard: the focus stays on Next hit as it moves.
  await reader.getByRole('button', { name: 'Next hit' }).focus();
  await page.keyboard.press('Enter');
  await expect(reader.getByRole('status')).toHaveText(`Hit 2 of ${hitCount}`);
  await expect(reader.getByRole('button', { name: 'Next hit' })).toBeFocused();
});

test('Job detail opens the reader from a video with a transcript', async ({ app: page }) => {
  const title = await startJob(page, [CORPUS]);
  await expectCompleted(page, title, 10);
  await jobCard(page, title).getByRole('link', { name: title }).click();
  const table = page.getByRole('table', { name: 'Videos' });
  await table
    .getByRole('row')
    .filter({ has: page.locator('.badge-video-ok') })
    .first()
    .click();
  await page.getByRole('button', { name: 'Read the transcript' }).click();
  const reader = page.getByRole('region', { name: 'Transcript' });
  await expect(reader.getByRole('listitem').first()).toBeVisible();
  // Without a search, the reader starts at the first segment and has no hits to move between.
  await expect(reader.getByRole('link', { name: /^Open at / })).toHaveAttribute('href', /&t=\d+s$/);
  await expect(reader.getByRole('button', { name: 'Next hit' })).toHaveCount(0);
  await reader.getByRole('button', { name: 'Close transcript' }).click();
  await expect(reader).toHaveCount(0);
});

test('Export results downloads the hits as CSV, and Export these videos makes a job that exports without spending a credit', async ({
  app: page,
  sim,
  dataDir,
}) => {
  await fillLibrary(page);
  const river = expectedCounts(saysRiver);
  const count = await search(page, 'river');
  await expect(count).toHaveText(`${river.videos} videos, ${river.hits} hits in all.`);

  const [answer] = await Promise.all([
    page.waitForResponse((response) => response.url().endsWith('/api/command/exportSearchResults')),
    page.getByRole('button', { name: 'Export results' }).click(),
  ]);
  // Written on a worker thread, not on the thread that serves the page (its threadId is 0).
  const { value } = (await answer.json()) as { value: { threadId: number; hits: number } };
  expect(value).toMatchObject({ hits: river.hits, threadId: expect.any(Number) });
  expect(value.threadId).toBeGreaterThan(0);
  const link = page.getByRole('link', { name: /^Download .+\.csv$/ });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const path = join(dataDir, '..', download.suggestedFilename());
  await download.saveAs(path);
  const [header, ...rows] = readCsv(path);
  expect(header).toEqual([
    'video_id',
    'transcript_id',
    'language',
    'title',
    'time',
    'start_seconds',
    'url',
    'snippet',
  ]);
  expect(rows).toHaveLength(river.hits);
  const truth = corpusTruth();
  for (const row of rows) {
    const [videoId, , language, , , , url] = row;
    expect(truth.find((video) => video.videoId === videoId)?.language).toBe('en');
    expect(language).toBe('en');
    expect(url).toMatch(new RegExp(`^https://www\\.youtube\\.com/watch\\?v=${videoId}&t=\\d+s$`));
  }

  // The videos as a job: its transcripts are on this computer already.
  const charges = sim.admin.ledger().length;
  const credits = page.getByRole('region', { name: 'Credits' });
  const spent = (await credits.locator('dt', { hasText: 'In total' }).locator('+ dd').textContent()) ?? '';
  await page.getByRole('button', { name: 'Export these videos' }).click();
  // The job is named after the search (the screen says "Job" while it loads).
  const jobTitle = 'Search: river';
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(jobTitle);
  await expect(page.getByRole('table', { name: 'Videos' })).toHaveAttribute(
    'aria-rowcount',
    String(river.videos + 1),
  );
  await goTo(page, 'Jobs');
  const card = jobCard(page, jobTitle);
  // Made from the cache, it is complete at once, and says it spends nothing (never "0 of a 0 budget").
  await expectCompleted(page, jobTitle, river.videos);
  await expect(card).toContainText('Credits0, none to spend: it uses transcripts already bought');
  await card.getByRole('link', { name: jobTitle, exact: true }).focus();
  await expect(credits).toContainText('Budget leftnone to spend');
  await card.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Export ZIP' }).click();
  const zipLink = dialog.getByRole('link', { name: /^Download .+\.zip$/ });
  const [zipDownload] = await Promise.all([page.waitForEvent('download'), zipLink.click()]);
  const zipPath = join(dataDir, '..', zipDownload.suggestedFilename());
  await zipDownload.saveAs(zipPath);
  const zip = await readZip(zipPath);
  expect(zip.manifest.job_finished).toBe(true);
  expect(zip.transcripts.map((record) => record.video_id).sort()).toEqual(
    [...new Set(rows.map(([videoId]) => videoId))].sort(),
  );
  expect(sim.admin.ledger()).toHaveLength(charges);
  await expect(credits.locator('dt', { hasText: 'In total' }).locator('+ dd')).toHaveText(spent);
});

test('while Export results is written, the screen says how far it has come and offers Cancel export', async ({
  app: page,
}) => {
  await fillLibrary(page);
  const river = expectedCounts(saysRiver);
  await expect(await search(page, 'river')).toHaveText(`${river.videos} videos, ${river.hits} hits in all.`);
  // The app's answer is held back until the test lets it through: the screen stays "writing", and
  // shows the progress events the app sent meanwhile.
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let answered = (): void => undefined;
  const appAnswered = new Promise<void>((resolve) => (answered = resolve));
  await page.route('**/api/command/exportSearchResults', async (route) => {
    const response = await route.fetch();
    answered();
    await released;
    await route.fulfill({ response });
  });
  await page.getByRole('button', { name: 'Export results' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Writing the CSV/ })).toHaveText(
    `Writing the CSV: ${river.hits} of ${river.hits} hits…`,
  );
  const cancel = page.getByRole('button', { name: 'Cancel export' });
  await expect(cancel).toBeVisible();
  await expectAccessible(page, 'Library, Export results under way');
  // Here the app has answered, the whole file written: the cancel comes too late, and the file stays.
  await appAnswered;
  const [cancelAnswer] = await Promise.all([
    page.waitForResponse((response) => response.url().endsWith('/api/command/cancelSearchExport')),
    cancel.click(),
  ]);
  expect(await cancelAnswer.json()).toEqual({ ok: true, value: { cancelled: false } });
  await expect(cancel).toHaveAttribute('aria-disabled', 'true');
  release();
  await expect(page.getByRole('link', { name: /^Download .+\.csv$/ })).toBeVisible();
  await expect(cancel).toHaveCount(0);
});

test('the reader follows the search: a new query that does not find its transcript closes it', async ({
  app: page,
}) => {
  await fillLibrary(page);
  await search(page, 'river');
  await page.getByRole('list', { name: 'Videos found' }).locator('button.hit').nth(1).click();
  const reader = page.getByRole('region', { name: 'Transcript' });
  await expect(reader.getByRole('status')).toHaveText(/^Hit \d+ of \d+$/);

  const count = await search(page, 'zebra');
  await expect(count).toHaveText('No transcript matches “zebra”.');
  await expect(reader).toHaveCount(0);
});

/** Buys `playlist` into the ui's data folder with the CLI, as another way of buying would. */
async function boughtByCli(sim: RunningSimulator, dataDir: string, args: string[]): Promise<void> {
  const run = await runCli(['export', ...args, '--out', join(dataDir, '..', 'cli.zip')], {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: dataDir,
  });
  expect(run.code, run.stderr).toBe(0);
}

test('Export these videos says which matching videos it leaves out, bought another way', async ({
  app: page,
  sim,
  dataDir,
}) => {
  // Videos in English, without times: a way of buying fewer videos took than the corpus's.
  const other = 'PLlibraryOtherWay1_n3';
  await boughtByCli(sim, dataDir, [other, '--lang', 'en', '--no-timestamps']);
  const otherSaysRiver = describePlaylist(other)
    .videoIds()
    .map((videoId) => videoFacts(videoId, 1))
    .filter((facts) => facts.hasCaptions && facts.languages.includes('en'))
    .filter((facts) => transcriptSegments(facts, 'en', 1).some((segment) => saysRiver(segment.text))).length;
  expect(otherSaysRiver).toBeGreaterThan(0);
  await fillLibrary(page);
  const river = expectedCounts(saysRiver);
  expect(river.videos).toBeGreaterThan(otherSaysRiver);

  await search(page, 'river');
  await page.getByRole('button', { name: 'Export these videos' }).click();
  const said = page.getByRole('status').filter({ hasText: /left out/ });
  await expect(said).toContainText(
    `Made a job of ${river.videos} videos. ${otherSaysRiver} matching video${otherSaysRiver === 1 ? '' : 's'}`,
  );
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Library');
  await page.getByRole('link', { name: 'Open the job' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search: river');
});

test('after an upgrade, the Library says how far indexing the stored transcripts has come', async ({
  page,
  sim,
  dataDir,
}) => {
  await boughtByCli(sim, dataDir, [CORPUS]);
  // As an upgrade leaves a data folder: every transcript stored, none indexed yet.
  const db = new BetterSqlite3(join(dataDir, 'scriptorium.db'));
  db.exec(`INSERT INTO segment_index (segment_index) VALUES ('delete-all');
    UPDATE transcript_index_backfill SET done_through = 0,
      until_id = (SELECT max(id) FROM transcripts), indexed_through = (SELECT max(id) FROM transcripts);`);
  const transcripts = db.prepare('SELECT count(*) FROM transcripts').pluck().get() as number;
  db.close();

  const ui = await startUi({ dataDir, baseUrl: sim.url, key: sim.key });
  try {
    await page.goto(ui.url);
    await goTo(page, 'Library');
    const status = page.locator('.library-indexing');
    await expect(status).toHaveText(
      `Your stored transcripts are indexed for search: ${transcripts} of ${transcripts}.`,
    );
    await expectAccessible(page, 'Library, indexing');
    const river = expectedCounts(saysRiver);
    await expect(await search(page, 'river')).toHaveText(
      `${river.videos} videos, ${river.hits} hits in all.`,
    );
  } finally {
    await ui.stop();
  }
});
