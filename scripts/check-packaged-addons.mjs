// electron-builder's afterPack hook (electron-builder.yml): refuses a package whose native addons
// would not load in the app it ships with. Such a package builds without a word and then cannot
// open its database: an addon built for Node (the CLI's build) registers Node's module version,
// which Electron refuses, and one built for another CPU (an arm64 addon in the x64 dmg) or system
// does not load at all.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { getAbi, getTarget } from 'node-abi';
import { binaryTarget, FORMAT_OF_PLATFORM, registeredModuleVersion } from './native-binary.mjs';

/**
 * Where the package carries better-sqlite3 built for its Electron, platform and architecture,
 * relative to its resources folder (electron-builder.yml's extraResources puts it there; the main
 * process loads it through better-sqlite3's nativeBinding option, src/main/native-binding.ts).
 */
export const PACKAGED_ADDON = join('native', 'better_sqlite3.node');

/** The folders of a package's resources that may hold native addons: the extra resource, and the asar's unpacked files. */
const ADDON_FOLDERS = ['native', 'app.asar.unpacked'];

/** The module version an Electron release loads, from node-abi's registry (as @electron/rebuild). */
export function electronModuleVersion(electronVersion) {
  return Number(getAbi(electronVersion, 'electron'));
}

/** "Node 20" or "Electron 45": what a module version was made for, in words, when node-abi knows. */
function runtimeOf(moduleVersion) {
  for (const runtime of ['node', 'electron']) {
    try {
      const major = getTarget(String(moduleVersion), runtime).split('.')[0];
      return `${runtime === 'node' ? 'Node' : 'Electron'} ${major}`;
    } catch {
      // Not a module version of this runtime.
    }
  }
  return 'another runtime';
}

function nativeAddons(dir) {
  let names;
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return names.filter((name) => name.endsWith('.node')).map((name) => join(dir, name));
}

/** What keeps one addon from loading in the package, in words: its system or CPU, and its module version. */
function loadProblems(bytes, { electronVersion, platform, arch }) {
  const problems = [];
  const target = binaryTarget(bytes);
  const format = FORMAT_OF_PLATFORM[platform];
  if (target === undefined) {
    problems.push(`is not a native binary ${format} can load`);
  } else if (target.format !== format) {
    problems.push(`is a ${target.format} binary, but this package is for ${platform} (${format})`);
  } else if (!target.architectures.includes(arch)) {
    problems.push(`is built for ${target.architectures.join(' and ')}, but this package is for ${arch}`);
  }
  const version = registeredModuleVersion(bytes);
  const wanted = electronModuleVersion(electronVersion);
  if (version !== undefined && version !== wanted) {
    const built = Number.isNaN(version)
      ? 'registers several module versions'
      : `is built for module version ${version} (${runtimeOf(version)})`;
    problems.push(`${built}, but Electron ${electronVersion} loads module version ${wanted} only`);
  }
  return problems;
}

/**
 * One line per native addon in the package's resources folder that the app could not load (built
 * for another module version, system or CPU), and one if better-sqlite3's is missing; empty when
 * all is well. `target` is { electronVersion, platform (darwin, linux, win32), arch (x64, arm64...) }.
 */
export function addonProblems(resourcesDir, target) {
  const addons = ADDON_FOLDERS.flatMap((folder) => nativeAddons(join(resourcesDir, folder)));
  const missing = addons.includes(join(resourcesDir, PACKAGED_ADDON)) ? [] : [`${PACKAGED_ADDON} is missing`];
  return missing.concat(
    addons.flatMap((file) =>
      loadProblems(readFileSync(file), target).map((problem) => `${relative(resourcesDir, file)} ${problem}`),
    ),
  );
}

/** The hook itself: electron-builder stops packaging with this error, before any installer is made. */
export default async function checkPackagedAddons(context) {
  const { Arch } = createRequire(import.meta.url)('builder-util');
  const target = {
    electronVersion: context.packager.info.framework.version,
    platform: context.electronPlatformName,
    arch: Arch[context.arch],
  };
  const problems = addonProblems(context.packager.getResourcesDir(context.appOutDir), target);
  if (problems.length === 0) return;
  throw new Error(
    `The package's native addons would not load in Electron ${target.electronVersion} on ${target.platform} ${target.arch}:\n` +
      problems.map((line) => `  ${line}\n`).join('') +
      'Package with `npm run dist`: electron-builder.yml fetches better-sqlite3 built for each ' +
      "package's Electron, system and architecture before packing (scripts/fetch-electron-addon.mjs).",
  );
}
