import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { readZip } from '../support/cli';
import { expect, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, pasteSources, startJob } from './support/screens';

/** Exports the job's ZIP from its card with Chunks set as given; resolves with the formats sent and the ZIP read back. */
async function exportWithChunks(page: Page, title: string, dataDir: string, chunks: 'on' | 'already on') {
  await jobCard(page, title).getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Export “${title}”` });
  const checkbox = dialog.getByRole('checkbox', { name: 'Chunks' });
  if (chunks === 'on') {
    await expect(checkbox).not.toBeChecked();
    await checkbox.check();
  }
  await expect(checkbox).toBeChecked();
  const [request] = await Promise.all([
    page.waitForRequest((sent) => sent.url().endsWith('/api/command/exportJob')),
    dialog.getByRole('button', { name: 'Export ZIP' }).click(),
  ]);
  await expect(dialog.getByRole('status')).toContainText('The ZIP is ready');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('link', { name: /^Download / }).click(),
  ]);
  const path = join(dataDir, '..', download.suggestedFilename());
  await download.saveAs(path);
  await dialog.getByRole('button', { name: 'Close' }).click();
  return { formats: (request.postDataJSON() as { formats: string[] }).formats, zip: await readZip(path) };
}

test('Export: Chunks is off unless the job asked for it, and once ticked the export is sent with it', async ({
  app: page,
  dataDir,
}) => {
  const title = await startJob(page, ['PLresearchChunked_n12']);
  await expectCompleted(page, title, 12);

  const { formats, zip } = await exportWithChunks(page, title, dataDir, 'on');
  expect(formats).toContain('chunks');
  expect(zip.manifest.job_finished).toBe(true);
  expect(zip.manifest.options).toMatchObject({ chunk_seconds: 60, chunk_overlap: 10 });
});

test('New job: the chunk length and overlap show only with Chunks, are checked, and reach the job', async ({
  app: page,
  dataDir,
}) => {
  await goTo(page, 'New job');
  const options = page.getByRole('region', { name: 'Options' });
  const chunks = options.getByRole('checkbox', { name: 'Chunks' });
  const length = options.getByRole('spinbutton', { name: 'Chunk length (s)' });
  const overlap = options.getByRole('spinbutton', { name: 'Chunk overlap (s)' });
  await expect(chunks).not.toBeChecked();
  await expect(length).toHaveCount(0);

  await chunks.check();
  await expect(length).toHaveValue('60');
  await expect(overlap).toHaveValue('10');
  const source = 'PLresearchChunkedNew_n12';
  await pasteSources(page, [source]);
  await length.fill('30');
  await overlap.fill('30');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Some options are not valid');
  await expect(overlap).toHaveAttribute('aria-invalid', 'true');
  await expect(overlap).toHaveAccessibleDescription(/must be shorter than the chunk length/);

  // Unticked, the fields go; ticked again, they keep what was typed.
  await chunks.uncheck();
  await expect(length).toHaveCount(0);
  await chunks.check();
  await expect(length).toHaveValue('30');

  await overlap.fill('5');
  const title = await startJob(page, [source]);
  await expectCompleted(page, title, 12);

  const { formats, zip } = await exportWithChunks(page, title, dataDir, 'already on');
  expect(formats).toContain('chunks');
  expect(zip.manifest.options).toMatchObject({ chunk_seconds: 30, chunk_overlap: 5 });
});

test('Settings: the chunk length and overlap saved as defaults are what New job starts with', async ({
  app: page,
}) => {
  await goTo(page, 'Settings');
  const defaults = page.getByRole('region', { name: 'Defaults for new jobs' });
  await expect(defaults.getByRole('spinbutton', { name: 'Chunk length (s)' })).toHaveCount(0);
  await defaults.getByRole('checkbox', { name: 'Chunks' }).check();
  await defaults.getByRole('spinbutton', { name: 'Chunk length (s)' }).fill('4');
  await defaults.getByRole('button', { name: 'Save defaults' }).click();
  await expect(defaults.getByRole('spinbutton', { name: 'Chunk length (s)' })).toHaveAccessibleDescription(
    /from 5 to 3600/,
  );
  await defaults.getByRole('spinbutton', { name: 'Chunk length (s)' }).fill('45');
  await defaults.getByRole('spinbutton', { name: 'Chunk overlap (s)' }).fill('15');
  await defaults.getByRole('button', { name: 'Save defaults' }).click();
  await expect(page.getByText('Defaults saved: new jobs start with them.')).toBeVisible();

  await page.reload();
  await goTo(page, 'New job');
  await expect(page.getByRole('checkbox', { name: 'Chunks' })).toBeChecked();
  await expect(page.getByRole('spinbutton', { name: 'Chunk length (s)' })).toHaveValue('45');
  await expect(page.getByRole('spinbutton', { name: 'Chunk overlap (s)' })).toHaveValue('15');
});
