import { setFlagsFromString } from 'node:v8';
import { dropOutputOnClosedPipe } from './closed-pipe';
import { describeFailure } from './failure';
import { buildProgram } from './program';

// A long job or export makes garbage at a steady pace, and V8 lets the heap grow to several times
// what stays alive before it collects: growing it by 30% at a time keeps the command's memory flat
// for about the same CPU (bench/RESULTS.md, figure 3).
setFlagsFromString('--heap-growing-percent=30');

// Entry point of bin/scriptorium: one process, commander parses and dispatches.
dropOutputOnClosedPipe();
const program = buildProgram();
program.parseAsync(process.argv).then(
  () => undefined,
  (error: unknown) => {
    const { code, message } = describeFailure(error);
    if (message) process.stderr.write(`${message}\n`);
    process.exitCode = code;
  },
);
