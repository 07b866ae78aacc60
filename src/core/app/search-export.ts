import { renameSync, rmSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import type { ConcordanceOptions } from '../../shared/contract';
import {
  checkExportTarget,
  describeWriteFailure,
  isKnownWriteFailure,
  tempPathBeside,
  writeConcordanceFile,
  writeSearchResultsFile,
} from '../export';
import type { Database } from '../store';
import { AppError, FULL_DISK } from './errors';
import type { LibrarySearch } from './library';
import { concordance } from './library-concordance';
import { searchResultRows, type RowsProgress } from './library-export';

/**
 * What Export results is asked: a search, how many of its hits at most (null: every one), and
 * whether as a concordance (the words around each hit, in the order asked).
 */
export interface SearchExportRequest {
  search: LibrarySearch;
  limit: number | null;
  concordance: ConcordanceOptions | null;
}

/** What was written: the CSV's bytes and rows, and the id of the thread that wrote them. */
export interface SearchExportWritten {
  bytes: number;
  rows: number;
  threadId: number;
}

export interface SearchExportHooks {
  onProgress: (progress: RowsProgress) => void;
  /** Aborted with the reason the export then fails with (searchExportCancelled). */
  signal: AbortSignal;
}

/**
 * Writes the CSV of a request into `file`, a new temporary file: on the app's own thread
 * (inThisThread) or on a worker thread (search-export-thread.ts), as openApp's options choose.
 */
export type SearchExportWriter = (
  request: SearchExportRequest,
  file: string,
  hooks: SearchExportHooks,
) => Promise<SearchExportWritten>;

/** Why an Export results under way stopped when the user or the app closing cancelled it. */
export function searchExportCancelled(): AppError {
  return new AppError('interrupted', 'Export results was cancelled: no file was written.');
}

/**
 * The search, reading the matching transcripts and writing the CSV: one thread's whole work. A file
 * the disk would not take (full, read-only, not allowed) fails with plain words, as the database's
 * own failures do (toAppError).
 */
export async function writeSearchExport(
  db: Database,
  request: SearchExportRequest,
  file: string,
  hooks: { onProgress: (progress: RowsProgress) => void; signal?: AbortSignal },
): Promise<SearchExportWritten> {
  if (request.concordance !== null) {
    const { rows } = concordance(db, request.search, {
      ...request.concordance,
      limit: request.limit,
      ...hooks,
    });
    return { ...(await writeConcordanceFile(rows, file)), threadId };
  }
  const rows = searchResultRows(db, request.search, { limit: request.limit, ...hooks });
  try {
    return { ...(await writeSearchResultsFile(rows, file)), threadId };
  } catch (error) {
    throw csvWriteFailure(error) ?? error;
  }
}

/** A file-system failure writing the CSV, in the words of a failed export; undefined for anything else. */
export function csvWriteFailure(error: unknown): AppError | undefined {
  const code =
    typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
      ? error.code
      : undefined;
  if (!isKnownWriteFailure(code)) return undefined;
  const message = `${describeWriteFailure('the search results', code, 'the CSV file')} Nothing was written.`;
  return new AppError(FULL_DISK.has(code ?? '') ? 'disk_full' : 'output_refused', message);
}

/**
 * The writer of the sources run by vitest, where no built worker exists, and of the one-shot CLI,
 * whose thread serves nothing else: the app's own thread, which gets a turn every few transcripts.
 */
export function inThisThread(db: Database): SearchExportWriter {
  return (request, file, hooks) => writeSearchExport(db, request, file, hooks);
}

/**
 * Export results to `path`, whole or not at all: a target that would destroy something is refused
 * before any work (checkExportTarget), the CSV is written beside it by `writer`, then renamed over
 * it. Cancelled (`hooks.signal`) before the rename, it fails with the signal's reason and removes
 * what it wrote; the rename is done here, on the caller's thread, so that no cancel comes too late.
 */
export async function exportSearchResultsTo(
  path: string,
  request: SearchExportRequest,
  writer: SearchExportWriter,
  hooks: SearchExportHooks,
): Promise<SearchExportWritten> {
  hooks.signal.throwIfAborted();
  checkExportTarget(path);
  const temp = tempPathBeside(path, 'partial');
  try {
    const written = await writer(request, temp, hooks);
    hooks.signal.throwIfAborted();
    renameSync(temp, path);
    return written;
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
