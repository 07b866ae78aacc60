/** The key holders' account: credits, plan and the charge ledger (one compact record per credit). */
import type { Charge } from './index';

export type Plan = 'grant' | 'paid' | 'paused';

export class Account {
  readonly #startingCredits: number;
  #credits: number;
  #plan: Plan = 'grant';
  #ledger: Charge[] = [];
  #chargesByVideo = new Map<string, number>();

  constructor(startingCredits: number) {
    this.#startingCredits = startingCredits;
    this.#credits = startingCredits;
  }

  get credits(): number {
    return this.#credits;
  }

  /** The plan whose 402 a paid request gets now, or null when it may be served. */
  paymentBlock(): Plan | null {
    if (this.#plan === 'paused') return 'paused';
    return this.#credits > 0 ? null : this.#plan;
  }

  /** Spends one credit for a 200 from a paid endpoint. */
  charge(entry: Omit<Charge, 'seq'>): void {
    this.#credits -= 1;
    this.#ledger.push({ seq: this.#ledger.length + 1, ...entry });
    if (entry.videoId !== undefined) {
      this.#chargesByVideo.set(entry.videoId, (this.#chargesByVideo.get(entry.videoId) ?? 0) + 1);
    }
  }

  ledger(): Charge[] {
    return this.#ledger.map((charge) => ({ ...charge }));
  }

  chargesFor(videoId: string): number {
    return this.#chargesByVideo.get(videoId) ?? 0;
  }

  /** Adds credits and moves to the paid plan (so running out again means E_PAYMENT_REQUIRED). */
  topUp(credits: number): void {
    if (!Number.isSafeInteger(credits) || credits < 0)
      throw new RangeError('topUp needs a whole number of credits >= 0');
    this.#credits += credits;
    this.#plan = 'paid';
  }

  /** Sets the credits left, the plan as it is. */
  setCredits(credits: number): void {
    if (!Number.isSafeInteger(credits) || credits < 0)
      throw new RangeError('setCredits needs a whole number of credits >= 0');
    this.#credits = credits;
  }

  setPlan(plan: Plan): void {
    this.#plan = plan;
  }

  reset(): void {
    this.#credits = this.#startingCredits;
    this.#plan = 'grant';
    this.#ledger = [];
    this.#chargesByVideo.clear();
  }
}
