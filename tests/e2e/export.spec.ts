import { join } from 'node:path';
import { readZip } from '../support/cli';
import { expect, test } from './support/fixtures';
import { expectCompleted, jobCard, startJob } from './support/screens';

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
  expect(zip.manifest.complete).toBe(true);
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
