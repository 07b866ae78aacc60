// electron-builder's beforePack hook (electron-builder.yml): gets better-sqlite3 built for the
// package's Electron, system and architecture, once per architecture packed, into the folder that
// extraResources copies into the package as resources/native. The main process loads it from
// there through better-sqlite3's nativeBinding option, so packaging never rebuilds anything inside
// node_modules (npmRebuild is off): the CLI's own build, which Node loads, is never touched.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildSqliteForElectron, sqliteBuild } from './electron-install.mjs';

/**
 * The folder a package of system `os` (electron-builder's mac, linux or win) and architecture `arch`
 * takes its addon from; electron-builder.yml's extraResources names it with its ${os} and ${arch}.
 */
export function stagedAddonFolder(root, os, arch) {
  return join(root, 'node_modules', '.scriptorium-electron', 'package', `${os}-${arch}`);
}

/**
 * What to do for one package, as electron-install.mjs's plans say it: where the addon goes, and
 * how it is got, in a copy of better-sqlite3 of its own.
 */
export function addonPlan(root, { electronVersion, platform, os, arch, env = process.env }) {
  if (arch === 'universal') {
    throw new Error('a universal macOS app needs an addon per architecture: package x64 and arm64 apart');
  }
  const workDir = join(
    root,
    'node_modules',
    '.scriptorium-electron',
    'work',
    `package-${os}-${arch}`,
    'better-sqlite3',
  );
  return {
    electronVersion,
    output: join(stagedAddonFolder(root, os, arch), 'better_sqlite3.node'),
    buildSqlite: sqliteBuild(root, { electronVersion, platform, arch, workDir, env }),
  };
}

/** The hook: electron-builder stops packaging with its error when the addon cannot be got. */
export default async function fetchElectronAddon(context) {
  const { Arch } = createRequire(import.meta.url)('builder-util');
  const plan = addonPlan(context.packager.projectDir, {
    electronVersion: context.packager.info.framework.version,
    platform: context.electronPlatformName,
    os: context.packager.platform.buildConfigurationKey,
    arch: Arch[context.arch],
  });
  // Always afresh, so that no addon of an earlier Electron or better-sqlite3 is packed; the
  // download itself is cached by prebuild-install.
  rmSync(dirname(plan.output), { recursive: true, force: true });
  // Quiet: a failure's first line goes into the error electron-builder shows.
  await buildSqliteForElectron(plan, { quiet: true });
}
