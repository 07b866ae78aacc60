import type { Database } from '../database';
import { readOnlyPreparedFor } from '../prepared';

const statements = readOnlyPreparedFor((db) => ({
  read: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
}));

/** The text kept under `key` in the settings table; undefined when nothing is. */
export function readSetting(db: Database, key: string): string | undefined {
  return statements(db).read.get(key)?.value;
}
