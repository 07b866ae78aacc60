/**
 * The real `bin/scriptorium` as a child process (built out/cli), on the model's clock
 * (clock-preload.mjs): for the steps the in-process CLI cannot take, a signal to the process at a
 * point an event chooses (the simulator's k-th request, a line on stderr) and a second process.
 * Nothing here waits on time: every wait ends on an event.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLOCK_PRELOAD, modelClock } from './clock';

const CLI = fileURLToPath(new URL('../../bin/scriptorium', import.meta.url));

export interface Exited {
  /** The exit code, or 128 + the signal's number for a process a signal ended (137 for SIGKILL). */
  code: number;
  stdout: string;
  stderr: string;
}

const SIGNAL_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGKILL: 137, SIGTERM: 143 };

export class CliProcess {
  readonly #child: ChildProcess;
  readonly done: Promise<Exited>;
  #stderr = '';
  #stdout = '';
  readonly #waits: Array<{ text: string; resolve: () => void }> = [];

  constructor(args: readonly string[], env: Record<string, string>) {
    this.#child = spawn(process.execPath, ['--import', CLOCK_PRELOAD, CLI, ...args], {
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env, ...modelClock.env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child.stdout?.on('data', (chunk: Buffer) => (this.#stdout += chunk.toString()));
    this.#child.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr += chunk.toString();
      for (const wait of [...this.#waits]) {
        if (!this.#stderr.includes(wait.text)) continue;
        this.#waits.splice(this.#waits.indexOf(wait), 1);
        wait.resolve();
      }
    });
    this.done = new Promise((resolve) => {
      this.#child.on('close', (code, signal) => {
        for (const wait of this.#waits.splice(0)) wait.resolve();
        resolve({
          code: code ?? (signal === null ? 1 : (SIGNAL_CODES[signal] ?? 128)),
          stdout: this.#stdout,
          stderr: this.#stderr,
        });
      });
    });
  }

  /** Resolves once stderr holds `text`, or the process has ended. */
  printed(text: string): Promise<void> {
    if (this.#stderr.includes(text)) return Promise.resolve();
    return new Promise((resolve) => this.#waits.push({ text, resolve }));
  }

  signal(signal: NodeJS.Signals): void {
    this.#child.kill(signal);
  }

  /** The last line a non-zero exit printed (the CLI's plain-language reason). */
  static lastLine(exited: Exited): string {
    return exited.stderr.trim().split('\n').at(-1) ?? '';
  }
}
