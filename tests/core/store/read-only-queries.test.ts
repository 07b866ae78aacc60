import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/core/store';
import { readOnlyPreparedFor } from '../../../src/core/store/prepared';
import { readSetting } from '../../../src/core/store/queries/settings';
import { writeSetting } from '../../../src/core/store/settings';
import { tempDir } from '../../support/cli';

// The query modules (store/queries/) are what the application reads the store through; they only
// read, and a statement among them that would write is refused before it can run.

let dir: string;
let db: Database;

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(): Database {
  dir = tempDir('scriptorium-queries-');
  db = openDatabase(join(dir, 'scriptorium.db'));
  return db;
}

describe('the read-only statements of the query modules', () => {
  it('refuses, at its first use, a query module holding a statement that would write, which writes nothing', () => {
    open();
    writeSetting(db, 'kept', 'as it was');
    const statements = readOnlyPreparedFor((database) => ({
      read: database.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
      forget: database.prepare<[string]>('DELETE FROM settings WHERE key = ?'),
    }));
    expect(() => statements(db).forget.run('kept')).toThrow(
      'The query "forget" would write to the database: only the engine writes (DESIGN.md).',
    );
    expect(readSetting(db, 'kept')).toBe('as it was');
  });

  it('serves a module whose statements only read', () => {
    open();
    writeSetting(db, 'balance', '12');
    const statements = readOnlyPreparedFor((database) => ({
      read: database.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
    }));
    expect(statements(db).read.get('balance')).toEqual({ value: '12' });
  });
});
