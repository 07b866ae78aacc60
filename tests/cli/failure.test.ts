import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/cli/failure';
import { checkExportTarget } from '../../src/core/export';
import { DATABASE_FILE, NewerSchemaError, openDatabase, type Database } from '../../src/core/store';

let dir: string;
let db: Database | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-failure-'));
});
afterEach(() => {
  db?.close();
  db = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function thrownBy(action: () => void): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('describeFailure maps typed errors to their exit code and message', () => {
  it('an SQLITE_FULL raised in the middle of a job: exit 8, the disk is full', () => {
    const opened = openDatabase(join(dir, DATABASE_FILE));
    db = opened;
    opened.exec('CREATE TABLE filler (text TEXT)');
    opened.pragma(`max_page_count = ${Number(opened.pragma('page_count', { simple: true }))}`);
    const full = thrownBy(() => {
      for (let i = 0; i < 1000; i++) opened.prepare('INSERT INTO filler VALUES (?)').run('x'.repeat(4000));
    });
    expect(describeFailure(full)).toEqual({
      code: 8,
      message:
        "The disk holding Scriptorium's data folder is full, so Scriptorium could not save its work. " +
        'Free some space, then try again: what was saved before is kept.',
    });
  });

  it('a data folder that cannot be used: exit 8, naming the folder and the option that sets it', () => {
    const failure = describeFailure(
      thrownBy(() => openDatabase(join('/proc/scriptorium-test', DATABASE_FILE))),
    );
    expect(failure.code).toBe(8);
    expect(failure.message).toBe(
      'Scriptorium cannot use the data folder /proc/scriptorium-test: no folder can be created at that place. ' +
        "Choose another data folder. The CLI's data folder is set with --data-dir or SCRIPTORIUM_DATA_DIR.",
    );
  });

  it('a database from a newer Scriptorium: exit 8 with its own message', () => {
    const error = new NewerSchemaError(9, 2);
    expect(describeFailure(error)).toEqual({ code: 8, message: error.message });
  });

  it('an --out that would destroy something: exit 2', () => {
    expect(describeFailure(thrownBy(() => checkExportTarget(dir)))).toEqual({
      code: 2,
      message: `Cannot write ${dir}: it is a folder. Choose a file name for the ZIP, such as ${join(dir, 'corpus.zip')}.`,
    });
  });

  it('anything else is still an unexpected error: exit 1', () => {
    expect(describeFailure(new TypeError('x is undefined'))).toEqual({
      code: 1,
      message:
        'Scriptorium stopped on an unexpected error: x is undefined. Progress is saved; please report this if it happens again.',
    });
  });
});
