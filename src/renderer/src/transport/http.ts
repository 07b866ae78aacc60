import {
  AnswerSchema,
  type Answer,
  type CommandName,
  type EventName,
  type EventPayload,
  type ScriptoriumApi,
} from '../../../shared/contract';
import { createApi } from '../../../shared/client';
import { AppErrorSchema, type ErrorCode } from '../../../shared/errors';

export interface HttpTransportOptions {
  /**
   * Where the API's addresses start: '' in a page served by browser mode, whose addresses are
   * relative to its private folder (/s/TOKEN/), which is the token; or http://127.0.0.1:PORT/ with `token`.
   */
  base: string;
  /** Sent as a bearer token, by clients that are not the page (scripts, tests). */
  token?: string;
}

/** How long to wait before opening the event stream again after it broke. */
const RECONNECT_MS = 1_000;

/** What a face says when browser mode's server does not answer at all. */
const UNREACHABLE_MESSAGE =
  'Scriptorium cannot be reached. If it runs in a terminal (scriptorium ui), check that it is still running, then reload this page.';

/**
 * The contract over browser mode's HTTP: commands are POSTed as JSON and answer with envelopes,
 * events arrive as server-sent events read from one streamed response (fetch rather than
 * EventSource, so the same code also runs in Node for the contract tests).
 */
export function httpApi(options: HttpTransportOptions): ScriptoriumApi & { close(): void } {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const stream = new AbortController();

  const send = async (name: CommandName, input: unknown): Promise<Answer<unknown>> => {
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(`${options.base}api/command/${name}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(input ?? {}),
      });
      body = await response.json().catch(() => undefined);
    } catch {
      // fetch rejects (a TypeError) only when no answer came: the server is gone, or the network.
      return failed('unreachable', UNREACHABLE_MESSAGE);
    }
    if (response.ok) {
      const answer = AnswerSchema.safeParse(body);
      if (answer.success) return answer.data;
      return failed(
        'internal',
        `Scriptorium's server answered the ${name} request with something it cannot read.`,
      );
    }
    // The server's own refusals carry their code; anything else (a proxy's page) is told by its status.
    const refusal = AppErrorSchema.safeParse(body);
    if (refusal.success) return { ok: false, error: refusal.data };
    return failed(
      codeForStatus(response.status),
      `Scriptorium's server refused the ${name} request (HTTP ${response.status}).`,
    );
  };

  const deliver = (event: string, data: string): void => {
    const set = listeners.get(event as EventName);
    if (set === undefined) return;
    const payload = JSON.parse(data) as never;
    for (const listener of set) listener(payload);
  };

  const readEvents = async (): Promise<void> => {
    while (!stream.signal.aborted) {
      try {
        const response = await fetch(`${options.base}api/events`, { headers, signal: stream.signal });
        if (response.body === null) throw new Error('no event stream');
        await readServerSentEvents(response.body, deliver);
      } catch {
        // The stream broke (the server restarted, the network blinked): open it again shortly.
      }
      if (!stream.signal.aborted) await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  };
  void readEvents();

  const on = <N extends EventName>(event: N, listener: (payload: EventPayload<N>) => void) => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener as (payload: never) => void);
    return () => void set.delete(listener as (payload: never) => void);
  };
  return Object.assign(createApi(send, on), { close: () => stream.abort() });
}

function failed(code: ErrorCode, message: string): Answer<never> {
  return { ok: false, error: { code, message } };
}

/** The code of a refusal that came without one, by its HTTP status. */
function codeForStatus(status: number): ErrorCode {
  if (status === 401 || status === 403) return 'access_refused';
  return status >= 500 ? 'internal' : 'invalid_input';
}

/** Parses a text/event-stream body, calling `deliver` for each complete event. */
async function readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  deliver: (event: string, data: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0) deliver(event, data.join('\n'));
      end = buffer.indexOf('\n\n');
    }
  }
}
