import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { problemBody, type Problem } from './problems';
import type { RequestLog } from './request-log';
import type { Query } from './validation';

export const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';

/** One API request on its way through the checks. */
export interface Call {
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

/** What the pipeline needs to answer: where calls are logged, and when answers may leave. */
export interface ReplyDeps {
  log: RequestLog;
  /** setTimeout that the simulator's close() cancels. */
  later: (ms: number, run: () => void) => void;
  /** Takes an answer that falls due while answers are held (admin.holdAnswers); false when none are. */
  holdIfHeld: (deliver: () => void) => boolean;
  /** The simulator's own address, the base of problem `type` URLs. */
  baseUrl: () => string;
}

/** How an answer leaves: logged when worked out, written once due. */
export interface Replies {
  /** Logs the call as answered with `status` (0: held open for ever). */
  logCall(call: Call, status: number, charged: boolean): void;
  send(call: Call, status: number, contentType: string, body: string, charged?: boolean): void;
  /** Writes the answer once it is due, unless the client has gone (or close() ended the socket). */
  deliver(call: Call, write: () => void): void;
  /** A problem+json answer. */
  fail(call: Call, problem: Problem): void;
}

export function createReplies(deps: ReplyDeps): Replies {
  const replies: Replies = {
    logCall(call, status, charged) {
      deps.log.record({
        seq: call.seq,
        method: call.method,
        path: call.path,
        query: call.query,
        status,
        at: call.at,
        charged,
      });
    },
    send(call, status, contentType, body, charged = false) {
      replies.logCall(call, status, charged);
      replies.deliver(call, () => {
        call.res.writeHead(status, {
          ...call.headers,
          'Content-Type': contentType,
          'Content-Length': Buffer.byteLength(body),
        });
        call.res.end(body);
      });
    },
    deliver(call, write) {
      const due = (): void => {
        // A timer may wake a little early: never answer before the latency has passed.
        const wait = call.deliverAt - performance.now();
        if (wait > 0) return deps.later(wait, due);
        if (deps.holdIfHeld(due)) return;
        if (!call.res.destroyed) write();
      };
      due();
    },
    fail(call, p) {
      replies.send(call, p.status, PROBLEM_TYPE, problemBody(p, deps.baseUrl(), call.path, call.requestId));
    },
  };
  return replies;
}
