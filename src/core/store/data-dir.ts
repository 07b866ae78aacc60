import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';

/** The database's file name inside the data directory. */
export const DATABASE_FILE = 'scriptorium.db';

/** The folder name Electron derives from the app's productName. */
const APP_FOLDER = 'Scriptorium';

export interface DataDirContext {
  /** Default: process.platform. */
  platform?: NodeJS.Platform;
  /** Default: process.env. */
  env?: Record<string, string | undefined>;
  /** Default: os.homedir(). */
  home?: string;
}

/**
 * The desktop app's data folder (what Electron's app.getPath('userData') gives for an app named
 * Scriptorium), computed without Electron so that the CLI and the app share one database:
 * ~/.config/Scriptorium (or $XDG_CONFIG_HOME/Scriptorium) on Linux,
 * ~/Library/Application Support/Scriptorium on macOS, %APPDATA%\Scriptorium on Windows.
 */
export function defaultDataDir(context: DataDirContext = {}): string {
  const platform = context.platform ?? process.platform;
  const env = context.env ?? process.env;
  const home = context.home ?? homedir();
  if (platform === 'win32') {
    return win32.join(env.APPDATA || win32.join(home, 'AppData', 'Roaming'), APP_FOLDER);
  }
  if (platform === 'darwin') {
    return posix.join(home, 'Library', 'Application Support', APP_FOLDER);
  }
  return posix.join(env.XDG_CONFIG_HOME || posix.join(home, '.config'), APP_FOLDER);
}

/** The database file inside a data directory. */
export function databasePath(dataDir: string): string {
  return join(dataDir, DATABASE_FILE);
}
