/** Exit codes of PRODUCT.md's CLI contract; scripts depend on them. */
export const ExitCode = {
  exported: 0,
  /** Bad arguments or sources, or no key set; nothing was sent. */
  badInput: 2,
  /** Paused: credits ran out (402) or the budget was reached; state saved. */
  paused: 3,
  /** The key was refused (401 or 403); nothing charged. */
  keyRefused: 4,
  /** Exported, but some videos failed after every retry. */
  someFailed: 5,
  /**
   * Another Scriptorium process is running this job; nothing was done. PRODUCT.md names no
   * code for this case, so it takes the generic failure code.
   */
  busy: 1,
  /** Interrupted by SIGINT or SIGTERM; state saved. */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

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
