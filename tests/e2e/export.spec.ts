import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readZip } from '../support/cli';
import { expect, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, startJob } from './support/screens';

test('Export writes the chosen formats into a ZIP the browser downloads', async ({ app: page, dataDir }) => {
  const title = await startJob(page, ['PLexportedCorpus_n30']);
  await expectCompleted(page, title, 30);

  await jobCard(page, title).getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Export “${title}”` });
  await expect(dialog.getByRole('checkbox', { name: 'TXT' })).toBeChecked();
  await dialog.getByRole('checkbox', { name: 'SRT' }).uncheck();
  await dialog.getByRole('checkbox', { name: 'VTT' }).uncheck();
  await dialog.getByRole('button', { name: 'Export ZIP' }).click();

  const link = dialog.getByRole('link', { name: /^Download scriptorium-job-1-.*\.zip$/ });
  await expect(link).toBeVisible();
  await expect(dialog.getByRole('status')).toContainText('The ZIP is ready');
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const path = join(dataDir, '..', download.suggestedFilename());
  await download.saveAs(path);

  const zip = await readZip(path);
  expect(zip.bad_crc).toBeNull();
  expect(zip.path_problems).toEqual([]);
  expect(zip.manifest.job_finished).toBe(true);
  expect(zip.manifest.counts.videos).toBe(30);
  const names = zip.entries.map((entry) => entry.name);
  expect(names.filter((name) => name.startsWith('txt/'))).toHaveLength(zip.manifest.counts.ok);
  expect(names.filter((name) => name.startsWith('json/'))).toHaveLength(zip.manifest.counts.ok);
  expect(names.filter((name) => name.startsWith('srt/') || name.startsWith('vtt/'))).toEqual([]);
  expect(zip.transcripts).toHaveLength(zip.manifest.counts.ok);

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(jobCard(page, title).getByRole('button', { name: 'Export', exact: true })).toBeFocused();
});

test('The Export dialog puts the corpus title, authors and license in CITATION.cff, starting from Settings', async ({
  app: page,
  dataDir,
}) => {
  // Defaults for corpora, in Settings: a wrong license is refused there, nothing is saved.
  await goTo(page, 'Settings');
  const defaults = page.getByRole('region', { name: 'Defaults for corpora' });
  await defaults.getByRole('textbox', { name: 'Authors' }).fill('Lovelace, Ada 0000-0002-1825-0097');
  await defaults.getByRole('textbox', { name: 'License' }).fill('CC-BY-5.0');
  await defaults.getByRole('button', { name: 'Save corpus defaults' }).click();
  await expect(defaults.getByRole('textbox', { name: 'License' })).toHaveAccessibleDescription(
    /is not an SPDX license id/,
  );
  await defaults.getByRole('textbox', { name: 'License' }).fill('cc-by-4.0');
  await defaults.getByRole('button', { name: 'Save corpus defaults' }).click();
  await expect(defaults.getByRole('status')).toContainText('Saved');

  const title = await startJob(page, ['PLcitedCorpus_n4']);
  await expectCompleted(page, title, 4);
  await jobCard(page, title).getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Export “${title}”` });
  const authors = dialog.getByRole('textbox', { name: 'Authors' });
  await expect(authors).toHaveValue('Lovelace, Ada 0000-0002-1825-0097');
  await expect(dialog.getByRole('textbox', { name: 'License' })).toHaveValue('cc-by-4.0');

  // A mistyped ORCID iD (its check digit) is shown on its line, and no ZIP is written.
  await dialog.getByRole('textbox', { name: 'Corpus title' }).fill('Lectures on engines');
  await authors.fill('Lovelace, Ada 0000-0002-1825-0097\nCharles Babbage 0000-0002-1825-0098');
  await dialog.getByRole('button', { name: 'Export ZIP' }).click();
  await expect(authors).toHaveAccessibleDescription(/Line 2: .*is not an ORCID iD/);
  await expect(dialog.getByRole('link', { name: /^Download / })).toHaveCount(0);

  await authors.fill('Lovelace, Ada 0000-0002-1825-0097\nCharles Babbage');
  await dialog.getByRole('button', { name: 'Export ZIP' }).click();
  const link = dialog.getByRole('link', { name: /^Download scriptorium-job-1-.*\.zip$/ });
  // What the corpus carries now that it did not before, a line per part.
  const changes = dialog.getByRole('list', { name: 'Citation changes' });
  await expect(changes.getByRole('listitem')).toHaveText([
    'Title: "Lectures on engines" (before: made from its sources)',
    'Authors: Ada Lovelace 0000-0002-1825-0097; Charles Babbage (before: Ada Lovelace 0000-0002-1825-0097)',
  ]);
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const path = join(dataDir, '..', download.suggestedFilename());
  await download.saveAs(path);
  const { citation } = await readZip(path);
  expect(citation).toContain('title: "Lectures on engines"');
  expect(citation).toContain(
    '  - family-names: "Lovelace"\n    given-names: "Ada"\n    orcid: "https://orcid.org/0000-0002-1825-0097"',
  );
  expect(citation).toContain('  - family-names: "Babbage"\n    given-names: "Charles"');
  expect(citation).toContain('license: "CC-BY-4.0"');
  expect(citation).not.toContain('Scriptorium user');

  // The job keeps its citation: the next export starts from it, not from the defaults.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await jobCard(page, title).getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog.getByRole('textbox', { name: 'Corpus title' })).toHaveValue('Lectures on engines');
  await expect(dialog.getByRole('textbox', { name: 'Authors' })).toHaveValue(
    'Ada Lovelace 0000-0002-1825-0097\nCharles Babbage',
  );

  // An emptied field clears its part, and only that part.
  await dialog.getByRole('textbox', { name: 'Corpus title' }).fill('');
  await dialog.getByRole('button', { name: 'Export ZIP' }).click();
  await expect(changes.getByRole('listitem')).toHaveText([
    'Title: made from its sources (before: "Lectures on engines")',
  ]);
  const [again] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('link', { name: /^Download / }).click(),
  ]);
  const second = join(dataDir, '..', `again-${again.suggestedFilename()}`);
  await again.saveAs(second);
  const cleared = (await readZip(second)).citation;
  expect(cleared).not.toContain('Lectures on engines');
  expect(cleared).toContain('  - family-names: "Babbage"\n    given-names: "Charles"');

  // Version 1 again, chosen in the dialog: byte for byte the ZIP released then.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await jobCard(page, title).getByRole('button', { name: 'Export', exact: true }).click();
  const version = dialog.getByRole('combobox', { name: 'Version' });
  await expect(version.getByRole('option')).toHaveCount(3);
  await version.selectOption({
    label: (await version.getByRole('option', { name: /^Version 1, released / }).textContent()) ?? '',
  });
  await expect(dialog.getByRole('textbox', { name: 'Corpus title' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Export ZIP' }).click();
  const [first] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('link', { name: /^Download / }).click(),
  ]);
  const rewritten = join(dataDir, '..', `version-1-${first.suggestedFilename()}`);
  await first.saveAs(rewritten);
  expect(readFileSync(rewritten).equals(readFileSync(path))).toBe(true);
});
