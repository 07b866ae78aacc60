import type { RunOutcomeView } from '../shared/contract';
import { CliExit, ExitCode } from './exit';

/**
 * Turns a run that did not complete into the contract's exit code and the one line the user
 * reads last: what happened and what to do next.
 */
export function exitForUnfinishedRun(
  outcome: Exclude<RunOutcomeView, { status: 'completed' }>,
  budget: number | null,
): CliExit {
  switch (outcome.status) {
    case 'waiting_credits':
      return new CliExit(
        ExitCode.paused,
        `Paused: ${outcome.meaning} (${outcome.code}). Progress is saved; run the same command again afterwards to continue.`,
      );
    case 'paused':
      switch (outcome.reason) {
        case 'budget':
          return new CliExit(
            ExitCode.paused,
            `Paused: this job has spent its budget${budget === null ? '' : ` of ${budget} credits`}. Run the same command with a larger --budget to continue.`,
          );
        case 'interrupted':
        case 'shutdown':
          return new CliExit(
            ExitCode.interrupted,
            'Interrupted: progress is saved. Run the same command again to continue.',
          );
        case 'service':
          return new CliExit(
            ExitCode.serviceUnavailable,
            `Paused: ${outcome.message ?? 'the service cannot be used right now'}. Progress is saved; run the same command again later to continue.`,
          );
        case 'user':
          return new CliExit(
            ExitCode.paused,
            'Paused: the job was paused. Run the same command again to continue.',
          );
      }
      break;
    case 'failed':
      return new CliExit(
        ExitCode.keyRefused,
        `The service refused the API key (HTTP ${outcome.httpStatus}); nothing was charged. Check TRANSCRIPT_API_KEY, then run the same command again.`,
      );
    case 'cancelled':
      return new CliExit(ExitCode.paused, 'The job was cancelled. Run the same command again to resume it.');
  }
  return new CliExit(
    ExitCode.internal,
    'The job stopped for a reason Scriptorium does not know. Please report this.',
  );
}
