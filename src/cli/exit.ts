import type { ErrorCode } from '../shared/errors';

/** Exit codes of the CLI contract (docs/product.md, listed in the README); scripts depend on them. */
export const ExitCode = {
  exported: 0,
  /** Something that should not happen did (a bug); progress is saved. */
  internal: 1,
  /** `search` only, as grep: nothing matched. */
  nothingFound: 1,
  /** Bad arguments or sources, or no key set; nothing was sent. */
  badInput: 2,
  /** Paused: credits ran out (402) or the budget was reached; state saved, ZIP of what was bought written. */
  paused: 3,
  /** The key was refused (401 or 403); nothing charged. */
  keyRefused: 4,
  /** Exported, but some videos failed or a source could not be walked. */
  someFailed: 5,
  /** The service cannot be reached, keeps failing, or asked to wait too long; state saved. */
  serviceUnavailable: 6,
  /** Another Scriptorium process is running this job, or another program holds the database locked; nothing was done. */
  busy: 7,
  /** The disk is full, or the data folder cannot be used; state saved as far as it could be. */
  storage: 8,
  /** Interrupted by SIGINT or SIGTERM; state saved. */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** The one place where the typed errors of src/shared/errors.ts become exit codes. */
const EXIT_FOR_ERROR: Record<ErrorCode, ExitCodeValue> = {
  invalid_input: ExitCode.badInput,
  no_key: ExitCode.badInput,
  output_refused: ExitCode.badInput,
  job_not_found: ExitCode.badInput,
  key_refused: ExitCode.keyRefused,
  credits_ran_out: ExitCode.paused,
  budget_reached: ExitCode.paused,
  service_unavailable: ExitCode.serviceUnavailable,
  job_busy: ExitCode.busy,
  job_running: ExitCode.busy,
  database_locked: ExitCode.busy,
  disk_full: ExitCode.storage,
  data_folder_unusable: ExitCode.storage,
  interrupted: ExitCode.interrupted,
  internal: ExitCode.internal,
  // Never in the CLI, which runs the app in its own process: were one to reach it, it would be a bug.
  unreachable: ExitCode.internal,
  access_refused: ExitCode.internal,
};

export function exitCodeFor(code: ErrorCode): ExitCodeValue {
  return EXIT_FOR_ERROR[code];
}

/**
 * Thrown by a command to end the process with a contract exit code. The message is the one
 * plain-language line the user reads last: what happened and what to do next.
 */
export class CliExit extends Error {
  constructor(
    readonly code: ExitCodeValue,
    message: string,
  ) {
    super(message);
    this.name = 'CliExit';
  }
}
