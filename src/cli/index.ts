import { toAppError } from '../core/app';
import { ContractError } from '../shared/contract-error';
import { CliExit, exitCodeFor } from './exit';
import { buildProgram } from './program';

// Entry point of bin/scriptorium: one process, commander parses and dispatches.
const program = buildProgram();
program.parseAsync(process.argv).then(
  () => undefined,
  (error: unknown) => {
    const { code, message } = describeFailure(error);
    if (message) process.stderr.write(`${message}\n`);
    process.exitCode = code;
  },
);

/**
 * Every non-zero exit ends with one plain-language line: what happened and what to do. Typed
 * errors from the contract (and from opening the data folder) take their exit code from one table.
 */
function describeFailure(error: unknown): { code: number; message: string } {
  if (error instanceof CliExit) return { code: error.code, message: error.message };
  const failure = error instanceof ContractError ? error : toAppError(error);
  return { code: exitCodeFor(failure.code), message: failure.message };
}
