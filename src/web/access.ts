import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * What a request may reach: `path` inside the app (its private folder, or /api/... with the bearer
 * token), `folder` for the private folder named without its trailing slash, or nothing.
 */
export type Access =
  { kind: 'app'; path: string } | { kind: 'folder' } | { kind: 'none' } | { kind: 'wrong' };

export function accessOf(pathname: string, bearer: string | undefined, token: string): Access {
  const inFolder = /^\/s\/([^/]*)(\/.*)?$/.exec(pathname);
  if (inFolder !== null) {
    if (!sameSecret(inFolder[1] ?? '', token)) return { kind: 'wrong' };
    return inFolder[2] === undefined ? { kind: 'folder' } : { kind: 'app', path: inFolder[2] };
  }
  if (bearer === undefined) return { kind: 'none' };
  return sameSecret(bearer, token) ? { kind: 'app', path: pathname } : { kind: 'wrong' };
}

/** Addresses of the API, with the token in the path or as a bearer token. */
export const API_PATH = /^\/(s\/[^/]*\/)?api\//;

export function bearerToken(request: IncomingMessage): string | undefined {
  const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
  return match?.[1];
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
