/**
 * Whether a write failed because the reader of our output went away (`scriptorium search river |
 * head -1` closes the pipe after a line): a normal end of the output, not an error to report.
 */
export function isClosedPipe(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/**
 * Lets stdout's reader close early: what is left to print is dropped, and the command ends as it
 * would have (its exit code unchanged); any other failure of stdout is thrown as before.
 */
export function dropOutputOnClosedPipe(): void {
  // Once per process: runCli may run many times in one (the packaged app, tests).
  if (process.stdout.listeners('error').includes(throwUnlessClosedPipe)) return;
  process.stdout.on('error', throwUnlessClosedPipe);
}

function throwUnlessClosedPipe(error: unknown): void {
  if (!isClosedPipe(error)) throw error;
}
