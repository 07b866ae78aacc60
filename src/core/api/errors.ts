import type { Endpoint, FieldError } from './types';

/**
 * Why a call failed:
 * - `http`: the service answered with an error status (problem+json when it sent one);
 * - `unreadable`: a 200 whose body could not be used (it was still charged);
 * - `timeout`: no answer within the per-request timeout (the request was sent: it may be charged);
 * - `network`: the connection broke after the request was sent (it may be charged);
 * - `unreachable`: nothing was sent: no connection could be made (refused, unknown host, TLS), or the
 *   request could not be written (a header no request can carry);
 * - `throttled`: the service asked to wait longer than the client's ceiling before trying again;
 * - `too_large`: the answer passed the client's size limit (MAX_BODY_BYTES) and was not read: a
 *   success is still charged, and is not asked again;
 * - `aborted`: the caller cancelled.
 */
export type ApiErrorKind =
  'http' | 'unreadable' | 'too_large' | 'timeout' | 'network' | 'unreachable' | 'throttled' | 'aborted';

export interface ApiErrorDetails {
  kind: ApiErrorKind;
  endpoint: Endpoint;
  /** HTTP status; 0 when no response arrived. */
  status: number;
  code?: string;
  title?: string;
  detail?: string;
  requestId?: string;
  /** Seconds, from the Retry-After header or the body's retry_after. */
  retryAfter?: number;
  errors?: FieldError[];
  /** True when the failed call still cost a credit (an unreadable 200 from a paid endpoint). */
  charged?: boolean;
  /**
   * True when a paid request may have been charged without an answer saying so: it timed out, its
   * connection broke, or it was aborted after it was sent.
   */
  possiblyCharged?: boolean;
  /** HTTP attempts made before giving up. */
  attempts: number;
}

/** The only error the client throws. Its message is plain language and never holds the API key. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly endpoint: Endpoint;
  readonly status: number;
  readonly code: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAfter: number | undefined;
  readonly errors: FieldError[];
  readonly charged: boolean;
  readonly possiblyCharged: boolean;
  readonly attempts: number;

  constructor(message: string, details: ApiErrorDetails) {
    super(message);
    this.name = 'ApiError';
    this.kind = details.kind;
    this.endpoint = details.endpoint;
    this.status = details.status;
    this.code = details.code;
    this.title = details.title;
    this.detail = details.detail;
    this.requestId = details.requestId;
    this.retryAfter = details.retryAfter;
    this.errors = details.errors ?? [];
    this.charged = details.charged ?? false;
    this.possiblyCharged = details.possiblyCharged ?? false;
    this.attempts = details.attempts;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
