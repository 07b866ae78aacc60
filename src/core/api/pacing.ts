import type { Clock, RateLimitSignal } from './types';

/**
 * Fraction of the reported remaining budget kept in reserve: by the time a rate-limit
 * signal is read, other requests are already in flight and will spend part of it.
 */
const RESERVE_FRACTION = 0.05;

export interface PacerOptions {
  /** Time source for spacing and waiting. */
  clock: Clock;
}

/**
 * Spreads the remaining rate-limit budget over the rest of the window, so that the
 * engine slows down before the service has to answer 429.
 *
 * Each wait() claims the next free slot: slots are spaced `window / remaining` apart,
 * counted from the previous slot, so concurrent callers queue up one after another.
 */
export class Pacer {
  readonly #clock: Clock;
  #latest: RateLimitSignal | undefined;
  /** Clock time (ms) of the last slot handed out. */
  #lastSlot = Number.NEGATIVE_INFINITY;

  constructor(options: PacerOptions) {
    this.#clock = options.clock;
  }

  /** Records the rate-limit headers of the latest response. */
  observe(signal: RateLimitSignal): void {
    this.#latest = signal;
  }

  /**
   * Resolves when the next request may be sent; at once when no signal was ever observed
   * or its window is over. Rejects with the abort reason when `signal` aborts.
   */
  async wait(signal?: AbortSignal): Promise<void> {
    const now = this.#clock.now();
    const slot = this.#nextSlot(now);
    if (slot === undefined) return;
    this.#lastSlot = slot;
    if (slot > now) await this.#clock.sleep(slot - now, signal);
  }

  /** The earliest time the next request may go, or undefined when nothing limits it. */
  #nextSlot(now: number): number | undefined {
    const latest = this.#latest;
    if (latest === undefined) return undefined;
    const windowEnd = latest.observedAt + latest.resetSeconds * 1000;
    if (now >= windowEnd) return undefined;
    // Nothing left in this window: everything waits for the reset.
    if (latest.remaining <= 0) return windowEnd;
    const usable = Math.max(latest.remaining * (1 - RESERVE_FRACTION), 1);
    const spacing = (latest.resetSeconds * 1000) / usable;
    return Math.max(now, this.#lastSlot + spacing);
  }
}
