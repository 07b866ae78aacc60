import { defaultDataDir } from '../core/store';
import type { Connection } from '../core/app';

/** Where the database lives: --data-dir, then SCRIPTORIUM_DATA_DIR, then the desktop app's folder. */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return flag ?? env['SCRIPTORIUM_DATA_DIR'] ?? defaultDataDir();
}

/** A usable connection, or what is missing in plain words. */
export type ConnectionCheck = { connection: Connection } | { problem: string };

/**
 * The service connection: the key only from TRANSCRIPT_API_KEY (never a flag, so it stays out of
 * shell history and process lists), the address from --base-url or TRANSCRIPT_API_BASE_URL.
 * Returns the problem in plain words when something is missing.
 */
export function resolveConnection(
  baseUrlFlag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ConnectionCheck {
  const apiKey = env['TRANSCRIPT_API_KEY']?.trim();
  if (!apiKey) {
    return {
      problem:
        'No API key: set the environment variable TRANSCRIPT_API_KEY to your key and run the command again. Nothing was sent.',
    };
  }
  const baseUrl = baseUrlFlag ?? env['TRANSCRIPT_API_BASE_URL'];
  if (!baseUrl) {
    return {
      problem:
        'No service address: pass --base-url URL or set TRANSCRIPT_API_BASE_URL, then run the command again. Nothing was sent.',
    };
  }
  if (!isHttpUrl(baseUrl)) {
    return {
      problem: `The service address "${baseUrl}" is not an http:// or https:// address. Fix --base-url or TRANSCRIPT_API_BASE_URL; nothing was sent.`,
    };
  }
  return { connection: { baseUrl, apiKey } };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
