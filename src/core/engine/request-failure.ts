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
 * down, which stops the run with one message (service-health.ts).
 */
export function noteServiceTrouble(ctx: RunContext, failure: RecordedFailure): void {
  if (!isServiceTrouble(failure)) return;
  const down = ctx.health.troubled(failure.message);
  if (down !== undefined) ctx.control.stop({ kind: STOP_REASON.service, message: down });
}
