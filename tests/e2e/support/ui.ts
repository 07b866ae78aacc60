import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from '../../support/cli';

export interface RunningUi {
  /** The one address `scriptorium ui` prints, carrying its token. */
  url: string;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** What it printed so far, stdout and stderr together. */
  output(): string;
  stop(): Promise<void>;
}

export interface UiOptions {
  dataDir: string;
  /** --base-url; left out, the address comes from Settings. */
  baseUrl?: string;
  /** TRANSCRIPT_API_KEY; left out, the key is entered in Settings. */
  key?: string;
}

const STARTUP_MS = 15_000;

/** Starts `bin/scriptorium ui --no-open --port 0` as a user would, and waits for its address. */
export async function startUi(options: UiOptions): Promise<RunningUi> {
  const args = ['ui', '--no-open', '--port', '0', '--data-dir', options.dataDir];
  if (options.baseUrl !== undefined) args.push('--base-url', options.baseUrl);
  const child = spawn(process.execPath, [CLI, ...args], {
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      // The dispatcher checks every answer against the contract (core/app/dispatch.ts).
      NODE_ENV: 'test',
      ...(options.key !== undefined && { TRANSCRIPT_API_KEY: options.key }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await addressOf(child);
  return { url, origin: new URL(url).origin, output: () => output, stop: () => stopChild(child) };
}

function addressOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    const timer = setTimeout(
      () => fail(new Error(`scriptorium ui printed no address: ${stdout}${stderr}`)),
      STARTUP_MS,
    );
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Scriptorium is open at (\S+)/.exec(stdout);
      if (match?.[1] !== undefined && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => fail(new Error(`scriptorium ui exited (${code}): ${stdout}${stderr}`)));
  });
}

/** SIGTERM, as Ctrl+C would; a process that does not stop within 10 s is killed. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
