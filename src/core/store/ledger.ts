import type { Database } from './database';
import { preparedFor } from './prepared';

/** One credit spent. */
export interface CreditSpent {
  jobId: number | null;
  endpoint: string;
  videoId?: string | null;
  sourceId?: number | null;
  requestId?: string | null;
  /** The request may or may not have been charged (it was sent and never answered). */
  possible?: boolean;
  /** Spent by an automatic sync (the desktop app's schedule, `sync --all`): the daily credit limit counts it. */
  automatic?: boolean;
  at: string;
}

const statements = preparedFor((db) => ({
  insert: db.prepare<
    [number | null, string, string | null, number | null, string | null, number, number, string]
  >(
    `INSERT INTO ledger (job_id, endpoint, video_id, source_id, request_id, possible, automatic, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  automaticSince: db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM ledger WHERE automatic = 1 AND at >= ?',
  ),
  possibleOfJob: db.prepare<[number], { n: number }>(
    'SELECT count(*) AS n FROM ledger WHERE job_id = ? AND possible = 1',
  ),
  possibleTotal: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM ledger WHERE possible = 1'),
  ofJob: db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM ledger WHERE job_id = ?'),
  byJob: db.prepare<[], { job_id: number; n: number }>(
    'SELECT job_id, count(*) AS n FROM ledger WHERE job_id IS NOT NULL GROUP BY job_id',
  ),
  since: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM ledger WHERE at >= ?'),
  total: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM ledger'),
  charged: db.prepare<[string | null, string, number]>(
    'UPDATE ledger SET possible = 0, request_id = ?, at = ? WHERE id = ?',
  ),
  stillPossible: db.prepare<[string, number]>('UPDATE ledger SET at = ? WHERE id = ?'),
  notCharged: db.prepare<[number]>('DELETE FROM ledger WHERE id = ?'),
  lastId: db.prepare<[], { id: number | null }>('SELECT max(id) AS id FROM ledger'),
  afterId: db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM ledger WHERE id > ?'),
}));

/** Records a credit spent (or possibly spent); returns its row's id. */
export function recordCredit(db: Database, credit: CreditSpent): number {
  return statements(db).insert.run(
    credit.jobId,
    credit.endpoint,
    credit.videoId ?? null,
    credit.sourceId ?? null,
    credit.requestId ?? null,
    Number(credit.possible ?? false),
    Number(credit.automatic ?? false),
    credit.at,
  ).lastInsertRowid as number;
}

/** What became of a paid request recorded as possibly charged before it was sent (recordCredit). */
export type RequestOutcome =
  | { charged: true; requestId: string | null; at: string }
  /** Sent and never answered: it stays possibly charged. */
  | { charged: 'possibly'; at: string }
  /** Answered without a charge (a 404, an error), or never sent: the row goes. */
  | { charged: false };

/** Settles the ledger row of a paid request with what became of it. */
export function settleCredit(db: Database, ledgerId: number, outcome: RequestOutcome): void {
  const s = statements(db);
  if (outcome.charged === true) s.charged.run(outcome.requestId, outcome.at, ledgerId);
  else if (outcome.charged === 'possibly') s.stillPossible.run(outcome.at, ledgerId);
  else s.notCharged.run(ledgerId);
}

/**
 * Counts below include possible credits: a job's budget and the user's estimate of what is left
 * must assume the worst. These say how many of them are only possible.
 */
export function possibleCreditsOfJob(db: Database, jobId: number): number {
  return statements(db).possibleOfJob.get(jobId)?.n ?? 0;
}

export function possibleCreditsTotal(db: Database): number {
  return statements(db).possibleTotal.get()?.n ?? 0;
}

export function creditsOfJob(db: Database, jobId: number): number {
  return statements(db).ofJob.get(jobId)?.n ?? 0;
}

export function creditsByJob(db: Database): Record<number, number> {
  const byJob: Record<number, number> = {};
  for (const row of statements(db).byJob.all()) byJob[row.job_id] = row.n;
  return byJob;
}

/** Credits spent at or after the ISO time `at`. */
export function creditsSince(db: Database, at: string): number {
  return statements(db).since.get(at)?.n ?? 0;
}

/** Credits automatic syncs spent at or after the ISO time `at`, possibly charged ones included. */
export function automaticCreditsSince(db: Database, at: string): number {
  return statements(db).automaticSince.get(at)?.n ?? 0;
}

export function creditsTotal(db: Database): number {
  return statements(db).total.get()?.n ?? 0;
}

/** The id of the newest ledger row, 0 when none; a bookmark for creditsAfter. */
export function lastLedgerId(db: Database): number {
  return statements(db).lastId.get()?.id ?? 0;
}

export function creditsAfter(db: Database, ledgerId: number): number {
  return statements(db).afterId.get(ledgerId)?.n ?? 0;
}
