import {
  DAILY_LIMIT_STOP_CODE,
  JOB_STATUS,
  jobAllows,
  STOP_REASON,
  isSyncedSourceKind,
  type JobStatus,
} from '../../shared/vocabulary';
import { isStorageErrorCode } from '../../shared/errors';
import type { Clock } from '../api/types';
import type { Database } from '../store';
import { jobById, keptJobs, setJobAutoExportPath, setJobKeepCurrent, type JobRecord } from '../store/jobs';
import { automaticCreditsSince } from '../store/ledger';
import { sourcesOfJob } from '../store/sources';
import { startOfLocalDay } from './credits';
import { CannotKeepCurrentError, JobNotFoundError } from './errors';

/** Whether a sync can bring the job anything new: it has a playlist or a channel, and is not cancelled. */
export function canKeepCurrent(job: {
  status: JobStatus;
  sources: ReadonlyArray<{ kind: string }>;
}): boolean {
  return job.status !== JOB_STATUS.cancelled && job.sources.some((source) => isSyncedSourceKind(source.kind));
}

/**
 * Whether the job can be synced now: it has finished, or its last sync was stopped by the daily
 * credit limit of automatic syncs or by the store (a full disk, a folder that cannot be written):
 * syncing it again continues that one.
 */
export function syncAllowed(job: Pick<JobRecord, 'status' | 'stopReason' | 'stopCode'>): boolean {
  if (jobAllows(job.status, 'sync')) return true;
  if (job.status !== JOB_STATUS.paused) return false;
  return (
    (job.stopReason === STOP_REASON.budget && job.stopCode === DAILY_LIMIT_STOP_CODE) ||
    (job.stopReason === STOP_REASON.error && isStorageErrorCode(job.stopCode))
  );
}

/**
 * Keeping jobs current by themselves (docs/product.md): which jobs are marked, where each one's
 * corpus is written after an automatic sync, and what automatic syncs spent today, against which
 * Settings' daily credit limit is counted. A service beside the Engine, on the same database and
 * clock: the Engine runs a sync, this says which and within what.
 */
export class KeepCurrent {
  readonly #db: Database;
  readonly #clock: Clock;

  constructor(deps: { db: Database; clock: Clock }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
  }

  /** Marks the job Keep current, or not; a job without a playlist or a channel cannot be marked. */
  setKeepCurrent(jobId: number, on: boolean): void {
    const job = this.#record(jobId);
    if (on && !canKeepCurrent({ status: job.status, sources: sourcesOfJob(this.#db, jobId) }))
      throw new CannotKeepCurrentError(jobId, job.status === JOB_STATUS.cancelled);
    setJobKeepCurrent(this.#db, jobId, on, this.#now());
  }

  /** Where the job's corpus is written after each automatic sync that completes; null: nowhere. */
  setAutoExportPath(jobId: number, path: string | null): void {
    this.#record(jobId);
    setJobAutoExportPath(this.#db, jobId, path, this.#now());
  }

  /** The jobs marked Keep current, oldest first. */
  keptJobIds(): number[] {
    return keptJobs(this.#db).map((job) => job.id);
  }

  /** What automatic syncs spent today (since local midnight), possibly charged credits included. */
  automaticCreditsToday(): number {
    return automaticCreditsSince(this.#db, startOfLocalDay(this.#clock.now()).toISOString());
  }

  /** See syncAllowed. */
  maySync(jobId: number): boolean {
    return syncAllowed(this.#record(jobId));
  }

  #record(jobId: number): JobRecord {
    const job = jobById(this.#db, jobId);
    if (job === undefined) throw new JobNotFoundError(jobId);
    return job;
  }

  #now(): string {
    return new Date(this.#clock.now()).toISOString();
  }
}
