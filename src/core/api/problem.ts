import { z } from 'zod';
import { nonNegativeNumber } from './schemas';
import { endpointPath, type Endpoint, type FieldError } from './types';

/** What a problem+json error body told us; every field is optional. */
export interface Problem {
  code?: string;
  title?: string;
  detail?: string;
  requestId?: string;
  /** Seconds, from the body's retry_after. */
  retryAfter?: number;
  errors: FieldError[];
}

/** A field that is dropped, rather than failing the whole body, when its type is wrong. */
const optionalText = z.string().optional().catch(undefined);

const fieldErrorSchema = z.object({
  field: z.string().catch(''),
  code: z.string().catch(''),
  message: z.string().catch(''),
});

const problemSchema = z.object({
  code: optionalText,
  title: optionalText,
  detail: optionalText,
  request_id: optionalText,
  requestId: optionalText,
  retry_after: nonNegativeNumber.optional().catch(undefined),
  retryAfter: nonNegativeNumber.optional().catch(undefined),
  errors: z.array(fieldErrorSchema).optional().catch(undefined),
});

/** Reads an error body tolerantly: a body that is not problem+json gives an empty Problem. */
export function parseProblem(body: string): Problem {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { errors: [] };
  }
  const parsed = problemSchema.safeParse(json);
  if (!parsed.success) return { errors: [] };
  const p = parsed.data;
  return {
    code: p.code,
    title: p.title,
    detail: p.detail,
    requestId: p.request_id ?? p.requestId,
    retryAfter: p.retry_after ?? p.retryAfter,
    errors: p.errors ?? [],
  };
}

const NotFoundSchema = z.object({
  type: optionalText,
  instance: optionalText,
  status: z.number().optional().catch(undefined),
  code: optionalText,
});

/**
 * Whether a 404 is the Transcript Service's own "not found" (no such video, captions or list): a
 * problem+json body (docs/service.md, Errors) with its status or code. When it names the service's
 * base (`type` is {base_url}/api/errors/<kind>) and the path it was asked (`instance`), that path must
 * be the endpoint under that base: a service behind a proxy that adds a prefix still passes, while a
 * wrong path in the address ("There is no endpoint at /wrong/api/v2/transcript") does not. An HTML
 * page, an empty body or another program's JSON is not the service either.
 */
export function isServiceNotFound(body: string, endpoint: Endpoint): boolean {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return false;
  }
  const parsed = NotFoundSchema.safeParse(json);
  if (!parsed.success) return false;
  const { type, instance, status, code } = parsed.data;
  if (status !== 404 && code === undefined) return false;
  const base = type === undefined ? null : /^(.*\/)api\/errors\/[^/]+$/.exec(pathOf(type) ?? '')?.[1];
  const asked = instance === undefined ? null : pathOf(instance);
  // Without both, the body cannot say which path it is about: it is taken at its word.
  if (!base || asked === null) return true;
  return asked === `${base}${endpointPath(endpoint)}`;
}

/** The path of an absolute or relative address, or null when it is not one. */
function pathOf(address: string): string | null {
  try {
    return new URL(address, 'http://service.invalid').pathname;
  } catch {
    return null;
  }
}

/** Plain-language meaning of the statuses the service is known to send. */
const STATUS_MEANINGS: Readonly<Record<number, string>> = {
  400: 'the request was malformed',
  401: 'the API key is missing or was refused',
  402: 'the account has no credits left',
  403: 'access was refused',
  404: 'the video, playlist or channel was not found, or has no captions',
  408: 'the service timed out',
  422: 'the service rejected a parameter value',
  429: 'too many requests; the rate limit was reached',
  500: 'the service had an internal error',
  502: 'a proxy in front of the service got no valid answer',
  503: 'the service is unavailable',
  504: 'a proxy in front of the service timed out',
};

/** Meanings of the 402 codes, with what the user should do. */
const CODE_MEANINGS: Readonly<Record<string, string>> = {
  E_PAYMENT_REQUIRED: 'out of credits; top up the account',
  E_FREE_GRANT_DEPLETED: 'the free credit grant is used up; subscribe to a plan',
  E_SUBSCRIPTION_PAUSED: 'the plan is paused; resume it',
};

/**
 * "The service answered 402 (E_FREE_GRANT_DEPLETED): the free credit grant is used up; …"
 * Built from the status, the code and the body's own words, never from the request.
 */
export function describeHttpError(status: number, problem: Problem): string {
  const label = problem.code ? `${status} (${problem.code})` : String(status);
  const meaning =
    (problem.code ? CODE_MEANINGS[problem.code] : undefined) ??
    problem.detail ??
    problem.title ??
    STATUS_MEANINGS[status] ??
    'unexpected status';
  const fieldProblems = problem.errors
    .map((e) => [e.field, e.message].filter(Boolean).join(': '))
    .filter(Boolean);
  const fields = fieldProblems.length > 0 ? ` [${fieldProblems.join('; ')}]` : '';
  return `The service answered ${label}: ${meaning}${fields}`;
}
