import { STOP_REASON } from '../../shared/vocabulary';
import { isServiceTrouble, type Failure } from './failures';
import type { RunContext } from './run-context';

/** A failure its video or list records; the others are the run's. */
export type RecordedFailure = Extract<Failure, { kind: 'not_found' | 'uncertain' | 'final' }>;

/**
 * One rule for a failed list page and a failed transcript: a request stopped before it cost anything
 * leaves nothing to record (the next run asks again), and a 402, a refused key or a service out of
 * reach stops the run; anything else is returned, for the video or the list to record.
 */
export function failureToRecord(ctx: RunContext, failure: Failure): RecordedFailure | undefined {
  switch (failure.kind) {
    case 'aborted':
      return undefined;
    case STOP_REASON.credits:
    case STOP_REASON.auth:
    case STOP_REASON.service:
      ctx.control.stop(failure);
      return undefined;
    default:
      return failure;
  }
}

/**
 * A recorded failure that points at the service (no answer, or a 5xx) counts toward taking it to be
 * down, which stops the run with one message (service-health.ts). `itemId` names the video whose
 * transcript request failed: one the service answered with a server error is asked again by the next
 * run if the streak stops this one.
 */
export function noteServiceTrouble(ctx: RunContext, failure: RecordedFailure, itemId?: number): void {
  if (!isServiceTrouble(failure)) return;
  const answered = failure.kind === 'final' && failure.httpStatus !== null;
  const down = ctx.health.troubled(troubleWords(failure), answered ? itemId : undefined);
  if (down !== undefined) ctx.control.stop({ kind: STOP_REASON.service, message: down });
}

/** A failure that points at the service, in a few words: "HTTP 503 E_UNAVAILABLE", or why no answer came. */
function troubleWords(failure: RecordedFailure): string {
  if (failure.kind === 'final' && failure.httpStatus !== null)
    return [`HTTP ${failure.httpStatus}`, failure.code].filter(Boolean).join(' ');
  return failure.message;
}
