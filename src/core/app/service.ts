import { checkServiceAddress, citedServiceAddress } from '../../shared/service-access';
import { USER_AGENT } from '../../shared/version';
import { API_VERSION, createClient, Pacer, type Clock, type TranscriptClient } from '../api';
import { AppError } from './errors';
import { assertSendableKey, keyFor, type KeyStore } from './keys';

/** A client on the service for one run or one question, with the pacer its rate-limit headers feed. */
export interface ServiceSession {
  client: TranscriptClient;
  pacer: Pacer;
  /** host[:port], for messages (never the key). */
  host: string;
  /** The service as a corpus names it: its address (shared/service-access.ts) and API version. */
  service: { address: string; apiVersion: string };
  close(): Promise<void>;
}

export interface SessionOptions {
  keys: KeyStore;
  /** The service's address, or undefined when none is set. */
  serviceUrl: string | undefined;
  /** How to set the address, in this face's words (a flag, a setting). */
  missingServiceUrlHint: string;
  /** How to give a usable key, in this face's words ('' when the key store's words say it). */
  missingKeyHint: string;
  clock: Clock;
  requestTimeoutMs?: number;
  /** Keep-alive connections; enough for the most requests a job may have in flight. */
  connections: number;
}

/**
 * Opens a session with the key and address in force. Throws AppError, before any request, when
 * either is missing, when the address is not one Scriptorium sends a key to, and when the key was
 * given with another address (the key only ever goes where the user sent it).
 */
export function openSession(options: SessionOptions): ServiceSession {
  const { serviceUrl } = options;
  const noKey = (missing: string): string => [missing, options.missingKeyHint].filter(Boolean).join(' ');
  if (serviceUrl === undefined) {
    // Both missing: both are said, the address first, since a key is saved for an address.
    const keyToo = options.keys.read() === undefined ? ` ${noKey(options.keys.status().message)}` : '';
    throw new AppError(
      'invalid_input',
      `No service address is set: ${options.missingServiceUrlHint}${keyToo} Nothing was sent.`,
    );
  }
  const addressProblem = checkServiceAddress(serviceUrl);
  if (addressProblem !== null) throw new AppError('invalid_input', `${addressProblem} Nothing was sent.`);
  const usable = keyFor(options.keys, serviceUrl);
  if ('missing' in usable) throw new AppError('no_key', `${noKey(usable.missing)} Nothing was sent.`);
  const apiKey = usable.key;
  assertSendableKey(apiKey);
  const host = new URL(serviceUrl).host;
  const pacer = new Pacer({ clock: options.clock });
  const client = createClient({
    baseUrl: serviceUrl,
    apiKey,
    userAgent: USER_AGENT,
    clock: options.clock,
    ...(options.requestTimeoutMs !== undefined && { timeoutMs: options.requestTimeoutMs }),
    connections: options.connections,
    onRateLimit: (signal) => pacer.observe(signal),
  });
  const service = { address: citedServiceAddress(serviceUrl), apiVersion: API_VERSION };
  return { client, pacer, host, service, close: () => client.close() };
}
