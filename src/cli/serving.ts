import { CliExit, ExitCode } from './exit';

/** Resolves on the first SIGINT or SIGTERM: how `sim` and `ui` serve until the user stops them. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** A server's failure to listen on `port` as exit 2 when the port is taken or not allowed; else as it is. */
export function listenFailure(error: unknown, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'EADDRINUSE' && code !== 'EACCES') return error;
  return new CliExit(
    ExitCode.badInput,
    `Port ${port} is not available; choose another with --port (0 picks a free one).`,
  );
}
