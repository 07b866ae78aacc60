import { setTimeout as sleep } from 'node:timers/promises';
import PQueue from 'p-queue';
import { isApiError } from '../api/errors';
import type { ApiResponse, Transcript } from '../api/types';
import { releaseClaim } from '../store/claims';
import { finishItem, pendingItemsAfter, type FinalItemStatus, type PendingItem } from '../store/items';
import { storeTranscript, type TranscriptKey } from '../store/transcripts';
import { claimBatch, claimTranscript, releaseTranscriptClaim } from './claims';
import { classifyFailure, isServiceTrouble } from './failures';
import { DEFAULT_LANGUAGES, ITEM_CODE, ITEM_STATUS, STOP_REASON } from '../../shared/vocabulary';
import { failureToRecord, noteServiceTrouble } from './request-failure';
import { dropPaidRequest, recordBeforeSending, settlePaidRequest } from './paid-requests';
import type { RunContext } from './run-context';
import { cacheLang, requestLang } from './spec';

/** How long a video another job is buying waits before this run looks at it again. */
const HELD_RETRY_MS = 200;
/**
 * Pending items read and claimed together, in slots of the run's concurrency: claiming is one
 * transaction per batch, and a commit has a fixed cost, so a batch of only `concurrency` items made
 * as many commits as the results themselves.
 */
const BATCH_SLOTS = 4;

/**
 * Fetches the job's pending items while the walk adds more. Items are read from the database a
 * batch at a time (never the whole job), claimed together (claimBatch), and run through a p-queue
 * of `ctx.concurrency` slots; their results are written in groups (ResultWriter). Resolves when the
 * walk is over and no pending item is left, or when the run stops and the requests in flight have
 * settled and been written.
 */
export async function fetchItems(ctx: RunContext, walkFinished: () => boolean): Promise<void> {
  const queue = new PQueue({ concurrency: ctx.concurrency });
  // Items are appended with growing ids, so a cursor on the id never hands out one twice.
  let afterId = 0;
  /** Videos another job is buying: looked at again once the fresh ones run out. */
  let held: PendingItem[] = [];
  while (!ctx.control.stopped) {
    // Read the flag before the query: a walk that ended earlier has written all its items.
    const walkWasFinished = walkFinished();
    let batch = pendingItemsAfter(ctx.db, ctx.jobId, afterId, ctx.concurrency * BATCH_SLOTS);
    if (batch.length > 0) {
      afterId = batch[batch.length - 1]!.id;
    } else if (held.length > 0) {
      try {
        await sleep(HELD_RETRY_MS, undefined, { signal: ctx.control.stopSignal });
      } catch {
        break;
      }
      [batch, held] = [held, []];
    } else if (walkWasFinished) {
      break;
    } else {
      await ctx.control.changed();
      continue;
    }
    const claims = claimBatch(
      ctx,
      batch.map((item) => keyOf(ctx, item, 0)),
    );
    batch.forEach((item, i) => {
      const claim = claims[i]!;
      if (claim.kind === 'held') held.push(item);
      else if (claim.kind === 'cached') finishFromCache(ctx, item, claim.transcriptId, 0);
      else
        void queue.add(() =>
          fetchItem(ctx, item).catch((error: unknown) =>
            ctx.control.stop({ kind: STOP_REASON.error, error }),
          ),
        );
    });
    // Wait until every queued item has started, so at most one batch waits in memory. Once
    // the run stops, queued items start and return at once, so this never hangs.
    await queue.onEmpty();
  }
  if (ctx.control.stopped) queue.clear();
  await queue.onIdle();
  ctx.writer.flush();
}

function keyOf(ctx: RunContext, item: PendingItem, langIndex: number): TranscriptKey {
  return {
    videoId: item.videoId,
    requestedLang: cacheLang(ctx.options.langs[langIndex] ?? DEFAULT_LANGUAGES),
    includeTimestamp: ctx.options.includeTimestamp,
    sendMetadata: ctx.options.sendMetadata,
  };
}

/**
 * One video whose first-choice transcript this run has claimed: for each language of the
 * preference list, a request (the next languages' cached transcripts are free); a 404 moves on to
 * the next language. Its outcome is written, with what it cost, in the run's next group.
 */
async function fetchItem(ctx: RunContext, item: PendingItem): Promise<void> {
  const { options } = ctx;
  let attempts = 0;
  let announcedInFlight = false;
  for (const [index, lang] of options.langs.entries()) {
    const key = keyOf(ctx, item, index);
    if (index > 0) {
      const claim = await claimTranscript(ctx, key);
      if (claim.kind === 'stopped') return;
      if (claim.kind === 'cached') {
        finishFromCache(ctx, item, claim.transcriptId, attempts);
        return;
      }
    }
    if (ctx.control.stopped) return;
    if (!(await ctx.budget.reserveOnceSettled())) {
      ctx.control.stop(ctx.budget.stopCause());
      return;
    }
    if (!announcedInFlight) {
      announcedInFlight = true;
      ctx.emit('item', {
        jobId: ctx.jobId,
        itemId: item.id,
        videoId: item.videoId,
        status: ITEM_STATUS.fetching,
      });
    }
    let response: ApiResponse<Transcript>;
    let ledgerId: number | undefined;
    try {
      await ctx.pacer?.wait(ctx.control.stopSignal);
      ledgerId = await recordBeforeSending(ctx, { endpoint: 'transcript', videoId: item.videoId });
      response = await ctx.writer.onTheWire(() =>
        ctx.client.transcript(
          {
            video: item.videoId,
            lang: requestLang(lang),
            includeTimestamp: options.includeTimestamp,
            sendMetadata: options.sendMetadata,
          },
          ctx.call,
        ),
      );
    } catch (error) {
      ctx.budget.settle(isApiError(error) && (error.charged || error.possiblyCharged));
      const classified = classifyFailure(error, ctx.control.stopSignal);
      if (classified.kind !== 'aborted' && !isServiceTrouble(classified)) ctx.health.answered();
      // Stopped before anything was charged, the item is still pending, for the next run.
      const failure = failureToRecord(ctx, classified);
      if (failure === undefined || (failure.kind === 'not_found' && index < options.langs.length - 1)) {
        if (ledgerId !== undefined) dropPaidRequest(ctx, ledgerId);
      }
      if (failure === undefined) return;
      switch (failure.kind) {
        case 'not_found':
          attempts += failure.attempts;
          if (index < options.langs.length - 1) {
            releaseTranscriptClaim(ctx, key);
            continue; // free: try the next language
          }
          finish(ctx, item, key, { ...failure, status: ITEM_STATUS.unavailable, attempts, ledgerId });
          return;
        case 'uncertain':
          attempts += failure.attempts;
          finish(ctx, item, key, {
            status: ITEM_STATUS.failed,
            attempts,
            code: failure.cut ? ITEM_CODE.cutOff : null,
            message: failure.message,
            possiblyCharged: true,
            ledgerId,
          });
          noteServiceTrouble(ctx, failure);
          return;
        case 'final':
          attempts += failure.attempts;
          finish(ctx, item, key, { ...failure, status: ITEM_STATUS.failed, attempts, ledgerId });
          noteServiceTrouble(ctx, failure, item.id);
          return;
      }
    }
    ctx.budget.settle(response.charged);
    ctx.health.answered();
    storeFetched(ctx, item, key, response, { attempts: attempts + response.attempts, ledgerId });
    return;
  }
}

/** A failure that points at the service: stop the run once there are too many in a row. */
/** Where one video's fetch ended, before it is written. */
interface Finish {
  status: FinalItemStatus;
  attempts: number;
  httpStatus?: number | null;
  code?: string | null;
  message?: string;
  /** The failed request still cost a credit (an unreadable 200). */
  charged?: boolean;
  /** The request may have been charged (sent, never answered). */
  possiblyCharged?: boolean;
  requestId?: string | null;
  /** Its ledger row, recorded before it was sent (paid-requests.ts). */
  ledgerId?: number | undefined;
}

/** A video whose transcript another job (or an earlier run) stored: free, written with the next group. */
function finishFromCache(ctx: RunContext, item: PendingItem, transcriptId: number, attempts: number): void {
  ctx.writer.add({
    write: () =>
      finishItem(ctx.db, item.id, { status: ITEM_STATUS.ok, attempts, transcriptId, at: ctx.now() }),
    announce: () => announce(ctx, item, ITEM_STATUS.ok, false),
  });
}

/** Where the fetch ended, with the credit it cost (or may have cost) and the claim's release. */
function finish(ctx: RunContext, item: PendingItem, key: TranscriptKey, result: Finish): void {
  const charged = result.charged === true || result.possiblyCharged === true;
  ctx.writer.add({
    write: () => {
      const at = ctx.now();
      finishItem(ctx.db, item.id, {
        status: result.status,
        attempts: result.attempts,
        httpStatus: result.httpStatus ?? null,
        code: result.code ?? null,
        message: result.message ?? null,
        at,
      });
      if (result.ledgerId !== undefined) {
        settlePaidRequest(
          ctx,
          result.ledgerId,
          result.possiblyCharged === true
            ? { charged: 'possibly', at }
            : result.charged === true
              ? { charged: true, requestId: result.requestId ?? null, at }
              : { charged: false },
        );
      }
      releaseClaim(ctx.db, key, ctx.claimOwner);
    },
    announce: () => announce(ctx, item, result.status, charged, result.possiblyCharged === true),
  });
}

/** The transcript as received, the item's success, the credit and the claim's release, in one group. */
function storeFetched(
  ctx: RunContext,
  item: PendingItem,
  key: TranscriptKey,
  response: ApiResponse<Transcript>,
  { attempts, ledgerId }: { attempts: number; ledgerId: number },
): void {
  const transcript = response.value;
  let transcriptId = 0;
  ctx.writer.add({
    write: () => {
      const at = ctx.now();
      transcriptId = storeTranscript(ctx.db, {
        ...key,
        language: transcript.language,
        title: transcript.metadata?.title ?? null,
        segmentCount: transcript.segments.length,
        body: response.text,
        fetchedAt: at,
      });
      finishItem(ctx.db, item.id, { status: ITEM_STATUS.ok, attempts, transcriptId, at });
      settlePaidRequest(
        ctx,
        ledgerId,
        response.charged ? { charged: true, requestId: response.requestId ?? null, at } : { charged: false },
      );
      releaseClaim(ctx.db, key, ctx.claimOwner);
    },
    announce: () => {
      ctx.library.stored(transcriptId, transcript.segments);
      announce(ctx, item, ITEM_STATUS.ok, response.charged);
    },
  });
}

/** Tells listeners, once the outcome is safely stored. */
function announce(
  ctx: RunContext,
  item: PendingItem,
  status: FinalItemStatus,
  charged: boolean,
  possible = false,
): void {
  if (charged) ctx.emit('credit', { jobId: ctx.jobId, endpoint: 'transcript', possible });
  ctx.emit('item', { jobId: ctx.jobId, itemId: item.id, videoId: item.videoId, status });
}
