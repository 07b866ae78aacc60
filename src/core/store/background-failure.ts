import { asStorageError } from './storage-error';

/** Where work done in the background tells of its failure (the engine's Logger, console by default). */
export interface BackgroundLogger {
  warn(message: string, error?: unknown): void;
}

/**
 * The plain words for a failure of the store: a full disk, a data folder that cannot be written, a
 * database another program keeps locked; undefined for anything else, which is a bug.
 */
export function plainStorageFailure(error: unknown): string | undefined {
  return asStorageError(error)?.message;
}

/**
 * Tells in one line that work done in the background failed (indexing for search, copying the
 * database's log, an automatic sync, a queued job, Export results): `what` says what failed and
 * what becomes of the work, then why, in plain words (`plain`, by default the store's own words for a
 * full disk or an unusable folder). Only a failure without plain words, a bug, is logged with its
 * stack trace: a full disk is the user's to fix, not a crash to report.
 */
export function reportBackgroundFailure(
  logger: BackgroundLogger,
  what: string,
  error: unknown,
  plain: string | undefined = plainStorageFailure(error),
): void {
  if (plain !== undefined) logger.warn(`${what}: ${plain}`);
  else logger.warn(`${what}.`, error);
}
