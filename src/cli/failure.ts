import { toAppError } from '../core/app';
import { ContractError } from '../shared/contract-error';
import { CliExit, exitCodeFor, type ExitCodeValue } from './exit';

/**
 * Every non-zero exit ends with one plain-language line: what happened and what to do. Typed errors
 * (from the contract, or from opening the data folder before it) take their exit code from one table.
 */
export function describeFailure(error: unknown): { code: ExitCodeValue; message: string } {
  if (error instanceof CliExit) return { code: error.code, message: error.message };
  const failure = error instanceof ContractError ? error : toAppError(error);
  const hint =
    failure.code === 'data_folder_unusable' && !failure.message.includes('--data-dir')
      ? " The CLI's data folder is set with --data-dir or SCRIPTORIUM_DATA_DIR."
      : '';
  return { code: exitCodeFor(failure.code), message: `${failure.message}${hint}` };
}
