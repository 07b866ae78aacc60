import PQueue from 'p-queue';
import { isApiError } from '../api/errors';
import type { ApiResponse, Transcript } from '../api/types';
import {
  finishItem,
  markFetching,
  pendingItemsAfter,
  returnToPending,
  type FinalItemStatus,
  type PendingItem,
} from '../store/items';
import { recordCredit } from '../store/ledger';
import { storeTranscript, type TranscriptKey } from '../store/transcripts';
import { releaseClaim } from '../store/claims';
import { claimTranscript, releaseTranscriptClaim } from './claims';
import { classifyFailure, isServiceTrouble } from './failures';
import type { RunContext } from './run-context';
import { cacheLang, requestLang } from './spec';

/**
 * Fetches the job's pending items while the walk adds more. Items are read from the database a
 * few at a time (never the whole job) and run through a p-queue of `ctx.concurrency` slots.
 * Resolves when the walk is over and no pending item is left, or when the run stops and the
 * requests in flight have settled.
 */
export async function fetchItems(ctx: RunContext, walkFinished: () => boolean): Promise<void> {
  const queue = new PQueue({ concurrency: ctx.concurrency });
  // Items are appended with growing ids, so a cursor on the id never hands out one twice.
  let afterId = 0;
  while (!ctx.control.stopped) {
    // Read the flag before the query: a walk that ended earlier has written all its items.
    const walkWasFinished = walkFinished();
    const batch = pendingItemsAfter(ctx.db, ctx.jobId, afterId, ctx.concurrency);
    if (batch.length === 0) {
      if (walkWasFinished) break;
      await ctx.control.changed();
      continue;
    }
    for (const item of batch) {
      afterId = item.id;
      void queue.add(() =>
        fetchItem(ctx, item).catch((error: unknown) => ctx.control.stop({ kind: 'error', error })),
      );
    }
    // Wait until every queued item has started, so at most `concurrency` wait in memory. Once
    // the run stops, queued items start and return at once, so this never hangs.
    await queue.onEmpty();
  }
  if (ctx.control.stopped) queue.clear();
  await queue.onIdle();
}

/** Where one video's fetch ended, before it is written. */
interface Finish {
  status: FinalItemStatus;
  attempts: number;
  transcriptId?: number;
  httpStatus?: number | null;
  code?: string | null;
  message?: string;
  /** The failed request still cost a credit (an unreadable 200). */
  charged?: boolean;
  /** The request may have been charged (sent, never answered). */
  possiblyCharged?: boolean;
  requestId?: string | null;
}

/**
 * One video: for each language of the preference list, the cached transcript when there is one
 * (free), else a request; a 404 moves on to the next language. No two jobs buy the same
 * transcript at once (claimTranscript). Every outcome is written in one transaction with what it
 * cost and the release of the claim.
 */
async function fetchItem(ctx: RunContext, item: PendingItem): Promise<void> {
  const { db, options } = ctx;
  let inFlight = false; // the item is marked 'fetching' in the database
  let settled = false;
  let attempts = 0;
  let claimed: TranscriptKey | undefined;
  try {
    for (const [index, lang] of options.langs.entries()) {
      if (ctx.control.stopped) return;
      const key: TranscriptKey = {
        videoId: item.videoId,
        requestedLang: cacheLang(lang),
        includeTimestamp: options.includeTimestamp,
        sendMetadata: options.sendMetadata,
      };
      const claim = await claimTranscript(ctx, key);
      if (claim.kind === 'stopped') return;
      if (claim.kind === 'cached') {
        finish(ctx, item, { status: 'ok', attempts, transcriptId: claim.transcriptId });
        settled = true;
        announce(ctx, item, 'ok', false);
        return;
      }
      claimed = key;
      if (ctx.control.stopped) return;
      if (!ctx.budget.reserve()) {
        ctx.control.stop({ kind: 'budget' });
        return;
      }
      if (!inFlight) {
        markFetching(db, item.id, ctx.now());
        inFlight = true;
        ctx.emit('item', { jobId: ctx.jobId, itemId: item.id, videoId: item.videoId, status: 'fetching' });
      }
      let response: ApiResponse<Transcript>;
      try {
        await ctx.pacer?.wait(ctx.control.stopSignal);
        response = await ctx.client.transcript(
          {
            video: item.videoId,
            lang: requestLang(lang),
            includeTimestamp: options.includeTimestamp,
            sendMetadata: options.sendMetadata,
          },
          ctx.call,
        );
      } catch (error) {
        ctx.budget.settle(isApiError(error) && (error.charged || error.possiblyCharged));
        const failure = classifyFailure(error, ctx.control.stopSignal);
        if (failure.kind !== 'aborted' && !isServiceTrouble(failure)) ctx.health.answered();
        switch (failure.kind) {
          case 'aborted':
            attempts += failure.attempts;
            return;
          case 'credits':
          case 'auth':
          case 'service':
            ctx.control.stop(failure);
            return;
          case 'not_found':
            attempts += failure.attempts;
            releaseTranscriptClaim(ctx, key);
            claimed = undefined;
            if (index < options.langs.length - 1) continue; // free: try the next language
            finish(ctx, item, { ...failure, status: 'unavailable', attempts });
            settled = true;
            announce(ctx, item, 'unavailable', false);
            return;
          case 'uncertain':
            attempts += failure.attempts;
            finish(ctx, item, {
              status: 'failed',
              attempts,
              message: failure.message,
              possiblyCharged: true,
            });
            settled = true;
            announce(ctx, item, 'failed', true);
            noteServiceTrouble(ctx, failure.message);
            return;
          case 'failed':
            attempts += failure.attempts;
            finish(ctx, item, { ...failure, status: 'failed', attempts });
            settled = true;
            announce(ctx, item, 'failed', failure.charged);
            if (isServiceTrouble(failure)) noteServiceTrouble(ctx, failure.message);
            return;
        }
      }
      ctx.budget.settle(response.charged);
      ctx.health.answered();
      attempts += response.attempts;
      storeFetched(ctx, item, key, response, attempts);
      claimed = undefined;
      settled = true;
      announce(ctx, item, 'ok', response.charged);
      return;
    }
  } finally {
    // Stopped, aborted, refused or crashed while in flight: the item waits for the next run.
    if (inFlight && !settled) returnToPending(db, item.id, attempts, ctx.now());
    if (claimed !== undefined) releaseTranscriptClaim(ctx, claimed);
  }
}

/** A failure that points at the service: stop the run once there are too many in a row. */
function noteServiceTrouble(ctx: RunContext, message: string): void {
  const down = ctx.health.troubled(message);
  if (down !== undefined) ctx.control.stop({ kind: 'service', message: down });
}

/** Writes where the item's fetch ended, with the credit it cost (or may have cost), in one transaction. */
function finish(ctx: RunContext, item: PendingItem, result: Finish): void {
  const at = ctx.now();
  ctx.db
    .transaction(() => {
      finishItem(ctx.db, item.id, {
        status: result.status,
        attempts: result.attempts,
        httpStatus: result.httpStatus ?? null,
        code: result.code ?? null,
        message: result.message ?? null,
        transcriptId: result.transcriptId ?? null,
        at,
      });
      if (result.charged || result.possiblyCharged) {
        recordCredit(ctx.db, {
          jobId: ctx.jobId,
          endpoint: 'transcript',
          videoId: item.videoId,
          requestId: result.requestId ?? null,
          possible: result.possiblyCharged ?? false,
          at,
        });
      }
    })
    .immediate();
}

/** Tells listeners, once the outcome is safely stored. */
function announce(ctx: RunContext, item: PendingItem, status: FinalItemStatus, charged: boolean): void {
  if (charged) ctx.emit('credit', { jobId: ctx.jobId, endpoint: 'transcript' });
  ctx.emit('item', { jobId: ctx.jobId, itemId: item.id, videoId: item.videoId, status });
}

/** The transcript, the item's success, the credit it cost and the claim's release, in one transaction. */
function storeFetched(
  ctx: RunContext,
  item: PendingItem,
  key: TranscriptKey,
  response: ApiResponse<Transcript>,
  attempts: number,
): void {
  const at = ctx.now();
  const transcript = response.value;
  ctx.db
    .transaction(() => {
      const transcriptId = storeTranscript(ctx.db, {
        ...key,
        language: transcript.language,
        title: transcript.metadata?.title ?? null,
        segmentCount: transcript.segments.length,
        body: JSON.stringify(transcript.raw),
        fetchedAt: at,
      });
      finishItem(ctx.db, item.id, { status: 'ok', attempts, transcriptId, at });
      if (response.charged) {
        recordCredit(ctx.db, {
          jobId: ctx.jobId,
          endpoint: 'transcript',
          videoId: item.videoId,
          requestId: response.requestId ?? null,
          at,
        });
      }
      releaseClaim(ctx.db, key, ctx.claimOwner);
    })
    .immediate();
}
