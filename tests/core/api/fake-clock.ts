import type { Clock } from '../../../src/core/api';

/**
 * A Clock for tests: time stands still unless advance() moves it, and sleep() records the
 * requested duration and resolves at once. With holdSleeps set, sleeps resolve only when aborted.
 */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  holdSleeps = false;
  #now: number;

  constructor(start = Date.UTC(2030, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      if (!this.holdSleeps) resolve();
    });
  }
}
