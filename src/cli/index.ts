import { CliExit } from './exit';
import { buildProgram } from './program';

// Entry point of bin/scriptorium: one process, commander parses and dispatches.
const program = buildProgram();
program.parseAsync(process.argv).then(
  () => undefined,
  (error: unknown) => {
    if (error instanceof CliExit) {
      if (error.message) process.stderr.write(`${error.message}\n`);
      process.exitCode = error.code;
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`scriptorium: an unexpected error stopped the command: ${message}\n`);
    process.exitCode = 1;
  },
);
