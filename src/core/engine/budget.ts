/**
 * Keeps a job within its credit budget. Invariant: spent + reserved <= limit, where `reserved`
 * counts paid requests in flight, so concurrent requests can never overshoot together.
 */
export class CreditBudget {
  readonly #limit: number | undefined;
  #spent: number;
  #reserved = 0;

  /** `limit` undefined = no budget; `spent` = the job's credits so far (its ledger rows). */
  constructor(limit: number | undefined, spent: number) {
    this.#limit = limit;
    this.#spent = spent;
  }

  /** Credits the job has spent, those possibly charged included. */
  get spent(): number {
    return this.#spent;
  }

  /** Claims one credit for a paid request about to start; false when it could exceed the budget. */
  reserve(): boolean {
    if (this.#limit !== undefined && this.#spent + this.#reserved + 1 > this.#limit) return false;
    this.#reserved++;
    return true;
  }

  /** The reserved request is over; `charged` says whether it cost its credit. */
  settle(charged: boolean): void {
    this.#reserved--;
    if (charged) this.#spent++;
  }
}
