import type { Clock } from '../api';
import type { Logger } from '../engine';
import { reportBackgroundFailure } from '../store';
import { plainWords } from './errors';

/** A job queued by another process is noticed within this time even without a wake-up. */
const IDLE_CHECK_MS = 5_000;

/**
 * A queued job that fails to start is tried again after this long, twice as long after each failure
 * in a row, and at most RETRY_MAX_MS later: a job that cannot start yet costs a line in the log now
 * and then, not a loop that retries it as fast as it fails.
 */
export const RETRY_FIRST_MS = 5_000;
export const RETRY_MAX_MS = 5 * 60_000;

export interface JobRunnerDeps {
  /** Queued jobs no process runs, longest waiting first. */
  queued(): number[];
  /** Runs one job to its end or its stop; throws when the job could not start. */
  run(jobId: number): Promise<void>;
  logger: Logger;
  /** Times the waits between looks and the back-off. */
  clock: Clock;
}

/**
 * Runs queued jobs in the process that holds the application (the desktop app, browser mode),
 * one at a time, oldest first. One at a time on purpose: the service's rate limit and the credits
 * belong to one key, so a second job in parallel would only split the same limit and make
 * spending harder to follow. Jobs left running by a process that stopped were queued again at
 * start-up (Engine.recover) and continue here. A job that fails to start waits out a back-off
 * while the others run.
 */
export class JobRunner {
  readonly #deps: JobRunnerDeps;
  /** Jobs that failed to start: how many times in a row, and when to try again. */
  readonly #backOff = new Map<number, { failures: number; retryAt: number }>();
  #stopped = false;
  #wake: AbortController | undefined;
  readonly #loop: Promise<void>;

  constructor(deps: JobRunnerDeps) {
    this.#deps = deps;
    this.#loop = this.#run();
  }

  /** A job may have been queued: look now. */
  wake(): void {
    this.#wake?.abort();
  }

  /** Takes no further job; resolves once the loop is over (the caller stops the job it runs). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.wake();
    await this.#loop;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      const queued = this.#deps.queued();
      this.#forgetUnqueued(queued);
      const now = this.#deps.clock.now();
      const next = queued.find((jobId) => (this.#backOff.get(jobId)?.retryAt ?? now) <= now);
      if (next === undefined) {
        await this.#idle(this.#untilNextRetry(now));
        continue;
      }
      try {
        await this.#deps.run(next);
        this.#backOff.delete(next);
      } catch (error) {
        const waitMs = this.#failed(next);
        const what = `Job ${next} could not run; it is tried again in ${Math.round(waitMs / 1000)} s`;
        reportBackgroundFailure(this.#deps.logger, what, error, plainWords(error));
      }
    }
  }

  /** Notes a failure to start; returns how long the job now waits. */
  #failed(jobId: number): number {
    const failures = (this.#backOff.get(jobId)?.failures ?? 0) + 1;
    const waitMs = Math.min(RETRY_FIRST_MS * 2 ** (failures - 1), RETRY_MAX_MS);
    this.#backOff.set(jobId, { failures, retryAt: this.#deps.clock.now() + waitMs });
    return waitMs;
  }

  /** A job no longer queued (started elsewhere, paused, deleted) starts afresh if queued again. */
  #forgetUnqueued(queued: readonly number[]): void {
    for (const jobId of this.#backOff.keys()) if (!queued.includes(jobId)) this.#backOff.delete(jobId);
  }

  #untilNextRetry(now: number): number {
    const retries = [...this.#backOff.values()].map((entry) => entry.retryAt - now);
    return Math.max(0, Math.min(IDLE_CHECK_MS, ...retries));
  }

  /** Waits `ms`, or until woken. */
  async #idle(ms: number): Promise<void> {
    const wake = new AbortController();
    this.#wake = wake;
    if (this.#stopped) return;
    await this.#deps.clock.sleep(ms, wake.signal).catch(() => undefined);
    this.#wake = undefined;
  }
}
