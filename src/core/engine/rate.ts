import type { Clock } from '../api/types';

/** Width of one counting bucket in ms: the window slides by this step. */
const BUCKET_MS = 250;

/**
 * Items finished per second over the last `windowMs`, in fixed-size buckets so that memory
 * stays small at any throughput.
 */
export class SlidingRate {
  readonly #clock: Clock;
  readonly #windowMs: number;
  readonly #startedAt: number;
  /** [bucket start, count], oldest first. */
  #buckets: Array<[number, number]> = [];

  /** `windowMs` default 10 000. */
  constructor(clock: Clock, windowMs = 10_000) {
    this.#clock = clock;
    this.#windowMs = windowMs;
    this.#startedAt = clock.now();
  }

  /** One item finished now. */
  record(): void {
    const bucket = Math.floor(this.#clock.now() / BUCKET_MS) * BUCKET_MS;
    const last = this.#buckets.at(-1);
    if (last !== undefined && last[0] === bucket) last[1]++;
    else this.#buckets.push([bucket, 1]);
    this.#prune();
  }

  perSecond(): number {
    this.#prune();
    const now = this.#clock.now();
    // Early in a run the window is not full yet: divide by the time actually covered.
    const spanMs = Math.min(this.#windowMs, Math.max(now - this.#startedAt, BUCKET_MS));
    const count = this.#buckets.reduce((sum, [, n]) => sum + n, 0);
    return (count * 1000) / spanMs;
  }

  #prune(): void {
    const oldest = this.#clock.now() - this.#windowMs;
    while (this.#buckets.length > 0 && (this.#buckets[0]?.[0] ?? 0) + BUCKET_MS <= oldest)
      this.#buckets.shift();
  }
}
