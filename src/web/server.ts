import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { dispatch, type ScriptoriumApp } from '../core/app';
import { eventNames } from '../shared/contract';
import type { AppErrorData } from '../shared/errors';
import { downloadsOnly } from './downloads-only';

export interface WebServerOptions {
  app: ScriptoriumApp;
  /** 0 picks a free port. Always 127.0.0.1. */
  port: number;
  /** The built renderer (out/renderer); without it only the API is served. */
  rendererDir?: string;
  /** Default: 32 random bytes. */
  token?: string;
  /** Largest request body accepted, in bytes. Default 16 MiB (a paste of 200,000 sources). */
  maxBodyBytes?: number;
}

export interface RunningWebServer {
  /** The one address to open, http://127.0.0.1:PORT/s/TOKEN/: the whole app lives under it. */
  url: string;
  /** http://127.0.0.1:PORT */
  origin: string;
  token: string;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 16 * 1024 * 1024;
/** A comment line now and then keeps proxies and browsers from closing a quiet event stream. */
const HEARTBEAT_MS = 15_000;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** The same policy as the desktop window's: no inline script, nothing from elsewhere. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/**
 * Browser mode: the renderer and the contract over HTTP and server-sent events, on 127.0.0.1 only.
 * The per-run token is a capability in the path: the whole app lives under /s/TOKEN/ (the page,
 * its assets, api/command/NAME, api/events, api/download/ID), and the page only ever asks for
 * addresses relative to it. A browser sends a path only to the server it belongs to, so no other
 * server on this computer ever sees the token, as it would a cookie (cookies are not kept apart by
 * port). Scripts may instead send it as `Authorization: Bearer TOKEN` to /api/.... Every request
 * must also name this server in Host (against DNS rebinding) and, when it sends one, in Origin
 * (against cross-site requests). Commands go through the same dispatcher as Electron's IPC.
 */
export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const streams = new Set<ServerResponse>();
  const handlers = downloadsOnly(options.app.handlers);
  let origins: ReadonlySet<string> = new Set();
  let hosts: ReadonlySet<string> = new Set();

  const server = createServer((request, response) => {
    void handle(request, response).catch(() => {
      if (!response.headersSent) refuse(response, 500, REFUSALS.failed);
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://placeholder');
    if (!hosts.has(request.headers.host ?? '')) return refuse(response, 403, REFUSALS.foreignHost);
    const origin = request.headers.origin;
    if (origin !== undefined && !origins.has(origin)) return refuse(response, 403, REFUSALS.foreignOrigin);

    const access = accessOf(url.pathname, bearerToken(request), token);
    // A page opened without its token gets a page saying where the way in is; a script, the typed error.
    const api = API_PATH.test(url.pathname);
    if (access.kind === 'none')
      return api ? refuse(response, 401, REFUSALS.noToken) : refusePage(response, 401);
    if (access.kind === 'wrong')
      return api ? refuse(response, 403, REFUSALS.wrongToken) : refusePage(response, 403);
    if (access.kind === 'folder') {
      // Relative addresses resolve against the folder only with its trailing slash.
      response.writeHead(308, { location: `${url.pathname}/`, 'referrer-policy': 'no-referrer' });
      response.end();
      return;
    }
    const path = access.path;
    const command = /^\/api\/command\/([A-Za-z]+)$/.exec(path)?.[1];
    if (command !== undefined) return runCommand(request, response, command);
    if (path === '/api/events' && request.method === 'GET') return streamEvents(response);
    const download = /^\/api\/download\/([0-9a-f-]{36})$/.exec(path)?.[1];
    if (download !== undefined && request.method === 'GET') return sendDownload(response, download);
    if (request.method === 'GET' && options.rendererDir !== undefined) {
      return serveFile(response, options.rendererDir, path);
    }
    refuse(response, 404, REFUSALS.notFound);
  }

  async function runCommand(request: IncomingMessage, response: ServerResponse, name: string): Promise<void> {
    if (request.method !== 'POST') return refuse(response, 405, REFUSALS.notPosted);
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
      return refuse(response, 415, REFUSALS.notJsonType);
    }
    const body = await readBody(request, maxBody);
    if (body === 'too large') {
      return refuse(response, 413, {
        code: 'invalid_input',
        message: `The request is larger than the ${maxBody} bytes Scriptorium accepts; nothing was done.`,
      });
    }
    let input: unknown;
    try {
      input = JSON.parse(body);
    } catch {
      return refuse(response, 400, REFUSALS.notJson);
    }
    reply(response, 200, await dispatch(handlers, name, input));
  }

  function streamEvents(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    response.write(': connected\n\n');
    streams.add(response);
    const heartbeat = setInterval(() => response.write(': still here\n\n'), HEARTBEAT_MS).unref();
    const unsubscribe = eventNames.map((name) =>
      options.app.on(name, (payload) =>
        response.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`),
      ),
    );
    response.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe.forEach((stop) => stop());
      streams.delete(response);
    });
  }

  async function sendDownload(response: ServerResponse, exportId: string): Promise<void> {
    const file = options.app.download(exportId);
    if (file === undefined) return refuse(response, 404, REFUSALS.noSuchExport);
    const { size } = await stat(file.path);
    response.writeHead(200, {
      'content-type': file.contentType ?? 'application/zip',
      'content-length': size,
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      'cache-control': 'no-store',
    });
    createReadStream(file.path).pipe(response);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  origins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/s/${token}/`,
    origin,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What a request may reach: `path` inside the app (its private folder, or /api/... with the bearer
 * token), `folder` for the private folder named without its trailing slash, or nothing.
 */
type Access = { kind: 'app'; path: string } | { kind: 'folder' } | { kind: 'none' } | { kind: 'wrong' };

function accessOf(pathname: string, bearer: string | undefined, token: string): Access {
  const inFolder = /^\/s\/([^/]*)(\/.*)?$/.exec(pathname);
  if (inFolder !== null) {
    if (!sameSecret(inFolder[1] ?? '', token)) return { kind: 'wrong' };
    return inFolder[2] === undefined ? { kind: 'folder' } : { kind: 'app', path: inFolder[2] };
  }
  if (bearer === undefined) return { kind: 'none' };
  return sameSecret(bearer, token) ? { kind: 'app', path: pathname } : { kind: 'wrong' };
}

/** Addresses of the API, with the token in the path or as a bearer token. */
const API_PATH = /^\/(s\/[^/]*\/)?api\//;

/**
 * What browser mode itself refuses, as the typed error of src/shared/errors.ts (with the HTTP
 * status that fits, given where each is answered): the renderer's transport rebuilds a
 * ContractError from it. Commands the app refuses answer 200 with their envelope, as over IPC.
 */
const REFUSALS = {
  foreignHost: {
    code: 'access_refused',
    message: 'Scriptorium answers only requests addressed to 127.0.0.1 or localhost at its own port.',
  },
  foreignOrigin: {
    code: 'access_refused',
    message: "Scriptorium refuses requests from another site's pages.",
  },
  noToken: {
    code: 'access_refused',
    message:
      'This needs the private address `scriptorium ui` printed (or its token, as Authorization: Bearer).',
  },
  wrongToken: {
    code: 'access_refused',
    message:
      'This address is not the one `scriptorium ui` printed for this run (it changes with every start): open the address it printed.',
  },
  notFound: { code: 'invalid_input', message: 'There is nothing at this address.' },
  noSuchExport: {
    code: 'invalid_input',
    message:
      'This export is no longer here (exports last as long as `scriptorium ui`): export the job again.',
  },
  notPosted: { code: 'invalid_input', message: 'Commands are sent with POST.' },
  notJsonType: { code: 'invalid_input', message: 'Commands are sent as application/json.' },
  notJson: { code: 'invalid_input', message: 'The request is not JSON; nothing was done.' },
  badPath: { code: 'invalid_input', message: 'This address cannot be read.' },
  failed: {
    code: 'internal',
    message:
      "Scriptorium's server failed on this request. Progress is saved; please report this if it happens again.",
  },
} as const satisfies Record<string, AppErrorData>;

/** A page without script for a request without its token: it says where the way in is. */
const REFUSAL_PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Scriptorium</title></head>
  <body>
    <h1>Scriptorium</h1>
    <p>This address needs the private address that <code>scriptorium ui</code> printed when it started
    (it ends in <code>/s/</code> and a long token, and changes with every start). Open that one.</p>
  </body>
</html>
`;

function refusePage(response: ServerResponse, status: 401 | 403): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(REFUSAL_PAGE),
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
  response.end(REFUSAL_PAGE);
}

function refuse(response: ServerResponse, status: number, error: AppErrorData): void {
  reply(response, status, error);
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  response.end(text);
}

async function serveFile(response: ServerResponse, root: string, pathname: string): Promise<void> {
  let relative: string;
  try {
    relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
  } catch {
    return refuse(response, 400, REFUSALS.badPath);
  }
  const path = normalize(join(root, relative));
  if (!path.startsWith(normalize(root) + sep)) return refuse(response, 404, REFUSALS.notFound);
  let content: Buffer;
  try {
    content = await readFile(path);
  } catch {
    return refuse(response, 404, REFUSALS.notFound);
  }
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
    'content-length': content.length,
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
  response.end(content);
}

function bearerToken(request: IncomingMessage): string | undefined {
  const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
  return match?.[1];
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The body as text, or 'too large' as soon as it passes the limit (the rest is not read). */
async function readBody(request: IncomingMessage, maxBytes: number): Promise<string> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) {
    request.resume();
    return 'too large';
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      request.resume();
      return 'too large';
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
