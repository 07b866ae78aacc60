import { isApiError, type ApiError } from '../api/errors';

/** What each 402 code asks the user to do (PRODUCT.md "Request policy"). */
const PAYMENT_MEANINGS: Record<string, string> = {
  E_PAYMENT_REQUIRED: 'Out of credits: top up your account',
  E_FREE_GRANT_DEPLETED: 'The free 100-credit grant is used up: subscribe to a plan',
  E_SUBSCRIPTION_PAUSED: 'Your plan is paused: resume it',
};

export function paymentMeaning(code: string): string {
  return PAYMENT_MEANINGS[code] ?? `The service asked for payment (${code}): check your account`;
}

/** The message of a 422: the service refused a value that should have been checked before sending. */
export const REJECTED_MESSAGE = 'the service rejected a value Scriptorium sent (a bug: please report it)';
export const UNREADABLE_MESSAGE = 'unreadable response';

/** How a failed request affects the job. */
export type Failure =
  /** 402: no paid request may start any more. */
  | { kind: 'credits'; code: string; meaning: string }
  /** 401/403: the key was refused. */
  | { kind: 'auth'; httpStatus: number; message: string }
  /** 404: the video, captions, playlist or channel does not exist. */
  | { kind: 'not_found'; httpStatus: number; code: string | null; message: string; attempts: number }
  /** The run was stopped while the request was in flight. */
  | { kind: 'aborted'; attempts: number }
  /** Anything else: final for this request. `charged` when it still cost a credit. */
  | {
      kind: 'failed';
      httpStatus: number | null;
      code: string | null;
      message: string;
      charged: boolean;
      attempts: number;
      requestId: string | null;
    };

/**
 * Sorts out what a request's error means. `runSignal` tells an abort of ours apart from a
 * failure. Errors that are not from the client (bugs, database errors) are rethrown.
 */
export function classifyFailure(error: unknown, runSignal: AbortSignal): Failure {
  if (!isApiError(error)) {
    if (runSignal.aborted) return { kind: 'aborted', attempts: 0 };
    throw error;
  }
  if (error.kind === 'aborted' || runSignal.aborted) return { kind: 'aborted', attempts: error.attempts };
  if (error.kind === 'unreadable') {
    return { ...finalFailure(error), httpStatus: error.status || 200, message: UNREADABLE_MESSAGE };
  }
  if (error.kind === 'http') {
    const code = error.code ?? null;
    if (error.status === 402) {
      const paymentCode = code ?? 'E_PAYMENT_REQUIRED';
      return { kind: 'credits', code: paymentCode, meaning: paymentMeaning(paymentCode) };
    }
    if (error.status === 401 || error.status === 403) {
      return { kind: 'auth', httpStatus: error.status, message: error.message };
    }
    if (error.status === 404) {
      return { kind: 'not_found', httpStatus: 404, code, message: error.message, attempts: error.attempts };
    }
    if (error.status === 422) return { ...finalFailure(error), message: REJECTED_MESSAGE };
  }
  return finalFailure(error);
}

/** A failure that is final for its video or walk, with the last status, code and message. */
function finalFailure(error: ApiError): Extract<Failure, { kind: 'failed' }> {
  return {
    kind: 'failed',
    httpStatus: error.status === 0 ? null : error.status,
    code: error.code ?? null,
    message: error.message,
    charged: error.charged,
    attempts: error.attempts,
    requestId: error.requestId ?? null,
  };
}
