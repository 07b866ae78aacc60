import { setFlagsFromString } from 'node:v8';
import { dropOutputOnClosedPipe } from './closed-pipe';
import { describeFailure } from './failure';
import { setCliHost, type CliHost } from './host';
import { buildProgram } from './program';

/**
 * Runs the CLI on `args` (what follows the program's name) in this process, as bin/scriptorium does
 * under Node and the packaged desktop app does in its main process; resolves with the exit code.
 * Every non-zero exit has written its one line saying why on stderr.
 */
export async function runCli(args: readonly string[], host: CliHost = {}): Promise<number> {
  // A long job or export makes garbage at a steady pace, and V8 lets the heap grow to several times
  // what stays alive before it collects: growing it by 30% at a time keeps the command's memory flat
  // for about the same CPU (bench/RESULTS.md, figure 3).
  setFlagsFromString('--heap-growing-percent=30');
  setCliHost(host);
  dropOutputOnClosedPipe();
  try {
    await buildProgram().parseAsync([...args], { from: 'user' });
    return Number(process.exitCode ?? 0);
  } catch (error) {
    const { code, message } = describeFailure(error);
    if (message) process.stderr.write(`${message}\n`);
    return code;
  }
}
