import type { RunOutcome } from '../core/engine';
import { CliExit, ExitCode } from './exit';

/**
 * Turns a run that did not complete into the contract's exit code and the one line the user
 * reads last: what happened and what to do next.
 */
export function exitForUnfinishedRun(
  outcome: Exclude<RunOutcome, { status: 'completed' }>,
  budget?: number,
): CliExit {
  switch (outcome.status) {
    case 'waiting_credits':
      return new CliExit(
        ExitCode.paused,
        `Paused: ${outcome.meaning} (${outcome.code}). Progress is saved; run the same command again afterwards to continue.`,
      );
    case 'paused':
      if (outcome.reason === 'budget') {
        return new CliExit(
          ExitCode.paused,
          `Paused: this job has spent its budget${budget === undefined ? '' : ` of ${budget} credits`}. Run the same command with a larger --budget to continue.`,
        );
      }
      if (outcome.reason === 'interrupted') {
        return new CliExit(
          ExitCode.interrupted,
          'Interrupted: progress is saved. Run the same command again to continue.',
        );
      }
      if (outcome.reason === 'service') {
        return new CliExit(
          ExitCode.serviceUnavailable,
          `Paused: ${outcome.message}. Progress is saved; run the same command again later to continue.`,
        );
      }
      return new CliExit(
        ExitCode.paused,
        'Paused: the job was paused. Run the same command again to continue.',
      );
    case 'failed':
      return new CliExit(
        ExitCode.keyRefused,
        `The service refused the API key (HTTP ${outcome.httpStatus}); nothing was charged. Check TRANSCRIPT_API_KEY, then run the same command again.`,
      );
    case 'cancelled':
      return new CliExit(ExitCode.paused, 'The job was cancelled. Run the same command again to resume it.');
    case 'busy':
      return new CliExit(ExitCode.busy, outcome.message);
  }
}
