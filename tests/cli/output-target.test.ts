import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { readZip, runCli, tempDir } from '../support/cli';

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startSimulator({ credits: 1000 });
  dir = tempDir();
  env = {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
  };
});

afterAll(async () => {
  await sim.close();
});

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

/**
 * A null device of our own (mknod needs root, which the tests run as): should the check ever break,
 * the export replaces this one and not the system's /dev/null. Without root, the system's is safe anyway.
 */
function deviceInTempDir(): string | undefined {
  const path = join(dir, 'device.zip');
  try {
    execFileSync('mknod', [path, 'c', '1', '3'], { stdio: 'ignore' });
    return path;
  } catch {
    return undefined;
  }
}

/** Runs an export to `out` that the service has not seen yet, so that any request would show. */
async function exportTo(out: string, source: string) {
  const before = sim.admin.requests().length;
  const result = await runCli(['export', source, '--out', out], env);
  return { ...result, requests: sim.admin.requests().length - before };
}

describe('--out refuses, with exit 2 and before any request, a path whose replacement would destroy something', () => {
  it('a folder, which stays as it was', async () => {
    const out = join(dir, 'folder.zip');
    mkdirSync(out);
    writeFileSync(join(out, 'keep.txt'), 'mine');
    const result = await exportTo(out, 'PLfolderList_n3');
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      `Cannot write ${out}: it is a folder. Choose a file name for the ZIP, such as ${join(out, 'corpus.zip')}.`,
    );
    expect(result.requests).toBe(0);
    expect(readdirSync(out)).toEqual(['keep.txt']);
  });

  it('a text file of the user’s, which keeps its content', async () => {
    const out = join(dir, 'thesis.zip');
    writeFileSync(out, 'chapter 1\n');
    const result = await exportTo(out, 'PLthesisList_n3');
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toMatch(
      /thesis\.zip: it is an existing file that Scriptorium did not write.*Move or rename that file/,
    );
    expect(result.requests).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('chapter 1\n');
  });

  it('a symbolic link, even to a ZIP that Scriptorium wrote, which both stay as they were', async () => {
    const corpus = join(dir, 'linked-corpus.zip');
    expect((await exportTo(corpus, 'dQw4w9WgXcQ')).code).toBe(0);
    const bytes = readFileSync(corpus);
    const link = join(dir, 'link.zip');
    symlinkSync(corpus, link);
    const result = await exportTo(link, 'PLlinkList_n3');
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toMatch(/link\.zip: it is a symbolic link \(to .*linked-corpus\.zip\)/);
    expect(result.requests).toBe(0);
    expect(readlinkSync(link)).toBe(corpus);
    expect(readFileSync(corpus).equals(bytes)).toBe(true);
  });

  it('a named pipe, at once', async () => {
    const out = join(dir, 'pipe.zip');
    execFileSync('mkfifo', [out]);
    const result = await exportTo(out, 'PLpipeList_n3');
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toMatch(/pipe\.zip: it is a named pipe, not a file/);
    expect(result.requests).toBe(0);
    expect(lstatSync(out).isFIFO()).toBe(true);
  });

  it('a socket', async () => {
    const out = join(dir, 'socket.zip');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(out, resolve));
    try {
      const result = await exportTo(out, 'PLsocketList_n3');
      expect(result.code).toBe(2);
      expect(lastLine(result.stderr)).toMatch(/socket\.zip: it is a socket, not a file/);
      expect(result.requests).toBe(0);
      expect(lstatSync(out).isSocket()).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a device', async () => {
    const out = deviceInTempDir() ?? '/dev/null';
    const result = await exportTo(out, 'PLdeviceList_n3');
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      `Cannot write ${out}: it is a device, not a file. Choose a file name for the ZIP, such as corpus.zip.`,
    );
    expect(result.requests).toBe(0);
    expect(lstatSync(out).isCharacterDevice()).toBe(true);
  });
});

it('--out replaces a ZIP that Scriptorium wrote earlier, leaving no temporary file', async () => {
  const folder = join(dir, 'again');
  mkdirSync(folder);
  const out = join(folder, 'corpus.zip');
  expect((await exportTo(out, 'PLfirstList_n3')).code).toBe(0);
  const second = await exportTo(out, 'PLsecondList_n4');
  expect(second.code, second.stderr).toBe(0);
  const zip = await readZip(out);
  expect(zip.manifest.sources).toEqual(['PLsecondList_n4']);
  expect(zip.index.slice(1)).toHaveLength(4);
  expect(readdirSync(folder)).toEqual(['corpus.zip']);
});
