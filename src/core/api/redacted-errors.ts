import { ApiError, type ApiErrorDetails } from './errors';
import type { AttemptFailure } from './http';
import { FREE_ENDPOINTS, type Endpoint } from './types';

/** How the client makes its ApiErrors: `fail` for an answer it refuses, `failed` for no usable answer. */
export interface ErrorMaker {
  fail(message: string, details: ApiErrorDetails): ApiError;
  /**
   * A call that got no usable answer. A paid request that was sent and then timed out, lost its
   * connection or was cut by the caller may still have been charged.
   */
  failed(
    endpoint: Endpoint,
    failure: AttemptFailure,
    attempts: number,
    sent?: { charged?: boolean; possibly?: boolean },
  ): ApiError;
}

/**
 * Whatever the service echoes in an error, the key never reaches a message a person reads. Data (a
 * body, a request id) is kept as the service sent it: a key may be part of an ID or a cursor, and
 * replacing it there would store something the service never sent (docs/product.md, "Key, address
 * and data folder").
 */
export function redactedErrors(apiKey: string): ErrorMaker {
  const redact = <T extends string | undefined>(text: T): T =>
    (apiKey && text?.includes(apiKey) ? text.split(apiKey).join('[redacted]') : text) as T;

  const fail = (message: string, details: ApiErrorDetails): ApiError =>
    new ApiError(redact(message), {
      ...details,
      code: redact(details.code),
      title: redact(details.title),
      detail: redact(details.detail),
      requestId: redact(details.requestId),
      errors: details.errors?.map((e) => ({
        field: redact(e.field),
        code: redact(e.code),
        message: redact(e.message),
      })),
    });

  return {
    fail,
    failed: (endpoint, failure, attempts, sent = {}) =>
      fail(failure.message, {
        kind: failure.kind,
        endpoint,
        status: 0,
        attempts,
        charged: sent.charged ?? false,
        possiblyCharged: (sent.possibly ?? false) && !FREE_ENDPOINTS.has(endpoint),
      }),
  };
}
