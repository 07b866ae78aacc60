import { isApiError, type ApiError } from '../api/errors';
import { refusesTheKey } from '../api/retry-policy';
import { STOP_REASON } from '../../shared/vocabulary';

/** What each 402 code asks the user to do (docs/product.md "Request policy"). */
const PAYMENT_MEANINGS: Record<string, string> = {
  E_PAYMENT_REQUIRED: 'Out of credits: top up your account',
  E_FREE_GRANT_DEPLETED: 'The free credit grant is used up: subscribe to a plan',
  E_SUBSCRIPTION_PAUSED: 'Your plan is paused: resume it',
};

export function paymentMeaning(code: string): string {
  return PAYMENT_MEANINGS[code] ?? `The service asked for payment (${code}): check your account`;
}

/** The message of a 422: the service refused a value that should have been checked before sending. */
export const REJECTED_MESSAGE = 'the service rejected a value Scriptorium sent (a bug: please report it)';
export const UNREADABLE_MESSAGE = 'unreadable response';
export const TOO_LARGE_MESSAGE = 'answer too large';

/** How a failed request affects the job. */
export type Failure =
  /** 402: no paid request may start any more. */
  | { kind: 'credits'; code: string; meaning: string }
  /** 401/403 (or 431, a key too long to read): the key was refused. */
  | { kind: 'auth'; httpStatus: number; message: string }
  /** The service cannot be reached, or asked to wait longer than we will: the whole run stops. */
  | { kind: 'service'; message: string }
  /** 404: the video, captions, playlist or channel does not exist. */
  | { kind: 'not_found'; httpStatus: number; code: string | null; message: string; attempts: number }
  /** The run was stopped before the request was sent, or between its attempts: nothing was charged. */
  | { kind: 'aborted'; attempts: number }
  /**
   * A paid request that was sent and never answered (timed out, its connection broke, or it was cut):
   * it may have been charged, so it is recorded as possibly charged and not sent again by itself.
   * `cut`: a forced stop of ours cut it (a second Ctrl+C, or the drain running out), not the service.
   */
  | { kind: 'uncertain'; message: string; attempts: number; cut: boolean }
  /** Anything else: final for this request. `charged` when it still cost a credit. */
  | {
      kind: 'final';
      httpStatus: number | null;
      code: string | null;
      message: string;
      charged: boolean;
      attempts: number;
      requestId: string | null;
    };

/** Why a possibly charged request is not sent again on its own, and how to send it again. */
const UNCERTAIN_ADVICE =
  'it may have been charged, so it is not sent again automatically: use Retry failed (--retry-failed) to send it again';

/**
 * Sorts out what a request's error means. `runSignal` (the run's stop signal) tells a stop of ours
 * apart from a failure. Errors that are not from the client (bugs, database errors) are rethrown.
 */
export function classifyFailure(error: unknown, runSignal: AbortSignal): Failure {
  if (!isApiError(error)) {
    if (runSignal.aborted) return { kind: 'aborted', attempts: 0 };
    throw error;
  }
  if (error.possiblyCharged) {
    const cut = error.kind === 'aborted';
    const what = cut ? 'The request was cut off by a forced stop after it was sent' : error.message;
    return { kind: 'uncertain', message: `${what}; ${UNCERTAIN_ADVICE}`, attempts: error.attempts, cut };
  }
  if (error.kind === 'aborted' || runSignal.aborted) return { kind: 'aborted', attempts: error.attempts };
  if (error.kind === 'unreachable' || error.kind === 'throttled') {
    return { kind: STOP_REASON.service, message: error.message };
  }
  if (error.kind === 'unreadable') {
    return { ...finalFailure(error), httpStatus: error.status || 200, message: UNREADABLE_MESSAGE };
  }
  // Charged when it was a success, and any retry could be charged again: final, as unreadable is.
  if (error.kind === 'too_large') return { ...finalFailure(error), message: TOO_LARGE_MESSAGE };
  if (error.kind === 'http') {
    const code = error.code ?? null;
    if (error.status === 402) {
      const paymentCode = code ?? 'E_PAYMENT_REQUIRED';
      return { kind: STOP_REASON.credits, code: paymentCode, meaning: paymentMeaning(paymentCode) };
    }
    if (refusesTheKey(error.status)) {
      return { kind: STOP_REASON.auth, httpStatus: error.status, message: error.message };
    }
    if (error.status === 404) {
      return { kind: 'not_found', httpStatus: 404, code, message: error.message, attempts: error.attempts };
    }
    if (error.status === 422) return { ...finalFailure(error), message: REJECTED_MESSAGE };
  }
  return finalFailure(error);
}

/** Failures that say the service, not the video or the list, is in trouble (see ServiceHealth). */
export function isServiceTrouble(failure: Failure): boolean {
  if (failure.kind === 'uncertain') return !failure.cut;
  return failure.kind === 'final' && (failure.httpStatus === null || failure.httpStatus >= 500);
}

/** A failure that is final for its video or walk, with the last status, code and message. */
function finalFailure(error: ApiError): Extract<Failure, { kind: 'final' }> {
  return {
    kind: 'final',
    httpStatus: error.status === 0 ? null : error.status,
    code: error.code ?? null,
    message: error.message,
    charged: error.charged,
    attempts: error.attempts,
    requestId: error.requestId ?? null,
  };
}
