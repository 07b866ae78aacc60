#!/usr/bin/env node
// `npm run dist [-- electron-builder options]`: packages the desktop app with electron-builder.
// electron-builder rebuilds better-sqlite3 for Electron inside node_modules (npmRebuild in
// electron-builder.yml), and that is the very addon the CLI and the tests load on Node: left there, it
// would stop `scriptorium` from starting. So the Node build is copied aside first and put back after,
// whether packaging succeeded or not.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from './electron-install.mjs';

export const NODE_ADDON = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

/** Runs `action`, then puts the addon at `addonPath` back as it was before, even if `action` threw. */
export function keepingNodeAddon(addonPath, action) {
  if (!existsSync(addonPath)) return action();
  const aside = mkdtempSync(join(tmpdir(), 'scriptorium-dist-'));
  const copy = join(aside, 'better_sqlite3.node');
  copyFileSync(addonPath, copy);
  try {
    return action();
  } finally {
    copyFileSync(copy, addonPath);
    rmSync(aside, { recursive: true, force: true });
  }
}

function run(script, args) {
  const { status } = spawnSync(process.execPath, [join(PROJECT_ROOT, script), ...args], {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
  });
  return status ?? 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const built = run('node_modules/electron-vite/bin/electron-vite.js', ['build']);
  process.exitCode =
    built !== 0
      ? built
      : keepingNodeAddon(join(PROJECT_ROOT, NODE_ADDON), () =>
          run('node_modules/electron-builder/cli.js', process.argv.slice(2)),
        );
}
