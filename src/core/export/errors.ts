import { systemErrorCode } from './zip/system-error';

/** The only error writeCorpus throws. Its message says, in plain language, what went wrong and what to do. */
export class ExportError extends Error {
  /** The ZIP path the export was writing to. */
  readonly path: string;
  /** The system error code (ENOSPC, EACCES, …) when the failure came from the file system. */
  readonly code: string | undefined;

  constructor(message: string, path: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ExportError';
    this.path = path;
    this.code = options.code;
  }
}

/** The export was stopped on request: nothing was written at the target, and no temporary file is left. */
export class ExportInterruptedError extends Error {
  readonly path: string;

  constructor(path: string) {
    super(`The export to ${path} was stopped; nothing was written there.`);
    this.name = 'ExportInterruptedError';
    this.path = path;
  }
}

/** Wraps a failure of the caller's videos() iterator, so that it is not reported as a disk problem. */
export class VideoReadError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'VideoReadError';
  }
}

/** What a file-system error code means for someone saving `file` ("the ZIP"), and what they can do about it. */
const WRITE_FAILURE_REASONS: Record<string, (file: string) => string> = {
  ENOSPC: (file) => `the disk is full. Free some space or choose another location for ${file}.`,
  EDQUOT: (file) => `your disk quota is used up. Free some space or choose another location for ${file}.`,
  EFBIG: (file) => `the file grew larger than this disk allows. Choose another location for ${file}.`,
  EACCES: () => 'permission was denied. Choose a folder you are allowed to write to.',
  EPERM: () => 'the operation was not permitted. Choose a folder you are allowed to write to.',
  EROFS: (file) => `the disk is read-only. Choose another location for ${file}.`,
  ENOENT: (file) => `the folder does not exist. Create it first or choose another location for ${file}.`,
  ENOTDIR: (file) => `part of the path is a file, not a folder. Choose another location for ${file}.`,
  EISDIR: (file) => `a folder already has that name. Choose another file name for ${file}.`,
  ENAMETOOLONG: (file) => `the path is too long. Choose a shorter path for ${file}.`,
  EIO: (file) =>
    `the disk reported an input/output error. Check the disk or choose another location for ${file}.`,
  EMFILE: () => 'too many files are open. Close some programs and try again.',
  EBUSY: () => 'the file is in use by another program. Close it and try again.',
};

/**
 * Plain-language message for a failure to write `file` ("the ZIP") at `path`,
 * e.g. "Could not write /x.zip: the disk is full. Free some space or …"; undefined `code`s and
 * unknown ones are said as unexpected.
 */
export function describeWriteFailure(path: string, code: string | undefined, file = 'the ZIP'): string {
  const reason = code === undefined ? undefined : WRITE_FAILURE_REASONS[code]?.(file);
  if (reason !== undefined) return `Could not write ${path}: ${reason}`;
  const detail = code === undefined ? '' : ` (${code})`;
  const advice = `Try again or choose another location for ${file}.`;
  return `Could not write ${path}: an unexpected error occurred${detail}. ${advice}`;
}

/** Whether a file-system error code is one describeWriteFailure knows the plain words for. */
export function isKnownWriteFailure(code: string | undefined): boolean {
  return code !== undefined && code in WRITE_FAILURE_REASONS;
}

/** Turns any failure during an export into an ExportError that names the path and the next step. */
export function toExportError(path: string, error: unknown): ExportError {
  if (error instanceof ExportError) return error;
  if (error instanceof VideoReadError) {
    const reason = `reading the job's videos failed (${error.message})`;
    return new ExportError(
      `Could not write ${path}: ${reason}. Nothing was saved; try the export again.`,
      path,
      {
        cause: error.cause,
      },
    );
  }
  const code = systemErrorCode(error);
  return new ExportError(describeWriteFailure(path, code), path, { code, cause: error });
}
