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

/**
 * Applies the missing migrations, each in its own transaction together with its user_version.
 * Foreign keys are off while a migration runs, as SQLite asks for rebuilding a table (dropping a
 * table with them on would cascade into its children), and checked before the migration commits.
 */
export function migrate(db: Database): void {
  assertKnownSchema(db);
  if (schemaVersion(db) === SCHEMA_VERSION) return;
  db.pragma('foreign_keys = OFF');
  try {
    MIGRATIONS.forEach((sql, index) => {
      const version = index + 1;
      db.transaction(() => {
        // Read under the write lock: another process may have migrated while this one waited for it.
        if (schemaVersion(db) >= version) return;
        db.exec(sql);
        const broken = db.pragma('foreign_key_check') as unknown[];
        if (broken.length > 0)
          throw new Error(`migration ${version} would break ${broken.length} reference(s)`);
        db.pragma(`user_version = ${version}`);
      }).immediate();
    });
  } finally {
    db.pragma('foreign_keys = ON');
  }
}
