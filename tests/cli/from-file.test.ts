import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
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

it('--from reads a 150,000-line file, lists the first 20 rejected lines and counts the rest', async () => {
  // Nearly every line repeats one of three videos, so that the job stays small; every 20th line is
  // a comment or blank, and one line is not a source at all.
  const ids = ['dQw4w9WgXcQ', 'jNQXAC9IVRw', '9bZkp7rQstU'];
  const lines = Array.from({ length: 150_000 }, (_, i) =>
    i % 20 === 0 ? `# part ${i}` : i % 20 === 10 ? '' : String(ids[(i - 1) % 3]),
  );
  lines[99_999] = 'not a source';
  const list = join(dir, 'long-list.txt');
  writeFileSync(list, lines.join('\n'));
  const skipped = lines.filter((line) => line !== '' && !line.startsWith('#')).length - ids.length;
  const out = join(dir, 'long-list.zip');

  const result = await runCli(['export', '--from', list, '--out', out], env);
  expect(result.code, lastLine(result.stderr)).toBe(0);
  const report = result.stderr.split('\n');
  const listed = report.indexOf(`Skipping ${skipped.toLocaleString('en')} invalid sources:`);
  expect(listed).toBeGreaterThanOrEqual(0);
  expect(report.slice(listed + 1, listed + 21).every((line) => /^ {2}line \d+: "/.test(line))).toBe(true);
  expect(report[listed + 1]).toBe('  line 5: "dQw4w9WgXcQ" is not a valid source: already listed at line 2');
  expect(report[listed + 21]).toBe(`  ... and ${skipped - 20} more (the ZIP's manifest.json lists them all)`);
  expect(report.filter((line) => line.startsWith('  line '))).toHaveLength(20);

  const zip = await readZip(out);
  expect(zip.index.slice(1).map((row) => row[0])).toEqual(ids);
  expect(zip.manifest.skipped_sources).toHaveLength(skipped);
  expect(zip.manifest.skipped_sources).toContainEqual({
    source: 'not a source',
    reason: expect.stringMatching(/^line 100000: not a video, playlist, channel or search/),
  });
}, 60_000);

describe('--from refuses, with exit 2, at once and before any request, what is not a text file', () => {
  const cases: Array<[string, () => Promise<string> | string, RegExp]> = [
    [
      'a named pipe',
      () => {
        const path = join(dir, 'pipe.txt');
        execFileSync('mkfifo', [path]);
        return path;
      },
      /pipe\.txt: it is a named pipe, not a file\. Give a text file with one source per line\./,
    ],
    ['a device', () => '/dev/zero', /^--from \/dev\/zero: it is a device, not a file\./],
    [
      'a socket',
      async () => {
        const path = join(dir, 'socket.txt');
        const server = createServer();
        await new Promise<void>((resolve) => server.listen(path, resolve));
        server.unref();
        return path;
      },
      /socket\.txt: it is a socket, not a file\./,
    ],
    [
      'a folder',
      () => {
        const path = join(dir, 'folder.txt');
        mkdirSync(path);
        return path;
      },
      /folder\.txt: it is a folder, not a file\./,
    ],
    [
      'a binary file',
      () => {
        const path = join(dir, 'image.png');
        writeFileSync(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]));
        return path;
      },
      /image\.png: it is not a text file \(byte 9 is a NUL byte\)\. Give a UTF-8 text file/,
    ],
    [
      'text in another encoding',
      () => {
        const path = join(dir, 'latin1.txt');
        writeFileSync(path, Buffer.from('dQw4w9WgXcQ # café\n', 'latin1'));
        return path;
      },
      /latin1\.txt: it is not UTF-8 text .*Save it as UTF-8 text/,
    ],
  ];
  it.each(cases)('%s', async (_name, make, message) => {
    const path = await make();
    const before = sim.admin.requests().length;
    const result = await runCli(['export', '--from', path, '--out', join(dir, 'refused.zip')], env);
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toMatch(message);
    expect(lastLine(result.stderr)).toMatch(/Nothing was sent\.$/);
    expect(sim.admin.requests()).toHaveLength(before);
  });
});
