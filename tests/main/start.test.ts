import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../support/cli';
import { scratchProject } from './scratch-project';

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs `npm start -- --no-open` in `project` until browser mode is open; resolves with its first lines. */
async function startOffline(project: string, dir: string): Promise<string[]> {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-open'], {
    cwd: project,
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
      // No Electron binary, and nowhere to fetch one from (as offline): the same path on any machine.
      ELECTRON_OVERRIDE_DIST_PATH: join(dir, 'no-electron'),
      ELECTRON_MIRROR: `http://127.0.0.1:${await closedPort()}/`,
      electron_config_cache: join(dir, 'electron-cache'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => void child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const address = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const open = /Scriptorium is open at (\S+)\n/.exec(stdout);
      if (open?.[1]) resolve(open[1]);
    });
    void exited.then(() => reject(new Error(`start.mjs ended early:\n${stdout}\n${stderr}`)));
  });
  expect(stderr).toBe('');

  // As a browser does: the page loads from its private address.
  const page = await fetch(address);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<div id="root">');

  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  const lines = stdout.trim().split('\n');
  return lines.slice(0, lines.indexOf(`Scriptorium is open at ${address}`));
}

describe('npm start', () => {
  it('says why the desktop app cannot open and what to do, opens browser mode instead, and does not try again unasked', async () => {
    const project = scratchProject();
    const dir = tempDir();
    expect(await startOffline(project, dir)).toEqual([
      expect.stringMatching(/^Fetching Electron \d+\.\d+\.\d+ \(first start only\)\.\.\.$/),
      expect.stringMatching(
        /^Cannot open the desktop app: could not download Electron \d+\.\d+\.\d+ \(.+\): this computer seems to be offline, or needs a proxy \(set HTTPS_PROXY\) or a mirror \(set ELECTRON_MIRROR\) to reach it\. Opening browser mode instead; once that is fixed, `npm run electron:install` sets the desktop app up \(npm start does not try again by itself\)\.$/,
      ),
    ]);
    // The next start says so at once, instead of waiting on the same download again.
    expect(await startOffline(project, dir)).toEqual([
      expect.stringMatching(
        /^Cannot open the desktop app: setting it up failed on \d{4}-\d\d-\d\d \(could not download Electron .*\)\. Opening browser mode instead; `npm run electron:install` tries again\.$/,
      ),
    ]);
  }, 120_000);
});
