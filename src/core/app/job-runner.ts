import type { Logger } from '../engine';

/** A job queued by another process is noticed within this time even without a wake-up. */
const IDLE_CHECK_MS = 5_000;

export interface JobRunnerDeps {
  /** Queued jobs no process runs, longest waiting first. */
  queued(): number[];
  /** Runs one job to its end or its stop. */
  run(jobId: number): Promise<void>;
  logger: Logger;
}

/**
 * Runs queued jobs in the process that holds the application (the desktop app, browser mode),
 * one at a time, oldest first. One at a time on purpose: the service's rate limit and the credits
 * belong to one key, so a second job in parallel would only split the same limit and make
 * spending harder to follow. Jobs left running by a process that stopped were queued again at
 * start-up (Engine.recover) and continue here.
 */
export class JobRunner {
  readonly #deps: JobRunnerDeps;
  #stopped = false;
  #wake: (() => void) | undefined;
  readonly #loop: Promise<void>;

  constructor(deps: JobRunnerDeps) {
    this.#deps = deps;
    this.#loop = this.#run();
  }

  /** A job may have been queued: look now. */
  wake(): void {
    this.#wake?.();
  }

  /** Takes no further job; resolves once the loop is over (the caller stops the job it runs). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.wake();
    await this.#loop;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      const [next] = this.#deps.queued();
      if (next === undefined) {
        await this.#idle();
        continue;
      }
      try {
        await this.#deps.run(next);
      } catch (error) {
        this.#deps.logger.warn(`Job ${next} stopped on an unexpected error.`, error);
      }
    }
  }

  #idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, IDLE_CHECK_MS).unref();
      this.#wake = done;
    });
  }
}
