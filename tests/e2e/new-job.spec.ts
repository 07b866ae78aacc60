import { describePlaylist } from '../../src/simulator';
import { expect, test } from './support/fixtures';
import { dropOnWindow } from './support/drop';
import { expectCompleted, goTo, jobCard, pasteSources } from './support/screens';

const PLAYLIST = 'https://www.youtube.com/playlist?list=PLdemoLectures_n60';
const CHANNEL = '@demo_channel_n25';
const SEARCH = 'search:history of science';
/** A search source is one page of at most 50 videos. */
const VIDEOS = 60 + 25 + 50;

test('a new user pastes sources, sees each line read, previews the cost and starts', async ({
  app: page,
  sim,
}) => {
  await goTo(page, 'New job');
  await pasteSources(page, [PLAYLIST, CHANNEL, 'youtube.com/watch?v=short', SEARCH]);

  const summary = page.locator('#sources-summary');
  await expect(summary).toHaveText(
    '3 sources: 1 playlist, 1 channel and 1 search. 1 line is not a source and will be left out.',
  );
  const lines = page.getByRole('region', { name: 'How each line reads' });
  await expect(lines.getByRole('row', { name: /^1 .*PLdemoLectures_n60 Playlist$/ })).toBeVisible();
  await expect(lines.getByRole('row', { name: /^3 youtube\.com\/watch\?v=short/ })).toContainText(
    'Not a source: a video ID has 11 characters',
  );
  await expect(lines.getByRole('row', { name: /^4 search:history of science Search$/ })).toBeVisible();

  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByText(`${VIDEOS} from 3 sources`)).toBeVisible();
  await expect(preview.getByText(`at most ${VIDEOS} credits`)).toBeVisible();
  // The preview bought the list pages only, never a transcript.
  const ledger = sim.admin.ledger();
  expect(ledger.length).toBeGreaterThan(0);
  expect(ledger.filter((charge) => charge.endpoint === 'transcript')).toEqual([]);
  const pagesBought = ledger.length;
  await expect(preview.getByText(`${pagesBought}, already paid`)).toBeVisible();

  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Started' })).toBeVisible();
  const title =
    (await page.getByRole('article').first().getByRole('heading', { level: 2 }).textContent()) ?? '';
  await expectCompleted(page, title, VIDEOS);

  // Start bought no list page again; the rest are transcripts.
  const after = sim.admin.ledger();
  expect(after.filter((charge) => charge.endpoint !== 'transcript')).toHaveLength(pagesBought);
  await expect(page.getByRole('region', { name: 'Credits' })).toContainText(
    `In total${after.length} credits`,
  );
});

test('a preview of long lists can be stopped, and says what it read so far', async ({ app: page, sim }) => {
  test.slow();
  await goTo(page, 'New job');
  const long = 'PLlongPreviewList_n9000';
  await pasteSources(page, [long, 'PLsecondLongList_n9000']);
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const stop = page.getByRole('button', { name: 'Stop preview' });
  await expect(
    page.getByText(/Reading the lists… \d+ of 2 sources read, [1-9][\d,]* videos found/),
  ).toBeVisible();
  // The lists cannot be read to their end before the click lands: the page in flight waits for it.
  const release = sim.admin.holdAnswers();
  await stop.click();
  release();

  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByText(/You stopped the preview after [01] of 2 sources/)).toBeVisible();
  const pages = sim.admin.ledger().length;
  expect(pages).toBeLessThan((2 * describePlaylist(long).size) / 100);
  // Stopped means stopped: no page of the stopped lists is bought after the preview says so. A walk
  // still going would ask for its next page as soon as an answer came, so by the time a preview of
  // another list has been read to its end, any such page is in the ledger.
  const after = 'PLafterStoppedPreview_n5';
  await pasteSources(page, [after]);
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(preview.getByText('5 from 1 source')).toBeVisible();
  expect(
    sim.admin
      .ledger()
      .slice(pages)
      .map((charge) => charge.playlist),
  ).toEqual([after]);
});

test('a text or CSV file and a link dropped on the window become sources', async ({ app: page }) => {
  // Dropped on the Jobs screen: the New job screen opens with the link in it.
  await dropOnWindow(page, {
    uriList: '# dragged from a browser\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ',
  });
  await expect(page.getByRole('heading', { level: 1, name: 'New job' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Sources' })).toHaveValue(
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ\n',
  );

  await dropOnWindow(page, {
    file: {
      name: 'sources.csv',
      text: 'url,note\n"@demo_channel_n25","a channel, quoted"\nPLfromSpreadsheet_n10,list\n',
    },
  });
  await expect(page.getByRole('status').filter({ hasText: 'Added 2 lines from sources.csv.' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Sources' })).toHaveValue(
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ\n@demo_channel_n25\nPLfromSpreadsheet_n10\n',
  );
  await expect(page.locator('#sources-summary')).toHaveText('3 sources: 1 playlist, 1 channel and 1 video.');

  // The file chooser reads a text file line by line.
  await page.getByLabel('Add sources from a file…').setInputFiles({
    name: 'more.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('search:medieval scriptoria\n'),
  });
  await expect(page.locator('#sources-summary')).toHaveText(
    '4 sources: 1 playlist, 1 channel, 1 search and 1 video.',
  );
});

test('Start says what is missing instead of sending a job that cannot run', async ({ app: page }) => {
  await goTo(page, 'New job');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Paste at least one source first');

  await pasteSources(page, ['not a source']);
  await page.getByRole('spinbutton', { name: 'Concurrency' }).fill('100');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByText('Enter a whole number from 1 to 64.')).toBeVisible();
  await expect(page.getByRole('spinbutton', { name: 'Concurrency' })).toHaveAttribute('aria-invalid', 'true');

  await page.getByRole('spinbutton', { name: 'Concurrency' }).fill('2');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('No valid source remains');
  await goTo(page, 'Jobs');
  await expect(page.getByRole('heading', { name: 'No jobs yet' })).toBeVisible();
  await expect(jobCard(page, 'not a source')).toHaveCount(0);
});

test('a paste of 150 lines: only the problems on request, the invalid ones removed, the preview brought into view', async ({
  app: page,
}) => {
  await goTo(page, 'New job');
  // 146 videos, 3 lines that are not sources and one repeat.
  const videos = Array.from(
    { length: 146 },
    (_, i) => `https://youtu.be/pasted${String(i).padStart(5, '0')}`,
  );
  const pasted = [...videos.slice(0, 70), 'not a source', videos[3]!, 'nor this', ...videos.slice(70), 'x'];
  await pasteSources(page, pasted);
  const summary = page.locator('#sources-summary');
  await expect(summary).toHaveText(
    /^146 sources: 146 videos\. 4 lines are not a source and will be left out\.$/,
  );

  const lines = page.getByRole('region', { name: 'How each line reads' });
  await page.getByRole('checkbox', { name: 'Show only problems' }).check();
  await expect(lines.getByRole('row')).toHaveCount(1 + 4);
  await expect(
    lines.getByRole('row', { name: /^72 .*Not a source: already listed at line 4/ }),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Remove invalid lines' }).click();
  await expect(page.getByRole('textbox', { name: 'Sources' })).toHaveValue(videos.join('\n'));
  await expect(summary).toHaveText('146 sources: 146 videos.');
  await expect(page.getByRole('button', { name: 'Remove invalid lines' })).toHaveCount(0);

  // The selection's dates are one stop of the Tab key each.
  await page.getByText('Selection', { exact: true }).click();
  await page.getByLabel('Published after').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Published before')).toBeFocused();

  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const heading = page.getByRole('heading', { level: 2, name: 'Preview' });
  await expect(page.getByRole('region', { name: 'Preview' }).getByText('146 from 146 sources')).toBeVisible();
  await expect(heading).toBeFocused();
  await expect(heading).toBeInViewport();
});

test('a job is named when it is made, renamed in its detail, and otherwise named after what it holds', async ({
  app: page,
}) => {
  await goTo(page, 'New job');
  await pasteSources(page, ['PLnamedLaterList_n2', '@named_channel_n2', 'dQw4w9WgXcQ']);
  await page.getByRole('textbox', { name: 'Job name' }).fill('Spring lectures');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expectCompleted(page, 'Spring lectures', 5);

  await jobCard(page, 'Spring lectures').getByRole('link', { name: 'Spring lectures' }).click();
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  const field = page.getByRole('textbox', { name: 'Job name' });
  await expect(field).toHaveValue('Spring lectures');
  await expect(field).toBeFocused();
  await field.fill('Autumn term');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Autumn term' })).toBeVisible();

  // Emptied, the name is what the job holds again.
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  await page.getByRole('textbox', { name: 'Job name' }).fill('');
  await page.getByRole('textbox', { name: 'Job name' }).press('Enter');
  // Its lists' titles, then how many more sources: shared/job-name.ts's rule, in every face.
  await expect(page.getByRole('heading', { level: 1, name: /^.+, .+ and 1 more$/ })).toBeVisible();
});
