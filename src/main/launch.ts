import { app } from 'electron';
import { runCli } from '../cli/run';

/** Resolves once what was written to `stream` has been handed to the system (a pipe may lag). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * Runs the CLI in this main process with the better-sqlite3 the app carries, then ends the process
 * with the CLI's exit code: no window, no single-instance lock (a cron job may run beside the open
 * app), and no display needed, for index.ts awaits this before Electron sets up any window system.
 */
export async function runCliThenExit(args: string[], nativeBinding: string | undefined): Promise<void> {
  const code = await runCli(args, {
    ...(nativeBinding !== undefined && { nativeBinding }),
    command: 'scriptorium',
  });
  await flushed(process.stdout);
  await flushed(process.stderr);
  app.exit(code);
}
