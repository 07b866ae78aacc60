import { setTimeout as sleep } from 'node:timers/promises';
import { claimOf, releaseClaim, writeClaim } from '../store/claims';
import { findTranscriptId, type TranscriptKey } from '../store/transcripts';
import { leaseIsFree } from './lease';
import type { RunContext } from './run-context';

/**
 * How long a claim holds: longer than any one request can take (three attempts, their timeouts and
 * the waits between them), so a live buyer never loses it; a dead buyer's claim is free at once.
 */
const CLAIM_MS = 10 * 60_000;
/** How often a job waiting for another job's purchase looks for its result. */
const POLL_MS = 200;

export type Claiming = { kind: 'cached'; transcriptId: number } | { kind: 'claimed' } | { kind: 'stopped' };

/**
 * Makes sure no two jobs (in this process or another on the same database) buy the same transcript:
 * returns the cached transcript when there is one, else a claim on buying it. While another live job
 * holds the claim, waits for its result; when it ends without one (a 404, a failure), claims it in turn.
 */
export async function claimTranscript(ctx: RunContext, key: TranscriptKey): Promise<Claiming> {
  for (;;) {
    const outcome = ctx.db
      .transaction((): Claiming | undefined => {
        const cached = findTranscriptId(ctx.db, key);
        if (cached !== undefined) return { kind: 'cached', transcriptId: cached };
        const now = ctx.clock.now();
        if (!leaseIsFree(claimOf(ctx.db, key) ?? null, ctx.claimOwner, now)) return undefined;
        writeClaim(ctx.db, key, { owner: ctx.claimOwner, expiresAt: now + CLAIM_MS });
        return { kind: 'claimed' };
      })
      .immediate();
    if (outcome !== undefined) return outcome;
    try {
      // A timer, not the injected clock: this waits for another buyer's I/O, not for time to pass.
      await sleep(POLL_MS, undefined, { signal: ctx.control.stopSignal });
    } catch {
      return { kind: 'stopped' };
    }
  }
}

/** Where a video stands before its request: stored already, bought by this run, or by another job now. */
export type BatchClaim = { kind: 'cached'; transcriptId: number } | { kind: 'claimed' } | { kind: 'held' };

/**
 * claimTranscript for a whole batch in one transaction, without waiting: a video another job is
 * buying right now comes back 'held', to be asked for again a little later.
 */
export function claimBatch(ctx: RunContext, keys: readonly TranscriptKey[]): BatchClaim[] {
  return ctx.db
    .transaction(() => {
      const now = ctx.clock.now();
      return keys.map((key): BatchClaim => {
        const cached = findTranscriptId(ctx.db, key);
        if (cached !== undefined) return { kind: 'cached', transcriptId: cached };
        if (!leaseIsFree(claimOf(ctx.db, key) ?? null, ctx.claimOwner, now)) return { kind: 'held' };
        writeClaim(ctx.db, key, { owner: ctx.claimOwner, expiresAt: now + CLAIM_MS });
        return { kind: 'claimed' };
      });
    })
    .immediate();
}

/** Gives up a claim without a result (the purchase did not happen or failed). */
export function releaseTranscriptClaim(ctx: RunContext, key: TranscriptKey): void {
  releaseClaim(ctx.db, key, ctx.claimOwner);
}
