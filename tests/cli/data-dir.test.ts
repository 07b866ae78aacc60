import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { runCli, tempDir } from '../support/cli';

let sim: RunningSimulator;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ credits: 100 });
  dir = tempDir();
});

afterAll(async () => {
  await sim.close();
});

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

describe('--data-dir that cannot be used: exit 8 and a message naming the folder, before any request', () => {
  const cases: Array<[string, () => string, RegExp]> = [
    [
      'a file',
      () => {
        writeFileSync(join(dir, 'a-file'), 'notes');
        return join(dir, 'a-file');
      },
      /^Scriptorium cannot use the data folder .*a-file: it is a file, not a folder\. Move that file away or choose another data folder\. The CLI's data folder is set with --data-dir or SCRIPTORIUM_DATA_DIR\.$/,
    ],
    [
      'a folder under a file',
      () => {
        writeFileSync(join(dir, 'plain-file'), 'notes');
        return join(dir, 'plain-file', 'data');
      },
      /^Scriptorium cannot use the data folder .*plain-file\/data: .*plain-file is a file, not a folder\./,
    ],
    [
      'a place where no one may create a folder',
      () => '/sys/scriptorium-test',
      /^Scriptorium cannot use the data folder \/sys\/scriptorium-test: Scriptorium is not allowed to create or write it\./,
    ],
    [
      'a place where mkdir answers ENOENT under a parent that exists, at once',
      () => '/proc/scriptorium-test/data',
      /^Scriptorium cannot use the data folder \/proc\/scriptorium-test\/data: no folder can be created at that place\./,
    ],
    [
      'a full disk',
      () => {
        mkdirSync(join(dir, 'full'));
        symlinkSync('/dev/full', join(dir, 'full', 'scriptorium.db'));
        return join(dir, 'full');
      },
      /^The disk holding the data folder .*full is full, so Scriptorium could not save its work\. Free some space/,
    ],
    [
      'a database written by a newer Scriptorium',
      () => {
        mkdirSync(join(dir, 'newer'));
        const db = new BetterSqlite3(join(dir, 'newer', 'scriptorium.db'));
        db.pragma('user_version = 99');
        db.close();
        return join(dir, 'newer');
      },
      /^This database was written by a newer version of Scriptorium .*Update Scriptorium or use another --data-dir\.$/,
    ],
  ];
  it.each(cases)('%s', async (_name, makeDataDir, message) => {
    const dataDir = makeDataDir();
    const before = sim.admin.requests().length;
    const result = await runCli(
      ['export', 'dQw4w9WgXcQ', '--out', join(dir, 'x.zip'), '--data-dir', dataDir],
      {
        TRANSCRIPT_API_KEY: sim.key,
        TRANSCRIPT_API_BASE_URL: sim.url,
      },
    );
    expect(result.code, result.stderr).toBe(8);
    expect(lastLine(result.stderr)).toMatch(message);
    expect(result.stderr).not.toMatch(/unexpected error|please report/);
    expect(sim.admin.requests()).toHaveLength(before);
  });
});
