import { ExportError, ExportTargetError } from '../core/export';
import { NewerSchemaError, StorageError, storageFailure } from '../core/store';
import type { ErrorCode } from '../shared/errors';
import { CliExit, exitCodeFor } from './exit';

/** Every non-zero exit ends with one plain-language line: what happened and what to do. */
export function describeFailure(error: unknown): { code: number; message: string } {
  if (error instanceof CliExit) return { code: error.code, message: error.message };
  const typed = typedFailure(error);
  if (typed !== undefined) {
    const hint =
      typed.code === 'data_folder_unusable' && typed instanceof StorageError
        ? " The CLI's data folder is set with --data-dir or SCRIPTORIUM_DATA_DIR."
        : '';
    return { code: exitCodeFor(typed.code), message: `${typed.message}${hint}` };
  }
  // The job is saved; only the ZIP could not be written, and its message says why and what to do.
  if (error instanceof ExportError) {
    return {
      code: 1,
      message: `${error.message} The job is saved: run the same command again to write the ZIP.`,
    };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return {
    code: 1,
    message: `Scriptorium stopped on an unexpected error: ${detail}. Progress is saved; please report this if it happens again.`,
  };
}

/** A failure that carries its error code and a message already saying what to do. */
function typedFailure(error: unknown): (Error & { code: ErrorCode }) | undefined {
  if (
    error instanceof ExportTargetError ||
    error instanceof StorageError ||
    error instanceof NewerSchemaError
  ) {
    return error;
  }
  // The store's failures in the middle of a job (the disk filling up, say) reach here unclassified.
  return storageFailure(error);
}
