import type { ErrorCode } from '../../shared/errors';
import type { Database } from './database';
import { MIGRATIONS } from './migrations';

/** Thrown when the database was written by a newer Scriptorium; nothing has been written to it. */
export class NewerSchemaError extends Error {
  readonly code: ErrorCode = 'data_folder_unusable';
  readonly found: number;
  readonly known: number;

  constructor(found: number, known: number) {
    super(
      `This database was written by a newer version of Scriptorium (schema ${found}; this version knows up to ${known}). ` +
        'Update Scriptorium or use another --data-dir.',
    );
    this.name = 'NewerSchemaError';
    this.found = found;
    this.known = known;
  }
}

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export function schemaVersion(db: Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

/** Refuses a schema newer than the code; only reads, so the file stays untouched. */
export function assertKnownSchema(db: Database): void {
  const found = schemaVersion(db);
  if (found > SCHEMA_VERSION) throw new NewerSchemaError(found, SCHEMA_VERSION);
}

/** Applies the missing migrations, each in its own transaction together with its user_version. */
export function migrate(db: Database): void {
  assertKnownSchema(db);
  for (let version = schemaVersion(db) + 1; version <= SCHEMA_VERSION; version++) {
    const sql = MIGRATIONS[version - 1];
    if (sql === undefined) break;
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version}`);
    }).immediate();
  }
}
