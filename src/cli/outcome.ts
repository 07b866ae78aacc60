import type { PauseReason, RunOutcomeView } from '../shared/contract';
import { describeKeyRefusal } from '../shared/errors';
import { JOB_STATUS, STOP_REASON } from '../shared/vocabulary';
import { CliExit, ExitCode } from './exit';
import type { ExitCodeValue } from './exit';

/** Why a run did not complete, and the next step, as two sentences of the user's last line. */
interface Unfinished {
  code: ExitCodeValue;
  why: string;
  next: string;
}

/**
 * Turns a run that did not complete into the contract's exit code and the one line the user
 * reads last: what happened and what to do next.
 */
export function exitForUnfinishedRun(
  outcome: Exclude<RunOutcomeView, { status: 'completed' }>,
  budget: number | null,
): CliExit {
  const { code, why, next } = unfinishedRun(outcome, budget);
  return new CliExit(code, `${why} ${next}`);
}

/**
 * The same for a sync, which cannot be run again until its job has finished: the job's own command,
 * which `scriptorium jobs` prints, continues it.
 */
export function exitForUnfinishedSync(
  jobId: number,
  outcome: Exclude<RunOutcomeView, { status: 'completed' }>,
  budget: number | null,
): CliExit {
  const { code, why } = unfinishedRun(outcome, budget);
  const larger =
    outcome.status === JOB_STATUS.paused && outcome.reason === STOP_REASON.budget
      ? ' with a larger --budget'
      : '';
  return new CliExit(
    code,
    `${why} Progress is saved: run the command \`scriptorium jobs\` shows for job ${jobId}${larger} to finish it.`,
  );
}

function unfinishedRun(
  outcome: Exclude<RunOutcomeView, { status: 'completed' }>,
  budget: number | null,
): Unfinished {
  switch (outcome.status) {
    case JOB_STATUS.waiting_credits:
      return {
        code: ExitCode.paused,
        why: `Paused: ${outcome.meaning} (${outcome.code}).`,
        next: 'Progress is saved; run the same command again afterwards to continue.',
      };
    case JOB_STATUS.paused:
      return pausedRun(outcome.reason, outcome.message, budget);
    case JOB_STATUS.failed:
      return {
        code: ExitCode.keyRefused,
        why: `${describeKeyRefusal(outcome.httpStatus)}; nothing was charged.`,
        next: 'Check TRANSCRIPT_API_KEY, then run the same command again.',
      };
    case JOB_STATUS.cancelled:
      return {
        code: ExitCode.paused,
        why: 'The job was cancelled: nothing more is bought, and what it bought is kept.',
        next: 'Running the same command again makes a new job, which reuses the transcripts this one bought at no cost.',
      };
  }
}

function pausedRun(reason: PauseReason, message: string | null, budget: number | null): Unfinished {
  switch (reason) {
    case STOP_REASON.budget:
      return {
        code: ExitCode.paused,
        why: `Paused: this job has spent its budget${budget === null ? '' : ` of ${budget} credits`}.`,
        next: 'Run the same command with a larger --budget to continue.',
      };
    case STOP_REASON.interrupted:
    case STOP_REASON.shutdown:
      return {
        code: ExitCode.interrupted,
        why: 'Interrupted: progress is saved.',
        next: 'Run the same command again to continue.',
      };
    case STOP_REASON.service:
      return {
        code: ExitCode.serviceUnavailable,
        why: `Paused: ${message ?? 'the service cannot be used right now'}.`,
        next: 'Progress is saved; run the same command again later to continue.',
      };
    case STOP_REASON.user:
      return {
        code: ExitCode.paused,
        why: 'Paused: the job was paused.',
        next: 'Run the same command again to continue.',
      };
  }
}
