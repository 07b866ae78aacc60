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
import { findTranscriptId, storeTranscript, type TranscriptKey } from '../store/transcripts';
import { classifyFailure } from './failures';
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

/**
 * One video: for each language of the preference list, the cached transcript when there is
 * one (free), else a request; a 404 moves on to the next language. Every outcome is written
 * in one transaction with what it cost.
 */
async function fetchItem(ctx: RunContext, item: PendingItem): Promise<void> {
  const { db, options } = ctx;
  let inFlight = false; // the item is marked 'fetching' in the database
  let settled = false;
  let attempts = 0;
  try {
    for (const [index, lang] of options.langs.entries()) {
      const key: TranscriptKey = {
        videoId: item.videoId,
        requestedLang: cacheLang(lang),
        includeTimestamp: options.includeTimestamp,
        sendMetadata: options.sendMetadata,
      };
      const cachedId = findTranscriptId(db, key);
      if (cachedId !== undefined) {
        finish(ctx, item, { status: 'ok', attempts, transcriptId: cachedId });
        settled = true;
        announce(ctx, item, 'ok', false);
        return;
      }
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
        await ctx.pacer?.wait(ctx.control.signal);
        response = await ctx.client.transcript(
          {
            video: item.videoId,
            lang: requestLang(lang),
            includeTimestamp: options.includeTimestamp,
            sendMetadata: options.sendMetadata,
          },
          ctx.control.signal,
        );
      } catch (error) {
        ctx.budget.settle(isApiError(error) && error.charged);
        const failure = classifyFailure(error, ctx.control.signal);
        switch (failure.kind) {
          case 'aborted':
            attempts += failure.attempts;
            return;
          case 'credits':
          case 'auth':
            ctx.control.stop(failure);
            return;
          case 'not_found':
            attempts += failure.attempts;
            if (index < options.langs.length - 1) continue; // free: try the next language
            finish(ctx, item, { ...failure, status: 'unavailable', attempts });
            settled = true;
            announce(ctx, item, 'unavailable', false);
            return;
          case 'failed':
            attempts += failure.attempts;
            finish(ctx, item, { ...failure, status: 'failed', attempts });
            settled = true;
            announce(ctx, item, 'failed', failure.charged);
            return;
        }
      }
      ctx.budget.settle(response.charged);
      attempts += response.attempts;
      storeFetched(ctx, item, key, response, attempts);
      settled = true;
      announce(ctx, item, 'ok', response.charged);
      return;
    }
  } finally {
    // Stopped, aborted, refused or crashed while in flight: the item waits for the next run.
    if (inFlight && !settled) returnToPending(db, item.id, attempts, ctx.now());
  }
}

interface Finish {
  status: 'ok' | 'unavailable' | 'failed';
  attempts: number;
  transcriptId?: number;
  httpStatus?: number | null;
  code?: string | null;
  message?: string;
  /** The failed request still cost a credit (an unreadable 200). */
  charged?: boolean;
  requestId?: string | null;
}

/** Writes where the item's fetch ended, with the credit it cost, in one transaction. */
function finish(ctx: RunContext, item: PendingItem, result: Finish): void {
  const at = ctx.now();
  ctx.db.transaction(() => {
    finishItem(ctx.db, item.id, {
      status: result.status,
      attempts: result.attempts,
      httpStatus: result.httpStatus ?? null,
      code: result.code ?? null,
      message: result.message ?? null,
      transcriptId: result.transcriptId ?? null,
      at,
    });
    if (result.charged) {
      recordCredit(ctx.db, {
        jobId: ctx.jobId,
        endpoint: 'transcript',
        videoId: item.videoId,
        requestId: result.requestId ?? null,
        at,
      });
    }
  })();
}

/** Tells listeners, once the outcome is safely stored. */
function announce(ctx: RunContext, item: PendingItem, status: FinalItemStatus, charged: boolean): void {
  if (charged) ctx.emit('credit', { jobId: ctx.jobId, endpoint: 'transcript' });
  ctx.emit('item', { jobId: ctx.jobId, itemId: item.id, videoId: item.videoId, status });
}

/** The transcript, the item's success and the credit it cost, in one transaction. */
function storeFetched(
  ctx: RunContext,
  item: PendingItem,
  key: TranscriptKey,
  response: ApiResponse<Transcript>,
  attempts: number,
): void {
  const at = ctx.now();
  const transcript = response.value;
  ctx.db.transaction(() => {
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
  })();
}
