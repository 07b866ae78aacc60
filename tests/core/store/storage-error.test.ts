import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DATABASE_FILE,
  NewerSchemaError,
  openDatabase,
  StorageError,
  storageFailure,
  type Database,
} from '../../../src/core/store';

let dir: string;
const open: Database[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-storage-'));
});
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What openDatabase throws for the data folder `dataDir`. */
function openingFailure(dataDir: string): unknown {
  try {
    open.push(openDatabase(join(dataDir, DATABASE_FILE)));
  } catch (error) {
    return error;
  }
  throw new Error(`${dataDir} was opened`);
}

function storageErrorOf(dataDir: string): StorageError {
  const error = openingFailure(dataDir);
  if (!(error instanceof StorageError)) throw error;
  return error;
}

/** A real SQLITE_FULL: a database allowed no page beyond those it has, then written to. */
function diskFullError(): unknown {
  const db = openDatabase(join(dir, DATABASE_FILE));
  open.push(db);
  db.exec('CREATE TABLE filler (text TEXT)');
  db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
  try {
    for (let i = 0; i < 1000; i++) db.prepare('INSERT INTO filler VALUES (?)').run('x'.repeat(4000));
  } catch (error) {
    return error;
  }
  throw new Error('the database never filled up');
}

describe('openDatabase names the data folder and what to do when it cannot be used', () => {
  it('a data folder that is a file', () => {
    const file = join(dir, 'data');
    writeFileSync(file, 'notes');
    const error = storageErrorOf(file);
    expect(error.code).toBe('data_folder_unusable');
    expect(error.message).toBe(
      `Scriptorium cannot use the data folder ${file}: it is a file, not a folder. ` +
        'Move that file away or choose another data folder.',
    );
  });

  it('a data folder under a file', () => {
    writeFileSync(join(dir, 'file'), 'notes');
    const dataDir = join(dir, 'file', 'data', 'deeper');
    const error = storageErrorOf(dataDir);
    expect(error.code).toBe('data_folder_unusable');
    expect(error.message).toMatch(
      new RegExp(
        `^Scriptorium cannot use the data folder ${dataDir}: ${join(dir, 'file')} is a file, not a folder`,
      ),
    );
  });

  it.each([
    // sysfs lets no one, root included, create a folder.
    [
      'where no folder may be created (/sys)',
      '/sys/scriptorium-test/data',
      /not allowed to create or write it/,
    ],
    // procfs answers ENOENT, on which Node's recursive mkdir used to loop forever.
    [
      'where no folder can exist (/proc)',
      '/proc/scriptorium-test/data',
      /no folder can be created at that place/,
    ],
    // A folder that exists but takes no new file.
    [
      'a folder that takes no file (/sys/kernel)',
      '/sys/kernel',
      /its database cannot be opened or created there/,
    ],
  ])('%s', (_name, dataDir, reason) => {
    const error = storageErrorOf(dataDir);
    expect(error.code).toBe('data_folder_unusable');
    expect(error.message).toMatch(new RegExp(`^Scriptorium cannot use the data folder ${dataDir}: `));
    expect(error.message).toMatch(reason);
  });

  it('a database that is a folder, or a file that is not a database', () => {
    mkdirSync(join(dir, 'a', DATABASE_FILE), { recursive: true });
    expect(storageErrorOf(join(dir, 'a')).message).toMatch(/cannot be opened or created there/);
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'b', DATABASE_FILE), 'not a database, only text; '.repeat(10));
    expect(storageErrorOf(join(dir, 'b')).message).toMatch(
      /its scriptorium.db is not a Scriptorium database, or is damaged\. Move that file away/,
    );
  });

  it('a disk that is full (the database on /dev/full)', () => {
    mkdirSync(join(dir, 'full'));
    symlinkSync('/dev/full', join(dir, 'full', DATABASE_FILE));
    const error = storageErrorOf(join(dir, 'full'));
    expect(error.code).toBe('disk_full');
    expect(error.message).toBe(
      `The disk holding the data folder ${join(dir, 'full')} is full, so Scriptorium could not save its work. ` +
        'Free some space, then try again: what was saved before is kept.',
    );
  });

  it('still throws NewerSchemaError, now coded as an unusable data folder', () => {
    const newer = new BetterSqlite3(join(dir, DATABASE_FILE));
    newer.pragma('user_version = 99');
    newer.close();
    const error = openingFailure(dir);
    expect(error).toBeInstanceOf(NewerSchemaError);
    expect((error as NewerSchemaError).code).toBe('data_folder_unusable');
  });
});

describe('storageFailure', () => {
  it('classifies an SQLITE_FULL raised in the middle of the work, with or without the folder', () => {
    const error = diskFullError();
    expect(error).toBeInstanceOf(BetterSqlite3.SqliteError);
    expect((error as { code: string }).code).toBe('SQLITE_FULL');
    expect(storageFailure(error, dir)).toMatchObject({
      code: 'disk_full',
      message: expect.stringMatching(new RegExp(`^The disk holding the data folder ${dir} is full`)),
    });
    expect(storageFailure(error)?.message).toMatch(/^The disk holding Scriptorium's data folder is full/);
  });

  it('leaves alone what is no storage failure, and bare system errors when it does not know the folder', () => {
    expect(storageFailure(new Error('a bug'), dir)).toBeUndefined();
    expect(storageFailure(new BetterSqlite3.SqliteError('no such table: x', 'SQLITE_ERROR'))).toBeUndefined();
    const missing = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT', path: '/x' });
    expect(storageFailure(missing)).toBeUndefined();
    expect(storageFailure(missing, '/x')?.code).toBe('data_folder_unusable');
  });

  it('reads extended SQLite codes by their primary code', () => {
    const error = new BetterSqlite3.SqliteError('disk I/O error', 'SQLITE_IOERR_WRITE');
    expect(storageFailure(error, dir)?.message).toBe(
      `Scriptorium cannot use the data folder ${dir}: the disk reported an input/output error. ` +
        'Check the disk or choose another data folder.',
    );
  });
});
