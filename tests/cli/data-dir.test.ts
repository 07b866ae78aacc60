import BetterSqlite3 from 'better-sqlite3';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
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

/** A data folder whose scriptorium.db another program made: a table of its own, the given user_version. */
function foreignDatabase(name: string, userVersion: number): string {
  mkdirSync(join(dir, name));
  const db = new BetterSqlite3(join(dir, name, 'scriptorium.db'));
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
  db.pragma(`user_version = ${userVersion}`);
  db.close();
  return join(dir, name);
}

/** The tables a database file holds, read with a connection of the test's own. */
function tablesIn(file: string): string[] {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{
        name: string;
      }>
    ).map((row) => row.name);
  } finally {
    db.close();
  }
}

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
    [
      "another program's database (user_version 1, none of Scriptorium's tables)",
      () => foreignDatabase('foreign-1', 1),
      /^Scriptorium cannot use the data folder .*foreign-1: its scriptorium\.db is not Scriptorium's database \(another program's SQLite file\)\. Move that file away \(Scriptorium then starts a new one\) or choose another data folder\. The CLI's data folder is set with --data-dir or SCRIPTORIUM_DATA_DIR\.$/,
    ],
    [
      "another program's database (user_version 0, tables of its own)",
      () => foreignDatabase('foreign-0', 0),
      /^Scriptorium cannot use the data folder .*foreign-0: its scriptorium\.db is not Scriptorium's database/,
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

describe("another program's database is left as it was", () => {
  it("adds none of Scriptorium's tables to it", async () => {
    const dataDir = foreignDatabase('foreign-untouched', 0);
    const result = await runCli(['jobs', '--data-dir', dataDir]);
    expect(result.code).toBe(8);
    expect(tablesIn(join(dataDir, 'scriptorium.db'))).toEqual(['notes']);
  });
});

describe('another program holding the database locked', () => {
  it('is exit 7 with a plain line, and nothing is sent', async () => {
    const dataDir = join(dir, 'locked');
    expect((await runCli(['jobs', '--data-dir', dataDir])).code).toBe(0);
    const other = new BetterSqlite3(join(dataDir, 'scriptorium.db'));
    other.exec('BEGIN EXCLUSIVE');
    try {
      const before = sim.admin.requests().length;
      const result = await runCli(
        ['export', 'dQw4w9WgXcQ', '--out', join(dir, 'locked.zip'), '--data-dir', dataDir],
        { TRANSCRIPT_API_KEY: sim.key, TRANSCRIPT_API_BASE_URL: sim.url },
      );
      expect(result.code, result.stderr).toBe(7);
      expect(lastLine(result.stderr)).toMatch(
        /^Another program holds the database of the data folder .*locked locked \(a database browser, say, or another Scriptorium writing\), and it stayed locked for 5 s\. Close it or wait, then try again: nothing was lost\./,
      );
      expect(sim.admin.requests()).toHaveLength(before);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });
});

describe('an empty SCRIPTORIUM_DATA_DIR', () => {
  it('means the default folder, not the current one', async () => {
    const home = join(dir, 'home');
    const here = join(dir, 'here');
    mkdirSync(home);
    mkdirSync(here);
    const result = await runCli(['jobs'], { HOME: home, SCRIPTORIUM_DATA_DIR: '' }, { cwd: here });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(here, 'scriptorium.db'))).toBe(false);
    expect(existsSync(join(home, '.config', 'Scriptorium', 'scriptorium.db'))).toBe(true);
  });
});
