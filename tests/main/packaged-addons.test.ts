import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addonProblems,
  electronModuleVersion,
  registeredModuleVersion,
  // @ts-expect-error: a plain ESM script without type declarations
} from '../../scripts/check-packaged-addons.mjs';
import { tempDir } from '../support/cli';
import { ROOT } from './scratch-project';

const moduleVersionOf = registeredModuleVersion as (file: string) => number | undefined;
const electronAbi = electronModuleVersion as (electronVersion: string) => number;
const problems = addonProblems as (resourcesDir: string, electronVersion: string) => string[];

/** The CLI's own build of better-sqlite3, compiled for the Node that runs these tests. */
const NODE_BUILD = join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const ADDON_IN_PACKAGE = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
const electron = JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as {
  version: string;
};

let folder: string | undefined;
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

/** A package's resources folder whose app.asar.unpacked holds `files` (path -> bytes, or a file to copy). */
function resources(files: Record<string, string | Buffer>): string {
  folder = tempDir('packaged-addons-');
  for (const [path, content] of Object.entries(files)) {
    const target = join(folder, 'app.asar.unpacked', path);
    mkdirSync(dirname(target), { recursive: true });
    if (typeof content === 'string') copyFileSync(content, target);
    else writeFileSync(target, content);
  }
  return folder;
}

/** The bytes of an addon's symbol names, as a binary holds them (NUL-ended). */
const symbols = (...names: string[]) => Buffer.from(`\x7fELF\0${names.map((name) => `${name}\0`).join('')}`);

describe('the module version a native addon registers', () => {
  it("is read from the addon's node_register_module_v<N> symbol: the CLI's build registers this Node's", () => {
    expect(moduleVersionOf(NODE_BUILD)).toBe(Number(process.versions.modules));
  });

  it("is compared with the ABI of the package's Electron, which the electron package itself states", () => {
    const stated = Number(readFileSync(join(ROOT, 'node_modules/electron/abi_version'), 'utf8'));
    expect(electronAbi(electron.version)).toBe(stated);
    expect(stated).not.toBe(Number(process.versions.modules));
  });
});

describe('the packaged addons check', () => {
  it('refuses the Node build of better-sqlite3 in a package that carries Electron, saying both versions', () => {
    const dir = resources({ [ADDON_IN_PACKAGE]: NODE_BUILD });
    const node = process.versions.node.split('.')[0];
    expect(problems(dir, electron.version)).toEqual([
      `${ADDON_IN_PACKAGE} is built for module version ${process.versions.modules} (Node ${node}), but Electron ${electron.version} loads module version ${electronAbi(electron.version)} only`,
    ]);
  });

  it("accepts an addon built for the package's Electron, and a Node-API addon, which loads anywhere", () => {
    const abi = electronAbi(electron.version);
    const dir = resources({
      [ADDON_IN_PACKAGE]: symbols(`node_register_module_v${abi}`, 'sqlite3_open_v2'),
      'node_modules/other/build/Release/napi.node': symbols('napi_register_module_v1'),
    });
    expect(problems(dir, electron.version)).toEqual([]);
  });

  it('refuses a package without the better-sqlite3 addon, which the app cannot open its database without', () => {
    const dir = resources({ 'node_modules/better-sqlite3/lib/index.js': Buffer.from('') });
    expect(problems(dir, electron.version)).toEqual([`${ADDON_IN_PACKAGE} is missing`]);
  });

  it('refuses an addon that names two module versions', () => {
    const dir = resources({
      [ADDON_IN_PACKAGE]: symbols('node_register_module_v115', 'node_register_module_v150'),
    });
    expect(problems(dir, electron.version)).toEqual([
      `${ADDON_IN_PACKAGE} registers several module versions, but Electron ${electron.version} loads module version ${electronAbi(electron.version)} only`,
    ]);
  });
});
