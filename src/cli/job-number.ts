import { argumentOrExit } from './argument-error';
import { parseWholeNumber } from './job-options';

/** A job number given on the command line; anything else is exit 2, nothing sent. */
export function jobNumber(text: string): number {
  return argumentOrExit(() => parseWholeNumber('job', text, 1), ' Nothing was sent.');
}
