/** Failures in a row, with no success between them, after which the service is taken to be down. */
export const FAILURES_IN_A_ROW = 10;

/**
 * Tells a service in trouble from a video in trouble: a run that sees only server errors or lost
 * answers, many in a row, stops with one clear message instead of marking every video failed. The
 * videos the streak failed with an answer (a 5xx, which costs nothing) failed only because the
 * service was down: the run gives them back to the queue as it stops (requeued()), so that the next
 * run of the same command asks for them again. A request that got no answer may have been charged,
 * and stays failed until the user asks (Retry failed).
 */
export class ServiceHealth {
  readonly #limit: number;
  #streak = 0;
  #answeredOnce = false;
  #lastTrouble = '';
  /** The videos of the streak whose request the service answered with a server error. */
  #answeredInStreak: number[] = [];

  constructor(limit = FAILURES_IN_A_ROW) {
    this.#limit = limit;
  }

  /** Any answer the service gave normally (a 200, a 404, a 402...) ends the streak. */
  answered(): void {
    this.#streak = 0;
    this.#answeredOnce = true;
    this.#answeredInStreak = [];
  }

  /**
   * One more failure that points at the service, in a few words ("HTTP 503 E_UNAVAILABLE"); `itemId`
   * for a video the service answered with a server error. Returns the message to stop the run with
   * once the streak is long enough, else undefined.
   */
  troubled(words: string, itemId?: number): string | undefined {
    this.#streak += 1;
    this.#lastTrouble = words;
    if (itemId !== undefined) this.#answeredInStreak.push(itemId);
    if (this.#streak < this.#limit) return undefined;
    return `The service failed ${this.#streak} requests in a row (the last: ${words}), so nothing more was sent`;
  }

  /**
   * At a run's end: the message to stop it with when the service failed every request it was sent
   * (a service answering 503 to its only list, say), which is down rather than done; else undefined.
   */
  failedEverything(): string | undefined {
    if (this.#answeredOnce || this.#streak === 0) return undefined;
    return `The service failed every request of this run (${this.#streak}; the last: ${this.#lastTrouble})`;
  }

  /** The videos to give back to the queue when the run stops because the service is down. */
  requeued(): readonly number[] {
    return this.#answeredInStreak;
  }
}
