import type { ServerResponse } from 'node:http';
import type { AppErrorData } from '../shared/errors';

/** The same policy as the desktop window's: no inline script, nothing from elsewhere. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/**
 * What browser mode itself refuses, as the typed error of src/shared/errors.ts (with the HTTP
 * status that fits, given where each is answered): the renderer's transport rebuilds a
 * ContractError from it. Commands the app refuses answer 200 with their envelope, as over IPC.
 */
export const REFUSALS = {
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

/** The refusal of a body past the limit, which names the limit. */
export function tooLarge(maxBytes: number): AppErrorData {
  return {
    code: 'invalid_input',
    message: `The request is larger than the ${maxBytes} bytes Scriptorium accepts; nothing was done.`,
  };
}

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

export function refusePage(response: ServerResponse, status: 401 | 403): void {
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

export function refuse(response: ServerResponse, status: number, error: AppErrorData): void {
  reply(response, status, error);
}

/** `body` as JSON, never cached or sniffed. */
export function reply(response: ServerResponse, status: number, body: unknown): void {
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
