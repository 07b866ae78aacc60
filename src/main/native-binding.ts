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

/**
 * Where a package carries better-sqlite3 built for its Electron, system and architecture:
 * electron-builder.yml's extraResources puts it beside app.asar (scripts/check-packaged-addons.mjs
 * names it the same way), since nothing in the package's node_modules is built for Electron.
 */
export function packagedBinding(resourcesPath: string): string {
  return join(resourcesPath, 'native', 'better_sqlite3.node');
}

export interface BindingContext {
  /** app.isPackaged: a packaged app loads the addon it carries. */
  isPackaged: boolean;
  /** app.getAppPath(): the checkout, when run from one. */
  appPath: string;
  /** process.resourcesPath: a packaged app's resources folder. */
  resourcesPath: string;
  /** process.versions.electron; undefined on any other runtime. */
  electronVersion: string | undefined;
}

/** The better-sqlite3 addon the main process loads: the package's own, or a checkout's (below). */
export function nativeBindingFor(context: BindingContext): string | undefined {
  return context.isPackaged ? packagedBinding(context.resourcesPath) : developmentBinding(context);
}

/**
 * The addon a checkout's main process loads: its Electron build when it exists, else undefined
 * (better-sqlite3's own build, which is Node's: `npm run electron:install` says how to fix that).
 */
function developmentBinding(context: BindingContext): string | undefined {
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
