import {
  defaultDataDir,
  environmentKeyStore,
  localApi,
  openApp,
  type AppOptions,
  type KeyStore,
  type ScriptoriumApp,
} from '../core/app';
import type { ScriptoriumApi } from '../shared/contract';
import { checkApiKey, checkServiceAddress } from '../shared/service-access';
import { CliExit, ExitCode } from './exit';
import { cliHost } from './host';

/**
 * Where the database lives: --data-dir, then SCRIPTORIUM_DATA_DIR, then the desktop app's folder.
 * An empty value counts as not set (an empty SCRIPTORIUM_DATA_DIR= would otherwise mean the current folder).
 */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return flag || env['SCRIPTORIUM_DATA_DIR'] || defaultDataDir();
}

/**
 * The service's address: --base-url, then TRANSCRIPT_API_BASE_URL; undefined when neither is set
 * (the app then says how to set it, before any request). An address Scriptorium would not send a
 * key to (not https, nor http on this computer) is refused up front.
 */
export function resolveServiceUrl(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const url = flag || env['TRANSCRIPT_API_BASE_URL'];
  if (url === undefined || url === '') return undefined;
  const problem = checkServiceAddress(url);
  if (problem !== null) {
    throw new CliExit(
      ExitCode.badInput,
      `${problem} Fix --base-url or TRANSCRIPT_API_BASE_URL; nothing was sent.`,
    );
  }
  return url;
}

/**
 * TRANSCRIPT_API_KEY, bound to the CLI's address. A key no request could carry (a line break, a
 * character pasted from a web page) is refused before anything is created or sent.
 */
export function resolveKeyStore(
  serviceUrl: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): KeyStore {
  const key = env['TRANSCRIPT_API_KEY']?.trim();
  const problem = key ? checkApiKey(key) : null;
  if (problem !== null) {
    throw new CliExit(ExitCode.badInput, `${problem} Fix TRANSCRIPT_API_KEY; nothing was sent.`);
  }
  return environmentKeyStore(serviceUrl, env);
}

export interface CliAppOptions {
  dataDir?: string;
  baseUrl?: string;
  /** Default: TRANSCRIPT_API_KEY. */
  keys?: KeyStore;
  /** Hears how far indexing an older database's transcripts for search has come (AppOptions). */
  onIndexing?: AppOptions['onIndexing'];
}

/**
 * Runs `use` with the contract over the database of --data-dir: the key from TRANSCRIPT_API_KEY
 * (never a flag, so it stays out of shell history and process lists), the address from --base-url
 * or TRANSCRIPT_API_BASE_URL. The CLI runs its own job and no runner: queued jobs are the
 * desktop app's.
 */
export async function withApp<T>(
  options: CliAppOptions,
  use: (api: ScriptoriumApi, app: ScriptoriumApp) => Promise<T>,
): Promise<T> {
  const serviceUrl = resolveServiceUrl(options.baseUrl);
  const app = openApp({
    dataDir: resolveDataDir(options.dataDir),
    keys: options.keys ?? resolveKeyStore(serviceUrl),
    ...(serviceUrl !== undefined && { serviceUrl }),
    missingServiceUrlHint: 'pass --base-url URL or set TRANSCRIPT_API_BASE_URL, then run the command again.',
    // TRANSCRIPT_API_KEY's own words say how to give one.
    missingKeyHint: '',
    ...(options.onIndexing !== undefined && { onIndexing: options.onIndexing }),
    nativeBinding: cliHost().nativeBinding,
  });
  try {
    return await use(localApi(app), app);
  } finally {
    await app.close();
  }
}
