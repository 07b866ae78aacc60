/**
 * The README's research tour, run as a newcomer runs it: the code block itself, in bash, from the
 * project folder, against a simulator on a free port. It must succeed, find the new uploads when it
 * syncs, and leave nothing in the project.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { tempDir } from '../support/cli';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The README's code block that starts the simulator on port 8788. */
function researchTour(): string {
  const blocks = [...README.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((match) => match[1] ?? '');
  const tour = blocks.find((block) => block.includes('scriptorium sim --port 8788'));
  if (tour === undefined) throw new Error('README.md has no research tour starting a simulator on 8788');
  return tour;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('the research tour runs as written, syncs three new uploads, and leaves nothing in the project', async () => {
  const port = await freePort();
  const temporary = tempDir('scriptorium-tour-');
  const before = readdirSync(ROOT).sort();
  // Every command must succeed; the ports are the only change.
  const script = `set -e\n${researchTour().replaceAll('8788', String(port))}`;
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('bash', ['-c', script], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'], HOME: process.env['HOME'], TMPDIR: temporary },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  try {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Job 2 brought up to date: 3 new videos/m);
    expect(result.stdout).toMatch(/is sound/);
    expect(readdirSync(ROOT).sort()).toEqual(before);
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}, 120_000);
