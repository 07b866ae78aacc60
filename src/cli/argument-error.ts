import { CliExit, ExitCode } from './exit';

/** A problem with the command line itself: the command exits 2 with this message, nothing sent. */
export class ArgumentError extends Error {}

/**
 * What `read` returns from the command line, or exit 2 with the message of its ArgumentError
 * followed by `then` (" Nothing was sent." where the command would have sent something).
 */
export function argumentOrExit<T>(read: () => T, then = ''): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ArgumentError) throw new CliExit(ExitCode.badInput, `${error.message}${then}`);
    throw error;
  }
}
