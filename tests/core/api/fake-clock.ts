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

/**
 * A Clock for tests whose time moves only when advance() moves it, and whose sleeps end when it has
 * moved past them, as timers would: a schedule of hours runs in no time, and only when the test says.
 */
export class TimerClock implements Clock {
  #now: number;
  readonly #timers = new Set<{ at: number; resolve: () => void }>();

  constructor(start = Date.UTC(2030, 0, 1, 12)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** Moves time on by `ms`, ending every sleep due by then. */
  advance(ms: number): void {
    this.#now += ms;
    for (const timer of [...this.#timers]) {
      if (timer.at > this.#now) continue;
      this.#timers.delete(timer);
      timer.resolve();
    }
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = { at: this.#now + ms, resolve };
      this.#timers.add(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.#timers.delete(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }
}
