import { z } from 'zod';
import type { Database } from '../store';
import {
  creditsAfter,
  creditsByJob,
  creditsSince,
  creditsTotal,
  lastLedgerId,
  possibleCreditsTotal,
} from '../store/ledger';
import { readSetting } from '../store/queries/settings';
import { removeSetting, writeSetting } from '../store/settings';
import type { Clock } from '../api/types';
import type { CreditStatus } from './types';

const BALANCE_KEY = 'balance';
const LAST_402_KEY = 'last_402';

/** The balance the user entered, with a bookmark in the ledger to count what was spent since. */
const BalanceSchema = z.object({ credits: z.number().int(), ledgerMark: z.number().int(), at: z.string() });
const Last402Schema = z.object({ code: z.string(), meaning: z.string(), at: z.string() });

function readJson<T>(db: Database, key: string, schema: z.ZodType<T>): T | undefined {
  const text = readSetting(db, key);
  if (text === undefined) return undefined;
  const parsed = schema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : undefined;
}

export function recordLast402(db: Database, last402: z.infer<typeof Last402Schema>): void {
  writeSetting(db, LAST_402_KEY, JSON.stringify(last402));
}

/** The local midnight that starts the day of `now` (ms): where "today" starts for credits. */
export function startOfLocalDay(now: number): Date {
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  return midnight;
}

/**
 * The credit ledger as the user reads it: what was spent (today, in all, by job, possibly charged),
 * the last 402, and the balance the user entered with what is left of it. A service beside the
 * Engine, on the same database and clock: runs write the ledger's rows, this reads them and keeps
 * the balance.
 */
export class CreditLedger {
  readonly #db: Database;
  readonly #clock: Clock;

  constructor(deps: { db: Database; clock: Clock }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
  }

  /** "Today" starts at local midnight, by the clock. */
  status(): CreditStatus {
    const db = this.#db;
    const midnight = startOfLocalDay(this.#clock.now());
    const status: CreditStatus = {
      byJob: creditsByJob(db),
      today: creditsSince(db, midnight.toISOString()),
      total: creditsTotal(db),
      possible: possibleCreditsTotal(db),
    };
    const last402 = readJson(db, LAST_402_KEY, Last402Schema);
    if (last402 !== undefined) status.last402 = last402;
    const balance = readJson(db, BALANCE_KEY, BalanceSchema);
    if (balance !== undefined) {
      status.balance = balance.credits;
      status.estimatedRemaining = Math.max(0, balance.credits - creditsAfter(db, balance.ledgerMark));
    }
    return status;
  }

  /** Records the balance the user read on their account, from this point of the ledger; null forgets it. */
  setBalance(credits: number | null): void {
    const at = new Date(this.#clock.now()).toISOString();
    if (credits === null) removeSetting(this.#db, BALANCE_KEY);
    else
      writeSetting(
        this.#db,
        BALANCE_KEY,
        JSON.stringify({ credits, ledgerMark: lastLedgerId(this.#db), at }),
      );
  }
}
