import type { ErrorCode } from '../../shared/errors';

/** Thrown for a job id the database does not hold. */
export class JobNotFoundError extends Error {
  readonly code = 'job_not_found' satisfies ErrorCode;

  constructor(jobId: number) {
    super(`There is no job ${jobId}.`);
    this.name = 'JobNotFoundError';
  }
}

/** Thrown for a sync of a job that has not finished: running it again is what continues it. */
export class JobNotFinishedError extends Error {
  readonly code = 'invalid_input' satisfies ErrorCode;

  constructor(jobId: number) {
    super(`Job ${jobId} has not finished: continue it first (run it again), then bring it up to date.`);
    this.name = 'JobNotFinishedError';
  }
}

/**
 * Thrown for marking Keep current a job that has no playlist or channel (a sync would find nothing),
 * or a cancelled one (stopped for good).
 */
export class CannotKeepCurrentError extends Error {
  readonly code = 'invalid_input' satisfies ErrorCode;

  constructor(jobId: number, cancelled = false) {
    super(
      cancelled
        ? `Job ${jobId} is cancelled, so it cannot be kept current; its sources started again make a new job, which can be. Nothing was changed.`
        : `Job ${jobId} has no playlist or channel, so it cannot be kept current: only their new videos are synced. Nothing was changed.`,
    );
    this.name = 'CannotKeepCurrentError';
  }
}

/** Thrown for an operation that needs the job stopped (deleting it) while a process runs it. */
export class JobRunningError extends Error {
  readonly code = 'job_running' satisfies ErrorCode;

  constructor(jobId: number) {
    super(`Job ${jobId} is running: pause or cancel it before deleting it.`);
    this.name = 'JobRunningError';
  }
}
