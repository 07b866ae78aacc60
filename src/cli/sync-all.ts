import type { CommandOutput, JobView, RunOutcomeView, ScriptoriumApi } from '../shared/contract';
import { ContractError } from '../shared/contract-error';
import { DAILY_CREDIT_LIMIT, DAILY_LIMIT_STOP_CODE, JOB_STATUS, STOP_REASON } from '../shared/vocabulary';
import { withApp, type CliAppOptions } from './environment';
import { CliExit, ExitCode } from './exit';
import { describeFailure } from './failure';
import { argumentOrExit } from './argument-error';
import { parseWholeNumber } from './job-options';
import { exitForUnfinishedSync } from './outcome';
import { plural } from './plural';

export interface SyncAllFlags extends CliAppOptions {
  /** Every finished job with a playlist or a channel, not only those marked Keep current. */
  any: boolean;
  /** What all the syncs may spend together today, as typed. */
  dailyLimit?: string;
}

/** What one job's sync says: its line, the exit it would have had alone, and whether the others may still run. */
interface JobVerdict {
  line: string;
  exit: CliExit | undefined;
  /** The account or the user stopped it (no key, no credits, the service down, Ctrl+C): the rest would fare no better. */
  stopsTheRest: boolean;
}

/**
 * `scriptorium sync --all`: syncs every job marked Keep current (with --any, every finished job with a
 * playlist or a channel), one after another, as automatic syncs (the daily credit limit counts them);
 * a line per job, and the exit of the worst outcome, the highest code a job's own sync would have given.
 */
export async function syncAll(flags: SyncAllFlags): Promise<void> {
  const dailyLimit = flags.dailyLimit === undefined ? null : parseDailyLimit(flags.dailyLimit);
  await withApp(flags, async (api) => {
    const jobs = (await api.listJobs({})).filter((job) =>
      flags.any ? job.keepCurrent.available && maySync(job) : job.keepCurrent.marked,
    );
    if (jobs.length === 0) {
      process.stdout.write(
        flags.any
          ? 'No finished job has a playlist or a channel: nothing to sync.\n'
          : 'No job is marked Keep current (`scriptorium keep JOB_ID on` marks one): nothing to sync.\n',
      );
      return;
    }
    const interrupts = new Interrupts(api);
    let worst: CliExit | undefined;
    try {
      for (const [index, job] of jobs.entries()) {
        if (interrupts.count > 0) {
          worst = worse(worst, new CliExit(ExitCode.interrupted, 'Interrupted: progress is saved.'));
          break;
        }
        interrupts.jobId = job.id;
        const verdict = await syncOne(api, job, dailyLimit);
        process.stdout.write(`${verdict.line}\n`);
        worst = worse(worst, verdict.exit);
        const left = jobs.length - index - 1;
        if (verdict.stopsTheRest && left > 0) {
          process.stdout.write(`${plural(left, 'more job')} not synced: the same would stop them.\n`);
          break;
        }
      }
    } finally {
      interrupts.dispose();
    }
    if (worst !== undefined) throw worst;
    process.stdout.write(`${plural(jobs.length, 'job')} brought up to date.\n`);
  });
}

async function syncOne(api: ScriptoriumApi, job: JobView, dailyLimit: number | null): Promise<JobVerdict> {
  const name = `Job ${job.id} (${job.title})`;
  let result: CommandOutput<'autoSyncJob'>;
  try {
    result = await api.autoSyncJob({ jobId: job.id, dailyLimit });
  } catch (error) {
    const { code, message } = describeFailure(error);
    // Another process running this job, or a job deleted meanwhile, concern it alone.
    const alone =
      error instanceof ContractError && (error.code === 'job_busy' || error.code === 'job_not_found');
    return {
      line: `${name}: not synced: ${message}`,
      exit: new CliExit(code, message),
      stopsTheRest: !alone,
    };
  }
  if (result.sync === null)
    return {
      line: `${name}: not synced: ${result.skipped ?? 'it cannot be synced now'}.`,
      exit: undefined,
      stopsTheRest: false,
    };
  const { outcome, newVideos, credits } = result.sync;
  const found = `${newVideos === 0 ? 'nothing new' : plural(newVideos, 'new video')}, ${plural(credits, 'credit')}`;
  if (outcome.status === JOB_STATUS.completed) {
    return {
      line: `${name}: ${found}.${exportNote(result.autoExport)}`,
      exit: undefined,
      stopsTheRest: false,
    };
  }
  const exit = stoppedByDailyLimit(result.job)
    ? new CliExit(
        ExitCode.paused,
        `Paused: ${result.job.stop?.message ?? 'the daily credit limit is spent'}.`,
      )
    : exitForUnfinishedSync(job.id, outcome, result.job.budget);
  return { line: `${name}: ${found}; stopped. ${exit.message}`, exit, stopsTheRest: stopsEveryJob(outcome) };
}

/**
 * Whether the stop concerns the account or the user rather than this job (out of credits, a refused
 * key, the service down, Ctrl+C): the next jobs would stop the same way.
 */
function stopsEveryJob(outcome: Exclude<RunOutcomeView, { status: 'completed' }>): boolean {
  switch (outcome.status) {
    case JOB_STATUS.waiting_credits:
    case JOB_STATUS.failed:
      return true;
    case JOB_STATUS.paused:
      return (
        outcome.reason === STOP_REASON.service ||
        outcome.reason === STOP_REASON.interrupted ||
        outcome.reason === STOP_REASON.shutdown
      );
    case JOB_STATUS.cancelled:
      return false;
  }
}

function stoppedByDailyLimit(job: JobView): boolean {
  return job.stop?.reason === STOP_REASON.budget && job.stop.code === DAILY_LIMIT_STOP_CODE;
}

/** Finished, or stopped by the daily credit limit (a sync continues it). */
function maySync(job: JobView): boolean {
  return (
    job.status === JOB_STATUS.completed || (job.status === JOB_STATUS.paused && stoppedByDailyLimit(job))
  );
}

function exportNote(autoExport: CommandOutput<'autoSyncJob'>['autoExport']): string {
  if (autoExport === null) return '';
  return autoExport.ok
    ? ` Written to ${autoExport.path}.`
    : ` Its automatic export failed: ${autoExport.message}`;
}

/** The worse of two exits: the higher code (130, an interruption, above all). */
function worse(a: CliExit | undefined, b: CliExit | undefined): CliExit | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.code > a.code ? b : a;
}

/** `--daily-limit`: a whole number of credits within DAILY_CREDIT_LIMIT; else exit 2, nothing sent. */
export function parseDailyLimit(text: string): number {
  return argumentOrExit(
    () => parseWholeNumber('--daily-limit', text, DAILY_CREDIT_LIMIT.min, DAILY_CREDIT_LIMIT.max),
    ' Nothing was sent.',
  );
}

/**
 * SIGINT and SIGTERM during `sync --all`, as the interrupt rule has them: the first pauses the job
 * being synced as interrupted (requests in flight finish) and no further job starts; a second cuts
 * the requests in flight.
 */
class Interrupts {
  /** The job being synced now. */
  jobId: number | undefined;
  count = 0;
  readonly #onSignal: () => void;

  constructor(api: ScriptoriumApi) {
    this.#onSignal = () => {
      this.count += 1;
      if (this.count === 1)
        process.stderr.write(
          '\nStopping: requests already sent may take up to 10 s to finish, and are kept.\n',
        );
      if (this.jobId !== undefined)
        void api
          .pauseJob({ jobId: this.jobId, interrupted: true, force: this.count > 1 })
          .catch(() => undefined);
    };
    process.on('SIGINT', this.#onSignal);
    process.on('SIGTERM', this.#onSignal);
  }

  dispose(): void {
    process.off('SIGINT', this.#onSignal);
    process.off('SIGTERM', this.#onSignal);
  }
}
