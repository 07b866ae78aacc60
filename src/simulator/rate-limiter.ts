/** A fixed-window request limit per key: a window opens at a key's first request and lasts windowMs. */

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets, at least 1. */
  resetSeconds: number;
}

export class FixedWindowLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  #windows = new Map<string, { startedAt: number; used: number }>();

  constructor(limit: number, windowMs: number) {
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  /** Counts one request of `key` at time `now` (ms) unless the window is already used up. */
  take(key: string, now: number): RateDecision {
    let window = this.#windows.get(key);
    if (!window || now - window.startedAt >= this.#windowMs) {
      window = { startedAt: now, used: 0 };
      this.#windows.set(key, window);
    }
    const allowed = window.used < this.#limit;
    if (allowed) window.used += 1;
    const resetSeconds = Math.max(1, Math.ceil((window.startedAt + this.#windowMs - now) / 1000));
    return { allowed, limit: this.#limit, remaining: this.#limit - window.used, resetSeconds };
  }

  clear(): void {
    this.#windows.clear();
  }
}
