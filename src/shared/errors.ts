import { z } from 'zod';

/**
 * Every failure that crosses a boundary (IPC, HTTP in browser mode, the CLI's exit) travels as
 * data: one code from this table and a plain-language message saying what happened and what to
 * do. The app's handlers answer the first codes; the last two come from the way between a face and
 * the app (browser mode's server, Electron's IPC), never from a handler. The CLI maps codes to exit
 * codes in one place (src/cli/exit.ts); the renderer shows the message as it is.
 */
export const ERROR_CODES = [
  /** A request, a source, an option or a payload is not valid; nothing was sent. */
  'invalid_input',
  /** No API key is set; nothing was sent. */
  'no_key',
  /** The service refused the key (401 or 403). */
  'key_refused',
  /** The job id names no job. */
  'job_not_found',
  /** Another Scriptorium process is running the job. */
  'job_busy',
  /** The job is running here, and the operation needs it stopped first. */
  'job_running',
  /** The service answered 402: the account has no credits for now. */
  'credits_ran_out',
  /** The job has spent the budget it was given. */
  'budget_reached',
  /** The service cannot be reached, keeps failing, or asked to wait longer than Scriptorium will. */
  'service_unavailable',
  /** The disk holding the data folder or the ZIP is full. */
  'disk_full',
  /** The data folder cannot be used (not a folder, not writable, written by a newer version, another program's database). */
  'data_folder_unusable',
  /** Another program (or process) holds the database locked for longer than Scriptorium waits. */
  'database_locked',
  /** The ZIP cannot be written where it was asked to go (a folder, a device, someone else's file). */
  'output_refused',
  /** The user interrupted the work; everything done so far is saved. */
  'interrupted',
  /** A bug: something that should not happen did. */
  'internal',
  /** The app cannot be reached: browser mode's server stopped, or the desktop app's main process did not answer. */
  'unreachable',
  /** Browser mode refused the request: it lacks this run's token, or names another site. */
  'access_refused',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The codes of the store's failures: the disk under the data folder is full, the folder cannot be
 * written, another program keeps the database locked. None is the job's fault: a run they stop keeps
 * them as its stop code, to continue once the store can be written again.
 */
export const STORAGE_ERROR_CODES = ['disk_full', 'data_folder_unusable', 'database_locked'] as const;

export function isStorageErrorCode(code: string | null): boolean {
  return (STORAGE_ERROR_CODES as readonly (string | null)[]).includes(code);
}

/**
 * Why the service refused the key, by the status it answered: 401 and 403 refuse the key itself;
 * 431 means the request's headers, where the key travels, were too large for the service to read.
 */
export function describeKeyRefusal(httpStatus: number): string {
  return httpStatus === 431
    ? 'The service could not read the request (HTTP 431: its headers are too large): the API key, which travels in one, is too long for it'
    : `The service refused the API key (HTTP ${httpStatus})`;
}

export const AppErrorSchema = z.object({ code: z.enum(ERROR_CODES), message: z.string() });

/** The form an error takes on every boundary. */
export type AppErrorData = z.infer<typeof AppErrorSchema>;
