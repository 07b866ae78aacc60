import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dispatch, type AppHandlers, type ScriptoriumApp } from '../core/app';
import { accessOf, API_PATH, bearerToken } from './access';
import { downloadsOnly } from './downloads-only';
import { streamEvents } from './event-stream';
import { readBody } from './request-body';
import { REFUSALS, refuse, refusePage, reply, tooLarge } from './responses';
import { serveFile } from './static-files';

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
    if (command !== undefined) return runCommand(request, response, { handlers, name: command, maxBody });
    if (path === '/api/events' && request.method === 'GET')
      return streamEvents(options.app, response, streams);
    const download = /^\/api\/download\/([0-9a-f-]{36})$/.exec(path)?.[1];
    if (download !== undefined && request.method === 'GET')
      return sendDownload(options.app, response, download);
    if (request.method === 'GET' && options.rendererDir !== undefined) {
      return serveFile(response, options.rendererDir, path);
    }
    refuse(response, 404, REFUSALS.notFound);
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

/** A command: a POST of JSON within the size limit, answered with the dispatcher's envelope. */
async function runCommand(
  request: IncomingMessage,
  response: ServerResponse,
  command: { handlers: AppHandlers; name: string; maxBody: number },
): Promise<void> {
  if (request.method !== 'POST') return refuse(response, 405, REFUSALS.notPosted);
  if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
    return refuse(response, 415, REFUSALS.notJsonType);
  }
  const body = await readBody(request, command.maxBody);
  if (body.kind === 'too large') return refuse(response, 413, tooLarge(command.maxBody));
  let input: unknown;
  try {
    input = JSON.parse(body.text);
  } catch {
    return refuse(response, 400, REFUSALS.notJson);
  }
  reply(response, 200, await dispatch(command.handlers, command.name, input));
}

/** An exported file the app offers for download, as an attachment under its own name. */
async function sendDownload(app: ScriptoriumApp, response: ServerResponse, exportId: string): Promise<void> {
  const file = app.download(exportId);
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
