/** problem+json error bodies in the shape docs/service.md lists for every error response. */

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

export interface Problem {
  status: number;
  /** The last part of the `type` address: {base}/api/errors/<kind>. */
  kind: string;
  title: string;
  code: string;
  detail: string;
  errors?: FieldError[];
  /** Sent as retry_after (integer seconds). */
  retryAfter?: number;
}

type ProblemTemplate = Pick<Problem, 'kind' | 'title' | 'code'>;

const BY_STATUS: Record<number, ProblemTemplate> = {
  400: { kind: 'bad-request', title: 'Bad request', code: 'E_BAD_REQUEST' },
  401: { kind: 'unauthorized', title: 'Unauthorized', code: 'E_UNAUTHORIZED' },
  402: { kind: 'payment-required', title: 'Payment required', code: 'E_PAYMENT_REQUIRED' },
  403: { kind: 'forbidden', title: 'Forbidden', code: 'E_FORBIDDEN' },
  404: { kind: 'not-found', title: 'Not found', code: 'E_NOT_FOUND' },
  405: { kind: 'method-not-allowed', title: 'Method not allowed', code: 'E_METHOD_NOT_ALLOWED' },
  408: { kind: 'timeout', title: 'Request timeout', code: 'E_TIMEOUT' },
  422: { kind: 'validation', title: 'Validation failed', code: 'E_VALIDATION' },
  429: { kind: 'rate-limited', title: 'Too many requests', code: 'E_RATE_LIMITED' },
  500: { kind: 'internal', title: 'Internal server error', code: 'E_INTERNAL' },
  502: { kind: 'bad-gateway', title: 'Bad gateway', code: 'E_BAD_GATEWAY' },
  503: { kind: 'unavailable', title: 'Service unavailable', code: 'E_UNAVAILABLE' },
  504: { kind: 'gateway-timeout', title: 'Gateway timeout', code: 'E_GATEWAY_TIMEOUT' },
};

/** The 402 variants of the spec's error table. */
export const PAYMENT_PROBLEMS = {
  grant: {
    kind: 'free-grant-depleted',
    title: 'Free grant depleted',
    code: 'E_FREE_GRANT_DEPLETED',
    detail: 'The free 100-credit grant is used up; a subscription is needed.',
  },
  paid: {
    kind: 'payment-required',
    title: 'Payment required',
    code: 'E_PAYMENT_REQUIRED',
    detail: 'Out of credits; top up to continue.',
  },
  paused: {
    kind: 'subscription-paused',
    title: 'Subscription paused',
    code: 'E_SUBSCRIPTION_PAUSED',
    detail: 'The plan is paused and must be resumed.',
  },
} as const;

/** A problem for `status` with the usual kind, title and code (a generic one for unlisted statuses). */
export function problem(status: number, detail: string, extra: Partial<Problem> = {}): Problem {
  const template = BY_STATUS[status] ?? {
    kind: `http-${status}`,
    title: `HTTP ${status}`,
    code: `E_HTTP_${status}`,
  };
  return { status, ...template, detail, ...extra };
}

export function validationProblem(errors: FieldError[]): Problem {
  const fields = [...new Set(errors.map((error) => error.field))].join(', ');
  return problem(422, `Invalid parameters: ${fields}.`, { errors });
}

/** The JSON body; `base` is the simulator's own address. */
export function problemBody(p: Problem, base: string, instance: string, requestId: string): string {
  return JSON.stringify({
    type: `${base}/api/errors/${p.kind}`,
    title: p.title,
    status: p.status,
    detail: p.detail,
    instance,
    request_id: requestId,
    code: p.code,
    ...(p.errors ? { errors: p.errors } : {}),
    ...(p.retryAfter === undefined ? {} : { retry_after: p.retryAfter }),
  });
}
