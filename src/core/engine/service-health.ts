/** Failures in a row, with no success between them, after which the service is taken to be down. */
export const FAILURES_IN_A_ROW = 10;

/**
 * Tells a service in trouble from a video in trouble: a run that sees only server errors or lost
 * answers, many in a row, stops with one clear message instead of marking every video failed.
 */
export class ServiceHealth {
  readonly #limit: number;
  #streak = 0;
  #answeredOnce = false;
  #lastTrouble = '';

  constructor(limit = FAILURES_IN_A_ROW) {
    this.#limit = limit;
  }

  /** Any answer the service gave normally (a 200, a 404, a 402...) ends the streak. */
  answered(): void {
    this.#streak = 0;
    this.#answeredOnce = true;
  }

  /**
   * One more failure that points at the service; returns the message to stop the run with once the
   * streak is long enough, else undefined.
   */
  troubled(message: string): string | undefined {
    this.#streak += 1;
    this.#lastTrouble = message;
    if (this.#streak < this.#limit) return undefined;
    return `The service failed ${this.#streak} requests in a row (the last: ${message}). Nothing more was sent; try again later`;
  }

  /**
   * At a run's end: the message to stop it with when the service failed every request it was sent
   * (a service answering 503 to its only list, say), which is down rather than done; else undefined.
   */
  failedEverything(): string | undefined {
    if (this.#answeredOnce || this.#streak === 0) return undefined;
    return `The service failed every request of this run (${this.#streak}; the last: ${this.#lastTrouble}). Try again later`;
  }
}
