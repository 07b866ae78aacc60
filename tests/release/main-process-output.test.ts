import { describe, expect, it } from 'vitest';
import { mainProcessProblems } from './main-process-output';

// The release test's reading of the installed app's stderr (new-user.spec.ts).

describe("the main process's output, as the release test reads it", () => {
  it("passes over Chromium's own log lines and the inspector's banner", () => {
    const stderr = [
      'Debugger listening on ws://127.0.0.1:40123/2f1c6f0e-0000-4000-8000-000000000000',
      'For help, see: https://nodejs.org/en/docs/inspector',
      'Debugger attached.',
      '[4321:1128/101502.123456:ERROR:bus.cc(407)] Failed to connect to the bus: Could not parse server address',
      '[4321:1128/101502.223456:WARNING:viz_main_impl.cc(85)] VizNullHypothesis is disabled',
      '',
    ].join('\n');
    expect(mainProcessProblems(stderr)).toEqual([]);
  });

  it("keeps the app's warnings and errors, Node's warnings and uncaught errors", () => {
    const stderr = [
      '[4321:1128/101502.123456:ERROR:bus.cc(407)] Failed to connect to the bus',
      'Scriptorium could not start the checkpoint worker: Error: Cannot find module',
      '(node:4321) Warning: Closing file descriptor 23 on garbage collection',
      'Uncaught Exception:',
      'Error: The module was compiled against a different Node.js version',
    ].join('\r\n');
    expect(mainProcessProblems(stderr)).toEqual([
      'Scriptorium could not start the checkpoint worker: Error: Cannot find module',
      '(node:4321) Warning: Closing file descriptor 23 on garbage collection',
      'Uncaught Exception:',
      'Error: The module was compiled against a different Node.js version',
    ]);
  });
});
