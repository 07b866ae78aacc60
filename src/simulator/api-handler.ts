/**
 * The /api/v2 request pipeline, in the hosted service's order of checks:
 *   User-Agent (the proxy's 403) -> route (404/405) -> key (401) -> rate limit (429) -> faults
 *   -> parameters (422) -> credits (402) -> catalog (404 or 200, charged when paid).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Account } from './account';
import type { ChargeDetail, Endpoint } from './endpoints';
import { ANSWERS_200 } from './faults';
import type { FaultBook, FaultTarget } from './faults';
import { parseVideoId } from './ids';
import type { FaultRule } from './index';
import { PAYMENT_PROBLEMS, problem, problemBody, validationProblem } from './problems';
import type { Problem } from './problems';
import type { FixedWindowLimiter } from './rate-limiter';
import type { RequestLog } from './request-log';
import type { Query } from './validation';

export const JSON_TYPE = 'application/json';
const API_PREFIX = '/api/v2/';
const PROBLEM_TYPE = 'application/problem+json';
const MALFORMED_BODY = '{"video_id": "dQw4w9WgXcQ", "transcript": [{"text": "cut off';
const WRONG_SHAPE_BODY = '{"ok":true,"transcript":42,"results":42,"channel_id":42}';

/** The state and settings of one simulator that the pipeline works with. */
export interface ApiDeps {
  keys: readonly string[];
  latencyMs: number;
  rateHeaderPrefix: 'RateLimit' | 'X-RateLimit';
  endpoints: ReadonlyMap<string, Endpoint>;
  account: Account;
  log: RequestLog;
  faults: FaultBook;
  limiter: FixedWindowLimiter | null;
  now: () => number;
  /** setTimeout that the simulator's close() cancels. */
  later: (ms: number, run: () => void) => void;
  /** Takes an answer that falls due while answers are held (admin.holdAnswers); false when none are. */
  holdIfHeld: (deliver: () => void) => boolean;
  /** The simulator's own address, the base of problem `type` URLs. */
  baseUrl: () => string;
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

/** One API request on its way through the checks. */
interface Call {
  seq: number;
  requestId: string;
  method: string;
  path: string;
  query: Query;
  at: number;
  /**
   * When the answer reaches the client (performance.now()): the latency after arrival, plus any
   * delay fault. The answer is worked out at once and only its delivery waits, as on a real server,
   * whose work does not compete with the client for this machine's cores; 64 answers falling due in
   * the same millisecond then cost a few writes rather than 64 renderings in a row.
   */
  deliverAt: number;
  res: ServerResponse;
  /** Headers every answer to this call carries (request id, rate limit). */
  headers: OutgoingHttpHeaders;
  /** 'key#<index>' once authenticated. */
  key: string;
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

/** Seconds a Retry-After value (seconds or an HTTP date) asks for, or undefined when unreadable. */
function retryAfterSeconds(value: string, now: number): number | undefined {
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Returns the handler of every request outside /__admin/. */
export function createApiHandler(deps: ApiDeps): (request: ApiRequest) => void {
  function logCall(call: Call, status: number, charged: boolean): void {
    deps.log.record({
      seq: call.seq,
      method: call.method,
      path: call.path,
      query: call.query,
      status,
      at: call.at,
      charged,
    });
  }

  function send(call: Call, status: number, contentType: string, body: string, charged = false): void {
    logCall(call, status, charged);
    deliver(call, () => {
      call.res.writeHead(status, {
        ...call.headers,
        'Content-Type': contentType,
        'Content-Length': Buffer.byteLength(body),
      });
      call.res.end(body);
    });
  }

  /** Writes the answer once it is due, unless the client has gone (or close() ended the socket). */
  function deliver(call: Call, write: () => void): void {
    const due = (): void => {
      // A timer may wake a little early: never answer before the latency has passed.
      const wait = call.deliverAt - performance.now();
      if (wait > 0) return deps.later(wait, due);
      if (deps.holdIfHeld(due)) return;
      if (!call.res.destroyed) write();
    };
    due();
  }

  function fail(call: Call, p: Problem): void {
    send(call, p.status, PROBLEM_TYPE, problemBody(p, deps.baseUrl(), call.path, call.requestId));
  }

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

  /** Applies a fault rule that fired; 'delay' continues with the normal answer afterwards. */
  function applyFault(
    call: Call,
    rule: FaultRule,
    name: string,
    endpoint: Endpoint,
    target: FaultTarget,
  ): void {
    const chargeFaulty200 = (): boolean => {
      const { endpoint: _endpoint, ...detail } = target;
      if (endpoint.paid) charge(call, name, detail);
      return endpoint.paid;
    };
    switch (rule.kind) {
      case 'status': {
        const status = rule.status ?? 500;
        const retryAfter =
          rule.retryAfter === undefined ? undefined : retryAfterSeconds(rule.retryAfter, deps.now());
        if (rule.retryAfter !== undefined) call.headers['Retry-After'] = rule.retryAfter;
        return fail(
          call,
          problem(
            status,
            `Injected fault: status ${status}.`,
            retryAfter === undefined ? {} : { retryAfter },
          ),
        );
      }
      case 'malformed':
        return send(call, 200, JSON_TYPE, MALFORMED_BODY, chargeFaulty200());
      case 'wrong-shape':
        return send(call, 200, JSON_TYPE, WRONG_SHAPE_BODY, chargeFaulty200());
      case 'truncated': {
        logCall(call, 200, chargeFaulty200());
        const partial = MALFORMED_BODY;
        return deliver(call, () => {
          call.res.writeHead(200, {
            ...call.headers,
            'Content-Type': JSON_TYPE,
            'Content-Length': Buffer.byteLength(partial) + 1000,
          });
          call.res.write(partial, () => call.res.destroy());
        });
      }
      case 'delay':
        call.deliverAt += rule.delayMs ?? 0;
        return answer(call, name, endpoint);
      case 'hang':
        // Never answered: close() ends the socket.
        return logCall(call, 0, false);
    }
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
    if (rule) return applyFault(call, rule, name, endpoint, target);
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
