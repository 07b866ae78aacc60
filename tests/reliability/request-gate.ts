import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP gate between a process under test and the simulator, to hold the process at a known point
 * without guessing at timings: every request is forwarded, except that transcript requests wait at
 * the gate while it is closed. The test sees how many transcript requests the process has sent and
 * how many wait, and lets them through when it chooses. Give each process a gate of its own to know
 * which one sent what.
 */
export interface RequestGate {
  /** The service address to give the process, in place of the simulator's. */
  url: string;
  /** Transcript requests received so far, waiting or let through. */
  received(): number;
  /** Transcript requests waiting at the gate now. */
  waiting(): number;
  /** Resolves once `count` transcript requests wait at the gate. */
  whenWaiting(count: number): Promise<void>;
  /** Lets the requests waiting now through; later ones wait too, while the gate stays closed. */
  releaseWaiting(): void;
  /** Lets every request through from now on, the waiting ones first. */
  open(): void;
  close(): Promise<void>;
}

const TRANSCRIPT_PATH = '/api/v2/transcript';

/** Starts a closed gate on 127.0.0.1 in front of `target` (the simulator's url). */
export async function startRequestGate(target: string): Promise<RequestGate> {
  let opened = false;
  let received = 0;
  /** The requests waiting, each as the function that sends it on. */
  let held: Array<() => void> = [];
  let watchers: Array<{ count: number; resolve: () => void }> = [];

  const notifyWatchers = (): void => {
    const reached = watchers.filter((watcher) => held.length >= watcher.count);
    watchers = watchers.filter((watcher) => held.length < watcher.count);
    for (const watcher of reached) watcher.resolve();
  };

  const server = createServer((req, res) => {
    const forward = (): void => forwardTo(target, req.method ?? 'GET', req.url ?? '/', req.headers, res);
    if (!req.url?.startsWith(TRANSCRIPT_PATH)) return forward();
    received += 1;
    if (opened) return forward();
    held.push(forward);
    // A process that goes away (killed, or cutting its requests) takes its waiting request with it.
    res.once('close', () => {
      held = held.filter((waiting) => waiting !== forward);
    });
    notifyWatchers();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const releaseWaiting = (): void => {
    const releasing = held;
    held = [];
    for (const forward of releasing) forward();
  };

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    waiting: () => held.length,
    whenWaiting: (count) =>
      new Promise((resolve) => {
        watchers.push({ count, resolve });
        notifyWatchers();
      }),
    releaseWaiting,
    open() {
      opened = true;
      releaseWaiting();
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Sends one request on to the target and its answer back; either side going away ends both. */
function forwardTo(
  target: string,
  method: string,
  path: string,
  headers: Record<string, string | string[] | undefined>,
  res: ServerResponse,
): void {
  if (res.destroyed) return;
  const upstream = request(new URL(path, target), { method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.destroy());
  res.once('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  upstream.end();
}
