import type { Endpoint, ChargeDetail } from './endpoints';
import type { FaultTarget } from './faults';
import type { FaultRule } from './index';
import { problem } from './problems';
import { JSON_TYPE, type Call, type Replies } from './replies';

const MALFORMED_BODY = '{"video_id": "dQw4w9WgXcQ", "transcript": [{"text": "cut off';
const WRONG_SHAPE_BODY = '{"ok":true,"transcript":42,"results":42,"channel_id":42}';

/** Seconds a Retry-After value (seconds or an HTTP date) asks for, or undefined when unreadable. */
function retryAfterSeconds(value: string, now: number): number | undefined {
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** A fault rule that fired, with what it needs of the call it answers. */
export interface FiredFault {
  call: Call;
  rule: FaultRule;
  endpoint: Endpoint;
  target: FaultTarget;
  now: number;
  /** Charges the call's key for this endpoint. */
  charge(detail: ChargeDetail): void;
  /** The normal answer, which a 'delay' gives once it has waited. */
  answer(): void;
}

/** Answers as the fault rule says; a fault that answers 200 costs a credit where the endpoint is paid. */
export function answerWithFault(replies: Replies, fired: FiredFault): void {
  const { call, rule, endpoint, target, now, charge, answer } = fired;
  const chargeFaulty200 = (): boolean => {
    const { endpoint: _endpoint, ...detail } = target;
    if (endpoint.paid) charge(detail);
    return endpoint.paid;
  };
  switch (rule.kind) {
    case 'status': {
      const status = rule.status ?? 500;
      const retryAfter = rule.retryAfter === undefined ? undefined : retryAfterSeconds(rule.retryAfter, now);
      if (rule.retryAfter !== undefined) call.headers['Retry-After'] = rule.retryAfter;
      return replies.fail(
        call,
        problem(status, `Injected fault: status ${status}.`, retryAfter === undefined ? {} : { retryAfter }),
      );
    }
    case 'malformed':
      return replies.send(call, 200, JSON_TYPE, MALFORMED_BODY, chargeFaulty200());
    case 'wrong-shape':
      return replies.send(call, 200, JSON_TYPE, WRONG_SHAPE_BODY, chargeFaulty200());
    case 'truncated': {
      replies.logCall(call, 200, chargeFaulty200());
      const partial = MALFORMED_BODY;
      return replies.deliver(call, () => {
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
      return answer();
    case 'hang':
      // Never answered: close() ends the socket.
      return replies.logCall(call, 0, false);
  }
}
