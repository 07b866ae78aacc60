import { ZodError, z } from 'zod';
import { ERROR_CODES, type AppErrorData, type ErrorCode } from '../../shared/errors';
import { JobNotFoundError } from '../engine';
import { ExportError, ExportInterruptedError } from '../export';
import { NewerSchemaError, storageFailure } from '../store';

/** A failure the faces show as it is: a code from src/shared/errors.ts and a plain-language message. */
export class AppError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
  }

  toData(): AppErrorData {
    return { code: this.code, message: this.message };
  }
}

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/**
 * The failure's plain words, for a line in a log: undefined when it is 'internal' (a bug), which is
 * logged with its stack trace instead.
 */
export function plainWords(error: unknown): string | undefined {
  const failure = toAppError(error);
  return failure.code === 'internal' ? undefined : failure.message;
}

/** File-system codes that mean the disk has no room left. */
export const FULL_DISK: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/**
 * Every failure as an AppError: known ones with their own code and message, anything else as
 * 'internal' (a bug) with a message that says progress is saved.
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  // Errors of the store and the export that already carry one of our codes keep it.
  if (code !== undefined && KNOWN_CODES.has(code)) return new AppError(code as ErrorCode, message);
  if (error instanceof JobNotFoundError) return new AppError('job_not_found', message);
  if (error instanceof ZodError) {
    return new AppError('invalid_input', `The request was not valid: ${z.prettifyError(error)}`);
  }
  if (error instanceof NewerSchemaError) return new AppError('data_folder_unusable', message);
  if (error instanceof ExportInterruptedError) return new AppError('interrupted', message);
  if (error instanceof ExportError) {
    const saved = `${message} The job is saved: export it again to write the ZIP.`;
    return new AppError(FULL_DISK.has(error.code ?? '') ? 'disk_full' : 'output_refused', saved);
  }
  // The store's failures in the middle of a job (the disk filling up, say).
  const storage = storageFailure(error);
  if (storage !== undefined) return new AppError(storage.code, storage.message);
  return new AppError(
    'internal',
    `Scriptorium stopped on an unexpected error: ${message}. Progress is saved; please report this if it happens again.`,
  );
}
