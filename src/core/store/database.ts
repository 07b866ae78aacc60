import BetterSqlite3 from 'better-sqlite3';
import { dirname } from 'node:path';
import { makeFolder } from './make-folder';
import { assertKnownSchema, assertScriptoriumDatabase, migrate } from './migrate';
import { BUSY_TIMEOUT_MS, storageFailure } from './storage-error';

export type Database = BetterSqlite3.Database;

export interface OpenDatabaseOptions {
  /**
   * The compiled better-sqlite3 addon to load instead of the one beside the package (better-sqlite3's
   * own option): the desktop app in development loads a build made for Electron from here.
   */
  nativeBinding?: string;
}

/** The options each connection was opened with, so that another thread can open its twin. */
const optionsOf = new WeakMap<Database, OpenDatabaseOptions>();

export function openedWith(db: Database): OpenDatabaseOptions | undefined {
  return optionsOf.get(db);
}

/**
 * Opens (creating when needed) the Scriptorium database at `file`, sets the pragmas every
 * connection needs and brings the schema up to date. Throws NewerSchemaError, without writing
 * anything, when the file was written by a newer Scriptorium, and StorageError when its folder
 * cannot be used, its file is another program's database, its disk is full or another program
 * holds it locked.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database {
  try {
    return openAndMigrate(file, options);
  } catch (error) {
    throw storageFailure(error, dirname(file)) ?? error;
  }
}

/**
 * A read-only connection to a Scriptorium database that another connection of this process opened
 * (and so brought up to date): for a thread that only reads, such as the one writing Export results.
 * It waits for a lock as every connection does, and cannot write whatever it runs.
 */
export function openReadOnlyDatabase(file: string, options: OpenDatabaseOptions = {}): Database {
  try {
    const db = new BetterSqlite3(file, {
      readonly: true,
      fileMustExist: true,
      nativeBinding: options.nativeBinding,
    });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    return db;
  } catch (error) {
    throw storageFailure(error, dirname(file)) ?? error;
  }
}

/** The page cache of a background connection, in KiB. */
const BACKGROUND_CACHE_KIB = 256;

/**
 * A second connection to a Scriptorium database that another connection of this process opened (and
 * so brought up to date), for a thread that writes only what can be made again from the rest: the
 * derived transcripts and the Library's index (core/engine/prepare-transcripts.ts). Its commits do not
 * wait for the disk (synchronous = NORMAL): a power cut may take back the last of them, each whole,
 * and the next start makes them again.
 */
export function openBackgroundDatabase(file: string, options: OpenDatabaseOptions = {}): Database {
  try {
    const db = new BetterSqlite3(file, { fileMustExist: true, nativeBinding: options.nativeBinding });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('synchronous = NORMAL');
    // A small page cache: this thread's memory is the command's too (a 2 MiB cache, SQLite's default,
    // kept about 15 MiB more of it, and cost more CPU: bench/RESULTS.md, issue 45).
    db.pragma(`cache_size = -${BACKGROUND_CACHE_KIB}`);
    db.pragma('foreign_keys = ON');
    return db;
  } catch (error) {
    throw storageFailure(error, dirname(file)) ?? error;
  }
}

function openAndMigrate(file: string, options: OpenDatabaseOptions): Database {
  if (file !== ':memory:') makeFolder(dirname(file));
  const db = new BetterSqlite3(file, { nativeBinding: options.nativeBinding });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Checked before the first pragma that writes (journal_mode rewrites the file header).
    assertKnownSchema(db);
    assertScriptoriumDatabase(db);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    optionsOf.set(db, options);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
