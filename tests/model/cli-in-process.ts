/**
 * Runs `scriptorium` commands in this process, as bin/scriptorium runs them (the same commander
 * program, the same contract over a fresh app per command), without a process per step: the model
 * runs hundreds of commands. Output is captured, and the exit is the one the CLI would give.
 */
import { buildProgram } from '../../src/cli/program';
import { describeFailure } from '../../src/cli/failure';

export interface CommandResult {
  code: number;
  stdout: string;
  /** The last line a non-zero exit prints. */
  message: string;
}

/** Runs one command line; the key comes from TRANSCRIPT_API_KEY, as for the real CLI. */
export async function runCommand(args: readonly string[]): Promise<CommandResult> {
  const writes: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const writeError = process.stderr.write.bind(process.stderr);
  // The progress bar and the plan go to stderr, the summary to stdout: both kept out of the test's log.
  process.stdout.write = ((chunk: string | Uint8Array) => {
    writes.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  process.exitCode = undefined;
  try {
    await buildProgram().parseAsync(['node', 'scriptorium', ...args]);
    // A command may end by setting the exit code rather than throwing (search with no hit: 1).
    return { code: Number(process.exitCode ?? 0), stdout: writes.join(''), message: '' };
  } catch (error) {
    const { code, message } = describeFailure(error);
    return { code, stdout: writes.join(''), message };
  } finally {
    process.exitCode = undefined;
    process.stdout.write = write;
    process.stderr.write = writeError;
  }
}
