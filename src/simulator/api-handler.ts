/**
 * The /api/v2 request pipeline, in the hosted service's order of checks:
 *   User-Agent (the proxy's 403) -> route (404/405) -> key (401) -> rate limit (429) -> faults
 *   -> parameters (422) -> credits (402) -> catalog (404 or 200, charged when paid).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Account } from './account';
import type { ChargeDetail, Endpoint } from './endpoints';
import { answerWithFault } from './fault-answers';
import { ANSWERS_200 } from './faults';
import type { FaultBook, FaultTarget } from './faults';
import { parseVideoId } from './ids';
import { PAYMENT_PROBLEMS, problem, validationProblem } from './problems';
import type { FixedWindowLimiter } from './rate-limiter';
import { createReplies, JSON_TYPE, type Call, type ReplyDeps } from './replies';
import type { Query } from './validation';

const API_PREFIX = '/api/v2/';

/** The state and settings of one simulator that the pipeline works with. */
export interface ApiDeps extends ReplyDeps {
  keys: readonly string[];
  latencyMs: number;
  rateHeaderPrefix: 'RateLimit' | 'X-RateLimit';
  endpoints: ReadonlyMap<string, Endpoint>;
  account: Account;
  faults: FaultBook;
  limiter: FixedWindowLimiter | null;
  now: () => number;
}

export interface ApiRequest {
  req: IncomingMessage;
  res: ServerResponse;
  seq: number;
  requestId: string;
  path: string;
  /** The query string without its '?'. */
  search: string;
}

function parseQuery(search: string): Query {
  const entries: [string, string][] = [];
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(search)) {
    // The first occurrence wins when a parameter repeats.
    if (seen.has(name)) continue;
    seen.add(name);
    entries.push([name, value]);
  }
  // fromEntries defines own properties, so a parameter named __proto__ stays a plain value.
  return Object.fromEntries(entries);
}

/** What a fault rule's `match` is compared with: the endpoint, and the video and lang asked for. */
function faultTarget(endpoint: string, query: Query): FaultTarget {
  const target: FaultTarget = { endpoint };
  const videoId =
    endpoint === 'transcript' && query.video_url !== undefined ? parseVideoId(query.video_url) : null;
  if (videoId !== null) target.videoId = videoId;
  if (query.lang !== undefined) target.lang = query.lang;
  return target;
}

/** Returns the handler of every request outside /__admin/. */
export function createApiHandler(deps: ApiDeps): (request: ApiRequest) => void {
  const replies = createReplies(deps);
  const { send, fail } = replies;
  function charge(call: Call, endpoint: string, detail: ChargeDetail): void {
    deps.account.charge({ endpoint, key: call.key, ...detail, at: deps.now() });
  }

  /** The index of the accepted key in an Authorization header, or why there is none. */
  function authenticate(header: string | undefined): number | 'missing' | 'invalid' {
    if (!header) return 'missing';
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    const index = token === undefined ? -1 : deps.keys.indexOf(token);
    return index < 0 ? 'invalid' : index;
  }

  /** Parameters, credits and the catalog: the normal answer. */
  function answer(call: Call, name: string, endpoint: Endpoint): void {
    const prepared = endpoint.prepare(call.query);
    if (!prepared.ok) return fail(call, validationProblem(prepared.errors));
    const block = endpoint.paid ? deps.account.paymentBlock() : null;
    if (block !== null) return fail(call, problem(402, '', PAYMENT_PROBLEMS[block]));
    const outcome = prepared.serve();
    if (!outcome.ok) return fail(call, outcome.problem);
    if (endpoint.paid) charge(call, name, outcome.charge);
    send(call, 200, JSON_TYPE, JSON.stringify(outcome.body), endpoint.paid);
  }

  function serve(req: IncomingMessage, call: Call): void {
    if (!req.headers['user-agent'])
      return fail(call, problem(403, 'Requests without a User-Agent header are refused.'));
    const name = call.path.startsWith(API_PREFIX) ? call.path.slice(API_PREFIX.length) : '';
    const endpoint = deps.endpoints.get(name);
    if (!endpoint) return fail(call, problem(404, `There is no endpoint at ${call.path}.`));
    if (call.method !== 'GET') {
      call.headers.Allow = 'GET';
      return fail(call, problem(405, `${call.method} is not allowed; every endpoint is GET.`));
    }
    const keyIndex = authenticate(req.headers.authorization);
    if (keyIndex === 'missing')
      return fail(call, problem(401, 'Send the header Authorization: Bearer <API key>.'));
    if (keyIndex === 'invalid') return fail(call, problem(401, 'The API key is not valid.'));
    call.key = `key#${keyIndex}`;
    if (deps.limiter) {
      const decision = deps.limiter.take(call.key, deps.now());
      call.headers[`${deps.rateHeaderPrefix}-Limit`] = String(decision.limit);
      call.headers[`${deps.rateHeaderPrefix}-Remaining`] = String(decision.remaining);
      call.headers[`${deps.rateHeaderPrefix}-Reset`] = String(decision.resetSeconds);
      if (!decision.allowed) {
        call.headers['Retry-After'] = String(decision.resetSeconds);
        return fail(call, problem(429, 'Rate limit exceeded.', { retryAfter: decision.resetSeconds }));
      }
    }
    const target = faultTarget(name, call.query);
    // A fault that answers 200 costs a credit, so it cannot fire where the normal answer is a 402.
    const rule = deps.faults.take(
      target,
      (candidate) =>
        !(ANSWERS_200.has(candidate.kind) && endpoint.paid && deps.account.paymentBlock() !== null),
    );
    if (rule) {
      return answerWithFault(replies, {
        call,
        rule,
        endpoint,
        target,
        now: deps.now(),
        charge: (detail) => charge(call, name, detail),
        answer: () => answer(call, name, endpoint),
      });
    }
    answer(call, name, endpoint);
  }

  return ({ req, res, seq, requestId, path, search }) => {
    const call: Call = {
      seq,
      requestId,
      method: req.method ?? 'GET',
      path,
      query: parseQuery(search),
      at: deps.now(),
      deliverAt: performance.now() + deps.latencyMs,
      res,
      headers: { 'X-Request-Id': requestId },
      key: '',
    };
    try {
      serve(req, call);
    } catch (error) {
      // A simulator bug must still answer, or the client under test would hang.
      fail(call, problem(500, error instanceof Error ? error.message : 'internal error'));
    }
  };
}
