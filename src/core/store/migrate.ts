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

/** Thrown when the database file is another program's: it holds none of Scriptorium's tables. */
export class ForeignDatabaseError extends Error {
  constructor() {
    super("The database is not Scriptorium's: it holds another program's tables.");
    this.name = 'ForeignDatabaseError';
  }
}

/** The tables every version of the schema has (the first migration's). */
const SCRIPTORIUM_TABLES = ['jobs', 'sources', 'items', 'transcripts', 'ledger', 'settings'];

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
 * Refuses another program's SQLite file, before writing anything to it: one with a schema version
 * but without Scriptorium's tables, or one without a version that already holds tables (Scriptorium
 * would add its own among them). Read in one transaction, so that a migration committed meanwhile by
 * another process is seen whole or not at all.
 */
export function assertScriptoriumDatabase(db: Database): void {
  const ours = db.transaction(() => {
    const tables = new Set(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .pluck()
        .all() as string[],
    );
    return schemaVersion(db) === 0
      ? tables.size === 0
      : SCRIPTORIUM_TABLES.every((table) => tables.has(table));
  })();
  if (!ours) throw new ForeignDatabaseError();
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
