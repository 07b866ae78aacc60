import type { Clock } from '../api/types';

export interface ThrottleOptions {
  /** Time source; the trailing emission waits with clock.sleep. */
  clock: Clock;
  /** Least time between two emissions in ms. Default 100 (at most ten a second). */
  intervalMs?: number;
}

/**
 * Turns a stream of "something changed" pokes into at most one emission per interval: the
 * first poke after a quiet interval emits at once, later ones are folded into one emission at
 * the end of the interval, so the last state is always shown.
 */
export class Throttle {
  readonly #emit: () => void;
  readonly #clock: Clock;
  readonly #intervalMs: number;
  #lastAt = Number.NEGATIVE_INFINITY;
  /** Cancels the scheduled trailing emission; set while one is scheduled. */
  #pending: AbortController | undefined;
  #disposed = false;

  constructor(emit: () => void, options: ThrottleOptions) {
    this.#emit = emit;
    this.#clock = options.clock;
    this.#intervalMs = options.intervalMs ?? 100;
  }

  /** Something changed: emit now when the interval allows, else once when it ends. */
  poke(): void {
    if (this.#disposed || this.#pending !== undefined) return;
    this.#emitWhenDue();
  }

  /** Emits now whatever the interval (a run's final state), replacing any scheduled emission. */
  flush(): void {
    if (this.#disposed) return;
    this.#cancelPending();
    this.#emitNow();
  }

  /** Stops all emissions, scheduled ones included. */
  dispose(): void {
    this.#disposed = true;
    this.#cancelPending();
  }

  #cancelPending(): void {
    this.#pending?.abort();
    this.#pending = undefined;
  }

  /** Emits now if the interval has passed, else sleeps until it has; a sleep that ends early sleeps again. */
  #emitWhenDue(): void {
    const wait = this.#lastAt + this.#intervalMs - this.#clock.now();
    if (wait <= 0) {
      this.#emitNow();
      return;
    }
    const pending = new AbortController();
    this.#pending = pending;
    this.#clock.sleep(wait, pending.signal).then(
      () => {
        if (this.#pending !== pending) return;
        this.#pending = undefined;
        if (!this.#disposed) this.#emitWhenDue();
      },
      () => undefined, // cancelled by flush() or dispose()
    );
  }

  #emitNow(): void {
    try {
      this.#emit();
    } finally {
      // Counted from the end of the emission, so that listeners, however slow, hear of changes at
      // least an interval apart.
      this.#lastAt = this.#clock.now();
    }
  }
}
