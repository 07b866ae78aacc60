import { STOP_REASON } from '../../shared/vocabulary';
import type { StopCause } from './run-control';
import type { SpendingCap } from './types';

/**
 * Keeps a job within its credit budget, and a run within its cap (the daily credit limit's
 * remainder) when it has one. Invariant: spent + reserved <= each limit, where `reserved` counts paid
 * requests in flight, so concurrent requests cannot overshoot it together.
 */
export class CreditBudget {
  readonly #limit: number | undefined;
  /** The cap as a total of the job's credits, with what to say when it stops the run. */
  readonly #cap: (SpendingCap & { total: number }) | undefined;
  #spent: number;
  #reserved = 0;
  /** Who waits for every reserved request to settle (reserveOnceSettled). */
  readonly #onSettled: Array<() => void> = [];
  #refusedByCap = false;

  /**
   * `limit` undefined = no budget; `spent` = the job's credits so far (its ledger rows); `cap`: at
   * most that many more for this run.
   */
  constructor(limit: number | undefined, spent: number, cap?: SpendingCap) {
    this.#limit = limit;
    this.#spent = spent;
    this.#cap = cap === undefined ? undefined : { ...cap, total: spent + cap.credits };
  }

  /** Credits the job has spent, those possibly charged included. */
  get spent(): number {
    return this.#spent;
  }

  /** Claims one credit for a paid request about to start; false when it could exceed the budget or the cap. */
  reserve(): boolean {
    const next = this.#spent + this.#reserved + 1;
    if (this.#limit !== undefined && next > this.#limit) return false;
    if (this.#cap !== undefined && next > this.#cap.total) {
      this.#refusedByCap = true;
      return false;
    }
    this.#reserved++;
    return true;
  }

  /**
   * Claims one credit as reserve() does, but when the limit is reached while reserved requests are
   * still out, waits for them to settle first (one answered without a charge leaves its credit to
   * spend): a paid request waits for its record's commit before it is sent (paid-requests.ts), and
   * a run stopped for the budget meanwhile would leave such a credit unspent. False when there is
   * no room once nothing is reserved.
   */
  async reserveOnceSettled(): Promise<boolean> {
    while (!this.reserve()) {
      if (this.#reserved === 0) return false;
      await new Promise<void>((resolve) => this.#onSettled.push(resolve));
    }
    return true;
  }

  /** Why a refused reservation stops the run: the job's budget, or the cap, with its code and words. */
  stopCause(): Extract<StopCause, { kind: 'budget' }> {
    if (this.#refusedByCap && this.#cap !== undefined)
      return { kind: STOP_REASON.budget, code: this.#cap.code, message: this.#cap.message };
    return { kind: STOP_REASON.budget };
  }

  /** The reserved request is over; `charged` says whether it cost its credit. */
  settle(charged: boolean): void {
    this.#reserved--;
    if (charged) this.#spent++;
    if (this.#reserved === 0) for (const wake of this.#onSettled.splice(0)) wake();
  }
}
