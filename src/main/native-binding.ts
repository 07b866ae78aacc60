import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where `npm run electron:install` puts better-sqlite3 compiled for Electron, apart from the build the
 * CLI loads on Node (scripts/electron-install.mjs names it the same way). The versions are in the name,
 * so an upgrade of either is noticed (and rebuilt by `npm start`) instead of loading a stale addon.
 */
export function electronBindingFile(
  projectRoot: string,
  electronVersion: string,
  sqliteVersion: string,
): string {
  return join(
    projectRoot,
    'node_modules',
    '.scriptorium-electron',
    `better_sqlite3-v${sqliteVersion}-electron-v${electronVersion}.node`,
  );
}

export interface BindingContext {
  /** app.isPackaged: a packaged app loads the addon electron-builder rebuilt for it. */
  isPackaged: boolean;
  /** app.getAppPath(): the checkout, when run from one. */
  appPath: string;
  /** process.versions.electron; undefined on any other runtime. */
  electronVersion: string | undefined;
}

/**
 * The better-sqlite3 addon the main process should load: the Electron build of a checkout when it
 * exists, else undefined (the package's own, which electron-builder rebuilt in a packaged app).
 */
export function developmentBinding(context: BindingContext): string | undefined {
  if (context.isPackaged || context.electronVersion === undefined) return undefined;
  const sqliteVersion = installedVersion(join(context.appPath, 'node_modules', 'better-sqlite3'));
  if (sqliteVersion === undefined) return undefined;
  const file = electronBindingFile(context.appPath, context.electronVersion, sqliteVersion);
  return existsSync(file) ? file : undefined;
}

function installedVersion(packageFolder: string): string | undefined {
  try {
    const { version } = JSON.parse(readFileSync(join(packageFolder, 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}
