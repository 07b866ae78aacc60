import { join } from 'node:path';
import { startRequestGate } from '../reliability/request-gate';
import { startCli } from '../support/cli';
import { describePlaylist } from '../../src/simulator';
import { admin, expect, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, pasteSources, startJob, videosDone } from './support/screens';

test.describe('a job at work', () => {
  // Slow enough to watch: each simulated request takes 15 ms, one at a time.
  test.use({ latencyMs: 15 });

  test('pauses and resumes from the Jobs screen, and says why it stopped', async ({ app: page, sim }) => {
    const title = await startJob(page, ['PLpausedAndResumed_n120'], { Concurrency: '1' });
    const card = jobCard(page, title);
    await expect.poll(() => videosDone(page, title)).toBeGreaterThan(0);

    // The job cannot finish before the click lands: the answer in flight waits for it.
    const release = sim.admin.holdAnswers();
    // While it runs, the tab tells how far it is, whatever the screen.
    await expect(page).toHaveTitle(/^\d{1,2} % · Jobs · Scriptorium$/);
    await card.getByRole('button', { name: 'Pause', exact: true }).click();
    release();
    await expect(card.getByText('Paused', { exact: true })).toBeVisible();
    await expect(page).toHaveTitle('Jobs · Scriptorium');
    await expect(card.getByText('You paused it. Resume continues where it stopped.')).toBeVisible();
    // The focus stays on the button that changed from Pause to Resume.
    await expect(card.getByRole('button', { name: 'Resume', exact: true })).toBeFocused();
    // Paused shows once the request in flight at the click has finished: it was kept, and counted.
    const answered = sim.admin.requests().filter((request) => request.path.endsWith('/transcript')).length;
    await expect.poll(() => videosDone(page, title)).toBe(answered);
    expect(answered).toBeLessThan(120);

    await card.getByRole('button', { name: 'Resume', exact: true }).click();
    await expectCompleted(page, title, 120);
    // Nothing was bought twice across the pause.
    const videos = sim.admin.ledger().filter((charge) => charge.endpoint === 'transcript');
    expect(new Set(videos.map((charge) => charge.videoId)).size).toBe(videos.length);
  });

  test('is found as it was after the page is reloaded, and goes on', async ({ app: page, sim }) => {
    const title = await startJob(page, ['PLreloadedMidway_n150'], { Concurrency: '1' });
    await expect.poll(() => videosDone(page, title)).toBeGreaterThan(5);
    // Held while the page reloads, so that the job is still running when it comes back.
    const release = sim.admin.holdAnswers();
    const before = await videosDone(page, title);

    await page.reload();
    const card = jobCard(page, title);
    await expect(card.getByText('Running', { exact: true })).toBeVisible();
    expect(await videosDone(page, title)).toBeGreaterThanOrEqual(before);
    await expect(card.getByText(/of 150 videos/).first()).toBeVisible();
    release();
    await expectCompleted(page, title, 150);
  });

  test('Cancel asks first, then stops the job for good and keeps what it bought; its sources again make a new job', async ({
    app: page,
    sim,
  }) => {
    const title = await startJob(page, ['PLcancelledHalfway_n120'], { Concurrency: '1' });
    const card = jobCard(page, title);
    await expect.poll(() => videosDone(page, title)).toBeGreaterThan(0);
    // The job cannot finish before the click lands: the answer in flight waits for it.
    const release = sim.admin.holdAnswers();
    await card.getByRole('button', { name: 'Cancel', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel “${title}”?` });
    await expect(dialog).toContainText(
      'It stops for good: nothing more is bought, and it cannot be resumed.',
    );
    await expect(dialog).toContainText(
      'Starting the same sources again later makes a new job, which reuses the transcripts this one bought at no cost.',
    );
    await expect(card.getByRole('checkbox', { name: 'Keep current' })).toBeVisible();
    // The safe answer has the focus, and Escape keeps the job running.
    await expect(dialog.getByRole('button', { name: 'Keep the job' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(card.getByText('Running', { exact: true })).toBeVisible();

    await card.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.getByRole('button', { name: 'Cancel job' }).click();
    release();
    await expect(card.getByText('Cancelled', { exact: true })).toBeVisible();
    await expect(
      card.getByText(
        /^You cancelled it: nothing more is bought\. What it bought is kept, and Export writes it\./,
      ),
    ).toBeVisible();
    await expect(card.getByRole('button', { name: 'Resume', exact: true })).toHaveCount(0);
    await expect(card.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);
    await expect(card.getByRole('button', { name: 'Export', exact: true })).toBeVisible();
    // Stopped for good: nothing keeps it current either.
    await expect(card.getByRole('checkbox', { name: 'Keep current' })).toHaveCount(0);
    const bought = sim.admin.ledger().length;
    expect(await videosDone(page, title)).toBeLessThan(120);
    // Stopped for good: the app's runner never picks it up again.
    await page.reload();
    await expect(card.getByText('Cancelled', { exact: true })).toBeVisible();
    expect(sim.admin.ledger()).toHaveLength(bought);

    // The same sources again: a new job, which buys none of the transcripts the cancelled one bought.
    await goTo(page, 'New job');
    await pasteSources(page, ['PLcancelledHalfway_n120']);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Started job 2, / })).toBeVisible();
    const again = page.getByRole('article').filter({ has: page.locator('a[href="#/jobs/2"]') });
    await expect(again.getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('article').filter({ has: page.locator('a[href="#/jobs/1"]') })).toContainText(
      'Cancelled',
    );
    for (const videoId of describePlaylist('PLcancelledHalfway_n120').videoIds())
      expect(sim.admin.chargesFor(videoId)).toBeLessThanOrEqual(1);
  });

  test('a job the command line runs on the same data folder appears and progresses live', async ({
    app: page,
    sim,
    dataDir,
  }) => {
    await expect(page.getByRole('heading', { name: 'No jobs yet' })).toBeVisible();
    // The command line's purchases wait at a gate, so the page sees each step however fast the job is.
    const gate = await startRequestGate(sim.url);
    const cli = startCli(
      [
        'export',
        'PLfromTheCommandLine_n60',
        '--concurrency',
        '1',
        '--data-dir',
        dataDir,
        '--out',
        join(dataDir, '..', 'cli.zip'),
      ],
      { TRANSCRIPT_API_KEY: sim.key, TRANSCRIPT_API_BASE_URL: gate.url },
    );
    const card = page.getByRole('article').first();
    await expect(card.getByText(/Another Scriptorium process .* is running this job/)).toBeVisible();
    // Only the process that runs it can stop it.
    await expect(card.getByRole('button', { name: 'Pause', exact: true })).toHaveCount(0);
    // A purchase waits at the gate once the list's first page is read; released, it shows as progress.
    await gate.whenWaiting(1);
    gate.releaseWaiting();
    const bar = card.getByRole('progressbar');
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    // The card is read only now: the page learns of the job's title (from the list) on its own time.
    const title = (await card.getByRole('heading', { level: 2 }).textContent()) ?? '';

    gate.open();
    const result = await cli.done;
    await gate.close();
    expect(result.code, result.stderr).toBe(0);
    await expectCompleted(page, title, 60);
    await expect(card.getByText(/Another Scriptorium process/)).toHaveCount(0);
  });
});

test('a request the service asks to wait shows as "waiting N s", then the job goes on', async ({
  app: page,
  sim,
}) => {
  const playlist = 'PLtoldToWaitAWhile_n6';
  const first = describePlaylist(playlist).videoIds()[0] ?? '';
  await admin(sim, 'faults', {
    match: { videoId: first },
    kind: 'status',
    status: 429,
    // Long enough for a busy machine to show it before it is over.
    retryAfter: '5',
    times: 1,
  });
  const title = await startJob(page, [playlist], { Concurrency: '1' });
  await expect(
    jobCard(page, title).getByText(/^The service answered 429: waiting [1-5] s before trying again\.$/),
  ).toBeVisible();
  await expectCompleted(page, title, 6);
  await expect(jobCard(page, title).getByText(/waiting \d s/)).toHaveCount(0);
});

test('Delete asks first, in a dialog; keeping the job leaves it as it was', async ({ app: page }) => {
  const title = await startJob(page, ['PLdeletedAfterAll_n12']);
  await expectCompleted(page, title, 12);
  const card = jobCard(page, title);

  await card.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Delete “${title}”?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Keep the job' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Delete', exact: true })).toBeFocused();

  await card.getByRole('button', { name: 'Delete', exact: true }).click();
  await dialog.getByRole('button', { name: 'Delete job' }).click();
  await expect(card).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'No jobs yet' })).toBeVisible();
  await goTo(page, 'New job');
  await goTo(page, 'Jobs');
  await expect(page.getByRole('heading', { name: 'No jobs yet' })).toBeVisible();
});
