import type { ServerResponse } from 'node:http';
import type { ScriptoriumApp } from '../core/app';
import { eventNames } from '../shared/contract';

/** A comment line now and then keeps proxies and browsers from closing a quiet event stream. */
const HEARTBEAT_MS = 15_000;

/**
 * Every event of the app, as server-sent events (`event: NAME`, `data: JSON`), on `response` until
 * the client goes; `open` holds the streams under way, so that closing the server can end them.
 */
export function streamEvents(app: ScriptoriumApp, response: ServerResponse, open: Set<ServerResponse>): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  });
  response.write(': connected\n\n');
  open.add(response);
  const heartbeat = setInterval(() => response.write(': still here\n\n'), HEARTBEAT_MS).unref();
  const unsubscribe = eventNames.map((name) =>
    app.on(name, (payload) => response.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`)),
  );
  response.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe.forEach((stop) => stop());
    open.delete(response);
  });
}
