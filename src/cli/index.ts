import { describeFailure } from './failure';
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
