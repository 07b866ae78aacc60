import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY, REFUSALS, refuse } from './responses';

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

/** A file of the built renderer under `root`, under the CSP; nothing outside `root`. */
export async function serveFile(response: ServerResponse, root: string, pathname: string): Promise<void> {
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
