import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where `npm run electron:install` puts better-sqlite3 compiled for Electron, apart from the build the
 * CLI loads on Node (scripts/electron-install.mjs names it the same way). The versions are in the name,
 * so an upgrade of either is noticed (and rebuilt by `npm start`) instead of loading a stale addon.
 */
export function electronBindingFile(projectRoot: string, electronVersion: string, sqliteVersion: string): string {
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
  /** The installed better-sqlite3's version. */
  sqliteVersion: string;
}

/**
 * The better-sqlite3 addon the main process should load: the Electron build of a checkout when it
 * exists, else undefined (the package's own, which electron-builder rebuilt in a packaged app).
 */
export function developmentBinding(context: BindingContext): string | undefined {
  if (context.isPackaged || context.electronVersion === undefined) return undefined;
  const file = electronBindingFile(context.appPath, context.electronVersion, context.sqliteVersion);
  return existsSync(file) ? file : undefined;
}
