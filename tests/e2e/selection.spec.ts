import type { Locator } from '@playwright/test';
import { describePlaylist, describeVideo } from '../../src/simulator';
import { expect, expectAccessible, saveScreenshot, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, pasteSources } from './support/screens';

/** A playlist of exactly 40 videos. */
const PLAYLIST = 'PLresearchSelection_n40';

const isFocused = (control: Locator): Promise<boolean> =>
  control.evaluate((element) => element.matches(':focus'));

test('Selection: each problem under its field stops Preview and Start; positions 1-10 preview 10 kept and buy only those', async ({
  app: page,
  sim,
}) => {
  await goTo(page, 'New job');
  await pasteSources(page, [PLAYLIST]);
  const selection = page.getByRole('group', { name: 'Selection' });

  // Problems show as they are typed, under their field.
  const match = selection.getByRole('textbox', { name: 'Title matches' });
  await match.fill('(lecture');
  await expect(match).toHaveAttribute('aria-invalid', 'true');
  await expect(match).toHaveAccessibleDescription(/Not a regular expression/);
  const shortest = selection.getByRole('spinbutton', { name: 'Shortest (minutes)' });
  const longest = selection.getByRole('spinbutton', { name: 'Longest (minutes)' });
  await shortest.fill('10');
  await longest.fill('5');
  await expect(longest).toHaveAccessibleDescription(/less than the shortest/);
  await selection.getByLabel('Published after').fill('2024-06-01');
  await selection.getByLabel('Published before').fill('2024-01-01');
  await expect(selection.getByLabel('Published before')).toHaveAccessibleDescription(
    /before the “Published after” day/,
  );
  const positions = selection.getByRole('textbox', { name: 'Positions' });
  await expect(positions).toHaveAccessibleDescription(/1-50,100,-10:/);
  await positions.fill('1-ten');
  await expect(positions).toHaveAccessibleDescription(/"1-ten" is not a position/);

  // While a problem stands, nothing is sent: no job, no page bought.
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Some of the Selection is not valid');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Some of the Selection is not valid');
  expect(sim.admin.requests()).toEqual([]);

  await match.fill('');
  await shortest.fill('');
  await longest.fill('');
  await selection.getByLabel('Published after').fill('');
  await selection.getByLabel('Published before').fill('');
  await positions.fill('1-10');
  await expect(selection.locator('[aria-invalid="true"]')).toHaveCount(0);
  const captions = selection.getByRole('checkbox', { name: 'Skip videos without captions' });
  await expect(captions).not.toBeChecked();
  await expect(captions).toHaveAccessibleDescription(/not always right/);

  // Every new control is reached by Tab, in order.
  await match.focus();
  for (const name of [
    'Title does not match',
    'Shortest (minutes)',
    'Longest (minutes)',
    'Published after',
    'Published before',
    'Positions',
    'Skip videos without captions',
  ]) {
    const control = selection.getByLabel(name, { exact: true });
    // A date input takes a Tab for each part (month, day, year) and one for its calendar button.
    for (let presses = 0; presses < 5 && !(await isFocused(control)); presses++)
      await page.keyboard.press('Tab');
    await expect(control).toBeFocused();
  }

  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByText('40 from 1 source')).toBeVisible();
  await expect(preview.getByText('10 (30 left out, at no cost)')).toBeVisible();
  await expect(preview.getByRole('list', { name: 'Selection' })).toHaveText('Positions 1-10 of each list');
  await expect(preview.getByText('Not at positions 1-10: 30 videos left out')).toBeVisible();
  await expect(preview.getByText('at most 10 credits')).toBeVisible();
  const pagesBought = sim.admin.ledger();
  expect(pagesBought.filter((charge) => charge.endpoint === 'transcript')).toEqual([]);

  for (const colorScheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAccessible(page, `New job with a selection (${colorScheme})`);
  }
  await selection.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await saveScreenshot(page, 'new-job-selection-light');

  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  const title =
    (await page.getByRole('article').first().getByRole('heading', { level: 2 }).textContent()) ?? '';
  await expectCompleted(page, title, 40);

  // Exactly the first ten transcripts, and no list page bought again.
  const ledger = sim.admin.ledger();
  const transcripts = ledger.filter((charge) => charge.endpoint === 'transcript');
  expect(transcripts.map((charge) => charge.videoId).sort()).toEqual(
    describePlaylist(PLAYLIST).videoIds().slice(0, 10).sort(),
  );
  expect(ledger.filter((charge) => charge.endpoint !== 'transcript')).toHaveLength(pagesBought.length);

  // The job's screen says its selection, and lists the videos left out with the filter's words.
  await jobCard(page, title).getByRole('link', { name: title }).click();
  await expect(page.getByText('Selection: Positions 1-10 of each list.')).toBeVisible();
  await page.getByRole('radio', { name: /^Skipped/ }).check();
  await expect(page.getByRole('radio', { name: /^Skipped/ })).toHaveAccessibleName('Skipped 30');
  await expect(page.getByRole('status').filter({ hasText: '30 matching videos' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Videos' });
  await expect(table).toHaveAttribute('aria-rowcount', '31');
  const first = table.getByRole('row').nth(1);
  await expect(first).toContainText('11');
  await expect(first).toContainText('Skipped');
  await expect(first).toContainText('Not at positions 1-10');
  await page.getByRole('radio', { name: /^OK/ }).check();
  await expect(table.getByRole('row').filter({ hasText: 'Not at positions' })).toHaveCount(0);
});

test('Selection: lengths are typed in minutes, and the preview counts what each length filter left out once', async ({
  app: page,
}) => {
  const playlist = 'PLresearchLengths_n60';
  const lengths = describePlaylist(playlist)
    .videoIds()
    .map((id) => describeVideo(id).lengthSeconds);
  const shorter = lengths.filter((seconds) => seconds < 600).length;
  const longer = lengths.filter((seconds) => seconds > 1830).length;
  // Several videos of each kind: the preview must count them under one line per filter.
  expect(shorter).toBeGreaterThan(1);
  expect(longer).toBeGreaterThan(1);

  await goTo(page, 'New job');
  await pasteSources(page, [playlist]);
  const selection = page.getByRole('group', { name: 'Selection' });
  await selection.getByRole('spinbutton', { name: 'Shortest (minutes)' }).fill('10');
  await selection.getByRole('spinbutton', { name: 'Longest (minutes)' }).fill('30.5');
  await page.getByRole('button', { name: 'Preview', exact: true }).click();

  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('list', { name: 'Selection' }).getByRole('listitem')).toHaveText([
    'At least 600 s long',
    'At most 1830 s long',
  ]);
  const leftOut = preview.getByRole('list', { name: 'Left out:' }).getByRole('listitem');
  await expect(leftOut).toHaveCount(2);
  await expect(leftOut.filter({ hasText: 'Shorter' })).toHaveText(
    `Shorter than 600 s: ${shorter} videos left out`,
  );
  await expect(leftOut.filter({ hasText: 'Longer' })).toHaveText(
    `Longer than 1830 s: ${longer} videos left out`,
  );
  await expect(
    preview.getByText(`${60 - shorter - longer} (${shorter + longer} left out, at no cost)`),
  ).toBeVisible();
});
