import { Pool } from 'undici';
import type { ResponseHeaders } from './headers';
import { endpointPath, type Endpoint } from './types';

/**
 * Why an attempt got no usable answer. `unreachable`: nothing was sent (no connection could be made,
 * or the request could not be written at all);
 * `timeout`, `network` (the connection broke) and `aborted` may come after the request was sent.
 */
export interface AttemptFailure {
  /** `too_large`: the body passed MAX_BODY_BYTES and was not read further. */
  kind: 'timeout' | 'network' | 'unreachable' | 'aborted' | 'too_large';
  /** Plain language; names the host at most, never the request headers. */
  message: string;
}

/**
 * The largest body read, 64 MiB: far above any page the service sends (a transcript of many hours
 * with its metadata is a few MB), and far below what would strain the machine. A service that keeps
 * streaming is cut off there instead of filling the memory.
 */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** The caller cancelled, before or during an attempt. */
export const CANCELLED: AttemptFailure = { kind: 'aborted', message: 'The request was cancelled' };

/** The outcome of one HTTP attempt. Transport problems are values here, never exceptions. */
export type Attempt =
  | { type: 'answered'; status: number; headers: ResponseHeaders; body: string }
  /** A status arrived but its body did not (cut off, timed out or aborted). */
  | { type: 'body-failed'; status: number; headers: ResponseHeaders; failure: AttemptFailure }
  | { type: 'no-answer'; failure: AttemptFailure };

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  timeoutMs: number;
  connections: number;
}

/** undici's own timeouts (left at their defaults) count as timeouts too; its connect timeout is a no-connection failure. */
const UNDICI_TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * Failures that happen before a connection exists (refused, unknown or unreachable host, no secure
 * channel): the request never left, so it cannot have been charged.
 */
const NO_CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
]);

/**
 * undici refuses, before writing anything, a request it cannot send: a header value holding a line
 * break or a character beyond Latin-1 (a pasted key, say). Nothing left, so nothing can be charged.
 */
const NOT_SENDABLE_CODE = 'UND_ERR_INVALID_ARG';

/** The system or undici code of an error, or of the error that caused it. */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  if ('code' in error && typeof error.code === 'string') return error.code;
  return 'cause' in error ? errorCode(error.cause) : undefined;
}

/** Endpoints that list videos: they get connections of their own (see Transport). */
const LIST_ENDPOINTS: ReadonlySet<string> = new Set([
  'playlist/videos',
  'channel/videos',
  'search',
  'channel/search',
]);
/** Connections kept for list pages: a walk reads one page at a time. */
const LIST_CONNECTIONS = 2;

/**
 * Sends GET requests to one service over keep-alive pools. List pages have a pool of their own, so
 * that the walk never waits behind transcript requests for a connection (it would starve the fetch
 * of new videos). Each attempt has its own deadline covering headers and body; the caller's signal
 * cancels it at any point.
 */
export class Transport {
  readonly #pool: Pool;
  readonly #listPool: Pool;
  /** Base path with a trailing slash, e.g. "/" or "/proxy/". */
  readonly #basePath: string;
  readonly #host: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;

  constructor(options: TransportOptions) {
    const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.#pool = new Pool(base.origin, { connections: options.connections });
    this.#listPool = new Pool(base.origin, { connections: LIST_CONNECTIONS });
    this.#basePath = base.pathname;
    this.#host = base.host;
    this.#headers = {
      authorization: `Bearer ${options.apiKey}`,
      'user-agent': options.userAgent,
      accept: 'application/json',
    };
    this.#timeoutMs = options.timeoutMs;
  }

  async get(endpoint: Endpoint, query: URLSearchParams, signal?: AbortSignal): Promise<Attempt> {
    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort(new Error('timeout'));
    }, this.#timeoutMs);
    const forwardAbort = (): void => deadline.abort(signal?.reason);
    signal?.addEventListener('abort', forwardAbort, { once: true });
    if (signal?.aborted) forwardAbort();

    const failure = (error: unknown): AttemptFailure => {
      if (signal?.aborted) return CANCELLED;
      const code = errorCode(error);
      if (code === NOT_SENDABLE_CODE) {
        const reason = error instanceof Error ? error.message : code;
        return { kind: 'unreachable', message: `The request could not be sent to ${this.#host} (${reason})` };
      }
      if (code !== undefined && NO_CONNECTION_CODES.has(code)) {
        return { kind: 'unreachable', message: `Could not reach the service at ${this.#host} (${code})` };
      }
      if (timedOut || UNDICI_TIMEOUT_CODES.has(code ?? '')) {
        return {
          kind: 'timeout',
          message: `The service at ${this.#host} did not answer within ${this.#timeoutMs} ms`,
        };
      }
      const reason = code ?? (error instanceof Error ? error.message : 'unknown error');
      return { kind: 'network', message: `The connection to ${this.#host} broke (${reason})` };
    };

    try {
      let response;
      try {
        const pool = LIST_ENDPOINTS.has(endpoint) ? this.#listPool : this.#pool;
        response = await pool.request({
          method: 'GET',
          path: `${this.#basePath}${endpointPath(endpoint)}?${query.toString()}`,
          headers: this.#headers,
          signal: deadline.signal,
        });
      } catch (error) {
        return { type: 'no-answer', failure: failure(error) };
      }
      const { statusCode: status, headers } = response;
      try {
        // Always consume the body, so that undici can reuse the connection and never
        // reports an unhandled stream error.
        const body = await readAtMost(response.body, MAX_BODY_BYTES);
        if (body !== undefined) return { type: 'answered', status, headers, body };
        response.body.destroy();
        const tooLarge = `The answer from ${this.#host} was larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`;
        return { type: 'body-failed', status, headers, failure: { kind: 'too_large', message: tooLarge } };
      } catch (error) {
        response.body.destroy();
        return { type: 'body-failed', status, headers, failure: failure(error) };
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forwardAbort);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.#pool.close(), this.#listPool.close()]);
  }
}

/** The body as text, or undefined as soon as it passes `limit` bytes (the rest is not read). */
async function readAtMost(body: AsyncIterable<Buffer>, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
