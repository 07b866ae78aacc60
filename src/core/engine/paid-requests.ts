import { recordCredit, settleCredit, type CreditSpent, type RequestOutcome } from '../store/ledger';
import type { RunContext } from './run-context';

/**
 * A paid request is in the ledger, as possibly charged, before it is sent: it is recorded in the
 * run's next group commit (result-writer.ts, with the results of the requests before it) and sent
 * only once that has committed, then settled with its outcome in the transaction that records the
 * outcome (charged, still possible, or not charged: its row goes). So after a kill at any instant,
 * even between the service's charge and the commit of its answer, the credits spent and possibly
 * charged are never fewer than the service charged (docs/product.md, "The interrupt rule").
 */

/** What a paid request is about to buy: its endpoint, and the video or the list. */
export type PaidRequest = Pick<CreditSpent, 'endpoint' | 'videoId' | 'sourceId'>;

/** Records `request` as possibly charged; resolves with its ledger row once that is on the disk. */
export function recordBeforeSending(ctx: RunContext, request: PaidRequest): Promise<number> {
  return ctx.writer.written(() =>
    recordCredit(ctx.db, {
      jobId: ctx.jobId,
      ...request,
      possible: true,
      automatic: ctx.automatic,
      at: ctx.now(),
    }),
  );
}

/** Settles the request's row with its outcome; call it in the transaction that records the outcome. */
export function settlePaidRequest(ctx: RunContext, ledgerId: number, outcome: RequestOutcome): void {
  settleCredit(ctx.db, ledgerId, outcome);
}

/** The request was never sent, or was answered free: its row goes, with the run's next group. */
export function dropPaidRequest(ctx: RunContext, ledgerId: number): void {
  ctx.writer.add({
    write: () => settleCredit(ctx.db, ledgerId, { charged: false }),
    announce: () => undefined,
  });
}
