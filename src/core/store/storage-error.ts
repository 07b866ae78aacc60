import BetterSqlite3 from 'better-sqlite3';
import type { STORAGE_ERROR_CODES } from '../../shared/errors';
import { ForeignDatabaseError } from './migrate';

type StorageErrorCode = (typeof STORAGE_ERROR_CODES)[number];

/** How long a connection waits for another one's lock before giving up (database.ts sets it). */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * The data folder cannot be used, the disk under it is full, or another program holds its database
 * locked; the message names the folder and what to do.
 */
export class StorageError extends Error {
  readonly code: StorageErrorCode;

  constructor(code: StorageErrorCode, message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'StorageError';
    this.code = code;
  }
}

const ANOTHER = 'or choose another data folder';
const NOT_OURS = `Move that file away (Scriptorium then starts a new one) ${ANOTHER}`;

/** Why the folder cannot be used and what to do, by SQLite's primary result code. */
const SQLITE_REASONS: Record<string, string | undefined> = {
  SQLITE_CANTOPEN: `its database cannot be opened or created there. Check that the folder is writable and that scriptorium.db in it is a file, ${ANOTHER}`,
  SQLITE_READONLY: `its database can only be read (a read-only disk or file). Make it writable ${ANOTHER}`,
  SQLITE_IOERR: `the disk reported an input/output error. Check the disk ${ANOTHER}`,
  SQLITE_NOTADB: `its scriptorium.db is not a Scriptorium database, or is damaged. ${NOT_OURS}`,
  SQLITE_CORRUPT: `its scriptorium.db is damaged. ${NOT_OURS}`,
};

/** The same, for the system errors of creating the folder; `where` is the path mkdir failed on. */
const SYSTEM_REASONS: Record<string, ((where: string) => string) | undefined> = {
  EEXIST: (where) => `${where} is a file, not a folder. Move that file away ${ANOTHER}`,
  ENOTDIR: (where) => `${where} lies under a file, not a folder. Choose a path made of folders`,
  EACCES: () => `Scriptorium is not allowed to create or write it. Check its permissions ${ANOTHER}`,
  EPERM: () => `Scriptorium is not allowed to create or write it. Check its permissions ${ANOTHER}`,
  EROFS: () => `it is on a read-only disk. Choose another data folder`,
  ENOENT: () => `no folder can be created at that place. Choose another data folder`,
  ENAMETOOLONG: () => `its path is too long. Choose a shorter one`,
  EIO: () => `the disk reported an input/output error. Check the disk ${ANOTHER}`,
};

const DISK_FULL_CODES: ReadonlySet<string> = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

const NOT_SCRIPTORIUM = `its scriptorium.db is not Scriptorium's database (another program's SQLite file). ${NOT_OURS}`;

/**
 * What a failure of the store means for the user: the disk under the data folder is full
 * ('disk_full'), the folder or its database cannot be used ('data_folder_unusable'), or another
 * program held the database locked for longer than Scriptorium waits ('database_locked'); undefined
 * for anything else (a bug). Without `dataDir` (an error caught far from where it
 * happened, such as an SQLITE_FULL in the middle of a job), only SQLite's own errors are classified: a
 * bare system error could have come from anywhere.
 */
export function storageFailure(error: unknown, dataDir?: string): StorageError | undefined {
  const folder = dataDir === undefined ? "Scriptorium's data folder" : `the data folder ${dataDir}`;
  let reason: string | undefined;
  if (error instanceof ForeignDatabaseError) {
    reason = NOT_SCRIPTORIUM;
  } else if (error instanceof BetterSqlite3.SqliteError) {
    if (DISK_FULL_CODES.has(error.code)) return diskFull(folder, error);
    // SQLITE_BUSY and its extended codes: the lock was not free within the busy timeout.
    if (error.code.startsWith('SQLITE_BUSY')) return locked(folder, error);
    // Extended codes refine a primary one: SQLITE_IOERR_WRITE is an SQLITE_IOERR.
    reason = SQLITE_REASONS[error.code.split('_').slice(0, 2).join('_')];
  } else if (dataDir !== undefined && error instanceof Error && 'code' in error) {
    const code = String(error.code);
    if (DISK_FULL_CODES.has(code)) return diskFull(folder, error);
    const path = 'path' in error && typeof error.path === 'string' ? error.path : dataDir;
    reason = SYSTEM_REASONS[code]?.(path === dataDir ? 'it' : path);
  }
  if (reason === undefined) return undefined;
  return new StorageError('data_folder_unusable', `Scriptorium cannot use ${folder}: ${reason}.`, error);
}

/** The failure as a StorageError: one already, or an SQLite error storageFailure classifies; else undefined. */
export function asStorageError(error: unknown): StorageError | undefined {
  return error instanceof StorageError ? error : storageFailure(error);
}

function locked(folder: string, cause: unknown): StorageError {
  return new StorageError(
    'database_locked',
    `Another program holds the database of ${folder} locked (a database browser, say, or another Scriptorium ` +
      `writing), and it stayed locked for ${BUSY_TIMEOUT_MS / 1000} s. Close it or wait, then try again: nothing was lost.`,
    cause,
  );
}

function diskFull(folder: string, cause: unknown): StorageError {
  return new StorageError(
    'disk_full',
    `The disk holding ${folder} is full, so Scriptorium could not save its work. ` +
      'Free some space, then try again: what was saved before is kept.',
    cause,
  );
}
