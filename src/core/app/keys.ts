import type { KeyStatus } from '../../shared/contract';
import { AppError } from './errors';

/**
 * Where a face keeps the API key: the environment (CLI), safeStorage (desktop), memory (browser
 * mode). Only the service client reads it; statuses, views, events and logs never hold it.
 */
export interface KeyStore {
  /** The key, for building the service client; undefined when none is set. */
  read(): string | undefined;
  status(): KeyStatus;
  /** Keeps a new key; throws AppError where the key cannot be changed here. */
  save(key: string): KeyStatus;
  remove(): KeyStatus;
}

/** The CLI's: TRANSCRIPT_API_KEY, read-only (a key never comes from a flag or a file). */
export function environmentKeyStore(env: Record<string, string | undefined> = process.env): KeyStore {
  const read = (): string | undefined => env['TRANSCRIPT_API_KEY']?.trim() || undefined;
  const readOnly = (): never => {
    throw new AppError(
      'invalid_input',
      'The key comes from the environment variable TRANSCRIPT_API_KEY: change it there.',
    );
  };
  return {
    read,
    status: () =>
      read() === undefined
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
 * Browser mode's: the key from TRANSCRIPT_API_KEY or entered in Settings, kept in this process's
 * memory only and gone when it stops.
 */
export function memoryKeyStore(initial: string | undefined): KeyStore {
  let key = initial?.trim() || undefined;
  let fromEnvironment = key !== undefined;
  const status = (): KeyStatus => {
    if (key === undefined)
      return { set: false, storage: null, message: 'No key is set: enter yours in Settings.' };
    return fromEnvironment
      ? { set: true, storage: 'environment', message: 'The key comes from TRANSCRIPT_API_KEY.' }
      : { set: true, storage: 'session', message: 'The key is kept in memory until Scriptorium stops.' };
  };
  return {
    read: () => key,
    status,
    save(next) {
      key = next.trim();
      fromEnvironment = false;
      return status();
    },
    remove() {
      key = undefined;
      fromEnvironment = false;
      return status();
    },
  };
}
