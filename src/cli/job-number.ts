import { CliExit, ExitCode } from './exit';
import { ArgumentError, parseWholeNumber } from './job-options';

/** A job number given on the command line; anything else is exit 2, nothing sent. */
export function jobNumber(text: string): number {
  try {
    return parseWholeNumber('job', text, 1);
  } catch (error) {
    if (error instanceof ArgumentError)
      throw new CliExit(ExitCode.badInput, `${error.message} Nothing was sent.`);
    throw error;
  }
}
