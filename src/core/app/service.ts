import { USER_AGENT } from '../../shared/version';
import { createClient, Pacer, type Clock, type TranscriptClient } from '../api';
import { AppError } from './errors';
import type { KeyStore } from './keys';

/** A client on the service for one run or one question, with the pacer its rate-limit headers feed. */
export interface ServiceSession {
  client: TranscriptClient;
  pacer: Pacer;
  /** host[:port], for messages (never the key). */
  host: string;
  close(): Promise<void>;
}

export interface SessionOptions {
  keys: KeyStore;
  /** The service's address, or undefined when none is set. */
  serviceUrl: string | undefined;
  /** How to set the address, in this face's words (a flag, a setting). */
  missingServiceUrlHint: string;
  clock: Clock;
  requestTimeoutMs?: number;
  /** Keep-alive connections; enough for the most requests a job may have in flight. */
  connections: number;
}

/** Opens a session with the key and address in force; throws AppError, before any request, when one is missing. */
export function openSession(options: SessionOptions): ServiceSession {
  const apiKey = options.keys.read();
  if (apiKey === undefined) {
    throw new AppError('no_key', `${options.keys.status().message} Nothing was sent.`);
  }
  if (options.serviceUrl === undefined) {
    throw new AppError(
      'invalid_input',
      `No service address is set: ${options.missingServiceUrlHint} Nothing was sent.`,
    );
  }
  let host: string;
  try {
    host = new URL(options.serviceUrl).host;
  } catch {
    throw new AppError(
      'invalid_input',
      `The service address "${options.serviceUrl}" is not a URL. Nothing was sent.`,
    );
  }
  const pacer = new Pacer({ clock: options.clock });
  const client = createClient({
    baseUrl: options.serviceUrl,
    apiKey,
    userAgent: USER_AGENT,
    clock: options.clock,
    ...(options.requestTimeoutMs !== undefined && { timeoutMs: options.requestTimeoutMs }),
    connections: options.connections,
    onRateLimit: (signal) => pacer.observe(signal),
  });
  return { client, pacer, host, close: () => client.close() };
}
