import type { Database } from './database';
import { preparedFor } from './prepared';

const statements = preparedFor((db) => ({
  write: db.prepare<[string, string]>(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ),
  remove: db.prepare<[string]>('DELETE FROM settings WHERE key = ?'),
}));

export function writeSetting(db: Database, key: string, value: string): void {
  statements(db).write.run(key, value);
}

export function removeSetting(db: Database, key: string): void {
  statements(db).remove.run(key);
}
