// electron-builder's afterPack hook (electron-builder.yml): refuses a package whose native addons
// were not built for the Electron it carries. Such a package builds without a word and then cannot
// open its database: better-sqlite3 built for Node (the CLI's build, or a rebuild that npm's own
// settings aimed at Node) registers Node's module version, and Electron refuses to load it.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { getAbi, getTarget } from 'node-abi';

/**
 * The NODE_MODULE_VERSION a native addon registers: the N of the node_register_module_vN function
 * it exports, whose name every binary format (ELF, Mach-O, PE) keeps as a NUL-ended string.
 * Undefined when it names none, as a Node-API addon, which loads in any runtime; NaN when it names
 * several.
 */
export function registeredModuleVersion(file) {
  const names = readFileSync(file).toString('latin1');
  const versions = new Set([...names.matchAll(/node_register_module_v(\d+)\0/g)].map((match) => match[1]));
  if (versions.size === 0) return undefined;
  return versions.size === 1 ? Number([...versions][0]) : NaN;
}

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

/** The addons the app cannot start without: its database is better-sqlite3. */
const REQUIRED_ADDONS = [join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')];

/**
 * One line per addon in `resourcesDir`/app.asar.unpacked that Electron `electronVersion` cannot
 * load, and per required addon missing; empty when all is well.
 */
export function addonProblems(resourcesDir, electronVersion) {
  const unpacked = join(resourcesDir, 'app.asar.unpacked');
  const wanted = electronModuleVersion(electronVersion);
  const missing = REQUIRED_ADDONS.filter((addon) => !existsSync(join(unpacked, addon))).map(
    (addon) => `${addon} is missing`,
  );
  return missing.concat(
    nativeAddons(unpacked).flatMap((file) => {
      const version = registeredModuleVersion(file);
      if (version === undefined || version === wanted) return [];
      const built = Number.isNaN(version)
        ? 'registers several module versions'
        : `is built for module version ${version} (${runtimeOf(version)})`;
      return [
        `${relative(unpacked, file)} ${built}, but Electron ${electronVersion} loads module version ${wanted} only`,
      ];
    }),
  );
}

/** The hook itself: electron-builder stops packaging with this error, before any installer is made. */
export default async function checkPackagedAddons(context) {
  const electronVersion = context.packager.info.framework.version;
  const problems = addonProblems(context.packager.getResourcesDir(context.appOutDir), electronVersion);
  if (problems.length === 0) return;
  throw new Error(
    `The package's native addons are not those Electron ${electronVersion} needs:\n` +
      problems.map((line) => `  ${line}\n`).join('') +
      'Package with `npm run dist`, which rebuilds them for Electron; with -c.npmRebuild=false, ' +
      'node_modules must already hold builds for Electron.',
  );
}
