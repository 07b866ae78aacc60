import { z } from 'zod';
import type { KeyStatus } from '../../shared/contract';
import { checkApiKey, sameServiceAddress } from '../../shared/service-access';
import { AppError } from './errors';

/**
 * The API key with the service address it was given with. The key is only ever sent there: changing
 * the address asks for the key again, so no command can send it to an address the user did not give
 * with it. `serviceUrl` is null for a key whose address is unknown (one saved by an earlier version).
 */
export interface BoundKey {
  key: string;
  serviceUrl: string | null;
  /** Given in TRANSCRIPT_API_KEY, not saved by the user: never called a saved key. */
  fromEnvironment?: boolean;
}

const SavedKeySchema = z.object({ key: z.string().min(1), serviceUrl: z.string() });

/** A key and its address as a store keeps them on disk (encrypted by the desktop app's vault). */
export function serializeBoundKey(bound: BoundKey): string {
  return JSON.stringify(bound);
}

/**
 * The text serializeBoundKey wrote, as a key and its address. Earlier versions kept the bare key:
 * its address is unknown, so it is not sent anywhere until it is entered again.
 */
export function parseBoundKey(text: string): BoundKey {
  try {
    const saved = SavedKeySchema.safeParse(JSON.parse(text));
    if (saved.success) return saved.data;
  } catch {
    // Not JSON: a bare key.
  }
  return { key: text, serviceUrl: null };
}

/**
 * Where a face keeps the API key: the environment (CLI), safeStorage (desktop), memory (browser
 * mode). Only the service client reads it; statuses, views, events and logs never hold it.
 */
export interface KeyStore {
  /** The key and its address, for building the service client; undefined when none is set. */
  read(): BoundKey | undefined;
  /**
   * Whether a key is set and where it is kept, in the words Settings shows beside the key: what to
   * do about a missing one is said by the face that shows it elsewhere (openSession's hint).
   */
  status(): KeyStatus;
  /** Keeps a new key for `serviceUrl`; throws AppError where the key cannot be changed here. */
  save(key: string, serviceUrl: string): KeyStatus;
  remove(): KeyStatus;
}

/** Refuses, before anything is kept or sent, a key that no request could carry. */
export function assertSendableKey(key: string): void {
  const problem = checkApiKey(key);
  if (problem !== null) throw new AppError('invalid_input', `${problem} Nothing was sent.`);
}

/**
 * The key to send to `serviceUrl`, or why there is none: no key, or a key given with another address.
 * The one place that decides whether the key may leave for an address.
 */
export function keyFor(keys: KeyStore, serviceUrl: string): { key: string } | { missing: string } {
  const bound = keys.read();
  if (bound === undefined) return { missing: keys.status().message };
  if (bound.serviceUrl !== null && sameServiceAddress(bound.serviceUrl, serviceUrl))
    return { key: bound.key };
  const which = bound.fromEnvironment ? 'The key from TRANSCRIPT_API_KEY' : 'The key';
  if (bound.serviceUrl === null) {
    const given = bound.fromEnvironment ? 'was given' : 'was saved by an earlier version';
    return { missing: `${which} ${given} without a service address, so it is sent nowhere.` };
  }
  const given = bound.fromEnvironment
    ? `is for ${bound.serviceUrl}, the address Scriptorium started with`
    : `was saved for ${bound.serviceUrl}`;
  return { missing: `${which} ${given}, so it is not sent to ${serviceUrl}.` };
}

/** The key's status as the screens show it: a key for another address counts as no key here. */
export function keyStatusFor(keys: KeyStore, serviceUrl: string | undefined): KeyStatus {
  const status = keys.status();
  if (!status.set || serviceUrl === undefined) return status;
  const usable = keyFor(keys, serviceUrl);
  return 'key' in usable ? status : { set: false, storage: null, message: usable.missing };
}

/**
 * The CLI's: TRANSCRIPT_API_KEY, read-only (a key never comes from a flag or a file), bound to the
 * CLI's own address (--base-url or TRANSCRIPT_API_BASE_URL), the only one the CLI ever uses.
 */
export function environmentKeyStore(
  serviceUrl: string | undefined,
  env: Record<string, string | undefined> = process.env,
): KeyStore {
  const key = env['TRANSCRIPT_API_KEY']?.trim() || undefined;
  const readOnly = (): never => {
    throw new AppError(
      'invalid_input',
      'The key comes from the environment variable TRANSCRIPT_API_KEY: change it there.',
    );
  };
  return {
    read: () =>
      key === undefined ? undefined : { key, serviceUrl: serviceUrl ?? null, fromEnvironment: true },
    status: () =>
      key === undefined
        ? {
            set: false,
            storage: null,
            message: 'No key is set: set the environment variable TRANSCRIPT_API_KEY to your key.',
          }
        : { set: true, storage: 'environment', message: 'The key comes from TRANSCRIPT_API_KEY.' },
    save: readOnly,
    remove: readOnly,
  };
}

/**
 * Browser mode's: the key from TRANSCRIPT_API_KEY (bound to the address `scriptorium ui` was given)
 * or entered in Settings, kept in this process's memory only and gone when it stops.
 */
export function memoryKeyStore(
  initial: { key?: string | undefined; serviceUrl?: string | undefined } = {},
): KeyStore {
  const key = initial.key?.trim() || undefined;
  let bound: BoundKey | undefined =
    key === undefined ? undefined : { key, serviceUrl: initial.serviceUrl ?? null, fromEnvironment: true };
  const status = (): KeyStatus => {
    if (bound === undefined) return { set: false, storage: null, message: 'No key is set.' };
    return bound.fromEnvironment
      ? { set: true, storage: 'environment', message: 'The key comes from TRANSCRIPT_API_KEY.' }
      : { set: true, storage: 'session', message: 'The key is kept in memory until Scriptorium stops.' };
  };
  return {
    read: () => bound,
    status,
    save(next, serviceUrl) {
      bound = { key: next.trim(), serviceUrl };
      return status();
    },
    remove() {
      bound = undefined;
      return status();
    },
  };
}
