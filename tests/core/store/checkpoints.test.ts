import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/core/store';
import { BackgroundCheckpoints } from '../../../src/core/store/checkpoints';

const MiB = 2 ** 20;
let dir: string;
let db: Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-checkpoints-'));
  db = openDatabase(join(dir, 'scriptorium.db'));
  db.exec('CREATE TABLE blobs (data BLOB NOT NULL)');
});
afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const fileBytes = (): number => statSync(join(dir, 'scriptorium.db')).size;
const walBytes = (): number =>
  statSync(join(dir, 'scriptorium.db-wal'), { throwIfNoEntry: false })?.size ?? 0;

/** Writes `commits` transactions of 256 KiB, a little apart, as a run does; returns the WAL's largest size. */
async function write(commits: number): Promise<number> {
  const insert = db.prepare<[Buffer]>('INSERT INTO blobs (data) VALUES (?)');
  const commit = db.transaction(() => {
    for (let i = 0; i < 64; i++) insert.run(randomBytes(4000));
  });
  let largest = 0;
  for (let i = 0; i < commits; i++) {
    commit.immediate();
    largest = Math.max(largest, walBytes());
    await sleep(2);
  }
  return largest;
}

describe('BackgroundCheckpoints', () => {
  it('copies what another connection writes into the database file, and leaves every row in place', async () => {
    const checkpoints = BackgroundCheckpoints.start(db, console);
    expect(checkpoints).toBeDefined();
    // 24 MiB in all: below the backstop, so without the thread all of it would stay in the WAL.
    await write(96);
    let copied = fileBytes();
    for (let waited = 0; copied < 24 * MiB && waited < 15_000; waited += 20) {
      await sleep(20);
      copied = fileBytes();
    }
    await checkpoints?.stop();
    expect(copied).toBeGreaterThanOrEqual(24 * MiB);
    expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 96 * 64 });
  });

  it('hands checkpoints back to the writing connection once stopped', async () => {
    const checkpoints = BackgroundCheckpoints.start(db, console);
    await checkpoints?.stop();
    // SQLite's own rule again: a checkpoint in the commit that passes 1,000 pages (4 MiB).
    expect(await write(48)).toBeLessThan(6 * MiB);
  });

  it("logs the thread's failure instead of dropping it, and the run's connection checkpoints by itself", async () => {
    const warnings: Array<{ message: string; error: unknown }> = [];
    // The thread opens the file by name; with the name gone, it cannot (the run's connection still can).
    rmSync(join(dir, 'scriptorium.db'));
    const checkpoints = BackgroundCheckpoints.start(db, {
      warn: (message, error) => warnings.push({ message, error }),
    });
    await checkpoints?.stop();
    expect(warnings).toEqual([
      {
        message:
          'The thread that copies the database log into the database failed; the run goes on and copies it itself.',
        error: expect.objectContaining({ code: 'SQLITE_CANTOPEN' }),
      },
    ]);
  });

  it('is not started for a database in memory', () => {
    const memory = openDatabase(':memory:');
    expect(BackgroundCheckpoints.start(memory, console)).toBeUndefined();
    memory.close();
  });
});
