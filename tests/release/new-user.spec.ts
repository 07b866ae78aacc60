import { _electron as electron, expect, test, type Page } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mainProcessProblems } from './main-process-output';

// The installed package, as a new user meets it: Settings, then New job (paste, preview, start),
// the job to its end, an export, and one search of the Library (FTS5, in the better-sqlite3 built
// for Electron), against `scriptorium sim`. Runs in the release workflow. The main process must say
// nothing of warnings or errors on its stderr: a failure it only logs (a checkpoint worker that
// cannot start, say) fails the test.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'bin', 'scriptorium');
const PLAYLIST = 'PLscriptoriumSimulatorTourList_n50';
const CHANNEL = '@demo_channel_n25';
const VIDEOS = 50 + 25;

interface Simulator {
  url: string;
  key: string;
  process: ChildProcess;
}

/** `scriptorium sim` on a free port; resolves with the address and key it prints. */
function startSimulator(): Promise<Simulator> {
  const child = spawn(process.execPath, [CLI, 'sim', '--port', '0', '--credits', '1000'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`scriptorium sim exited (${code}): ${printed}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const url = /Simulator listening on (\S+)/.exec(printed)?.[1];
      const key = /API key: (\S+)/.exec(printed)?.[1];
      if (url && key) resolve({ url, key, process: child });
    });
  });
}

async function goTo(page: Page, screen: 'Jobs' | 'New job' | 'Settings' | 'Library'): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: screen, exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: screen, exact: true })).toBeVisible();
}

test('a new user sets the key, pastes sources, previews, starts, sees the job finish and exports it', async () => {
  const executablePath = process.env['SCRIPTORIUM_APP'];
  if (!executablePath) throw new Error('SCRIPTORIUM_APP must name the installed app’s executable.');
  const sim = await startSimulator();
  const folder = mkdtempSync(join(tmpdir(), 'scriptorium-release-'));
  const app = await electron.launch({ executablePath });
  let stderr = '';
  app.process().stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const page = await app.firstWindow();
    await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();

    await goTo(page, 'Settings');
    await page.getByRole('textbox', { name: 'Service address' }).fill(sim.url);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill(sim.key);
    await page.getByRole('button', { name: 'Save key' }).click();
    await expect(page.getByText('Key saved.')).toBeVisible();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByText(/the service accepted the key/)).toBeVisible();

    await goTo(page, 'New job');
    await page.getByRole('textbox', { name: 'Sources' }).fill([PLAYLIST, CHANNEL].join('\n'));
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.getByText(`${VIDEOS} from 2 sources`)).toBeVisible();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
    const card = page.getByRole('article').first();
    await expect(card.getByText('Completed', { exact: true })).toBeVisible({ timeout: 120_000 });

    // The system's save dialog cannot be driven: main's answers with a path, as the user would.
    const corpus = join(folder, 'corpus.zip');
    await app.evaluate(({ dialog }, filePath) => {
      dialog.showSaveDialog = async () => ({ canceled: false, filePath });
    }, corpus);
    await card.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByRole('button', { name: 'Choose where to save…' }).click();
    await expect(page.getByRole('dialog').getByRole('status')).toContainText('Saved');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    const verify = spawnSync(process.execPath, [CLI, 'verify', corpus], { encoding: 'utf8' });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);

    // The Library: FTS5 in the SQLite that Electron's better-sqlite3 carries. "motor" is said in
    // most of the simulator's English transcripts.
    await goTo(page, 'Library');
    await page.getByRole('searchbox', { name: 'Search transcripts' }).fill('motor');
    await expect(page.locator('.library-count')).toHaveText(/^[1-9]\d* videos?, [1-9]\d* hits? in all\.$/);
    await expect(page.locator('button.hit mark').first()).toHaveText(/^motor$/i);
  } finally {
    await app.close();
    sim.process.kill();
    rmSync(folder, { recursive: true, force: true });
  }
  expect(mainProcessProblems(stderr), stderr).toEqual([]);
});
