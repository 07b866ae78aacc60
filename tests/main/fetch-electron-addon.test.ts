import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import fetchElectronAddonScript, {
  stagedAddonFolder as stagedAddonFolderScript,
  // @ts-expect-error: a plain ESM script without type declarations
} from '../../scripts/fetch-electron-addon.mjs';
import { tempDir } from '../support/cli';

// electron-builder.yml's beforePack hook, given the context electron-builder gives it, in a project
// of its own whose prebuild-install is a stand-in (the real one downloads from GitHub): it writes
// down how it was called and leaves a file where the real one leaves the addon, or fails as it does
// without the network.

const fetchElectronAddon = fetchElectronAddonScript as (context: unknown) => Promise<void>;
const stagedAddonFolder = stagedAddonFolderScript as (root: string, os: string, arch: string) => string;
const ELECTRON = '45.4.1';
const CLI_BUILD = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
/** builder-util's Arch: x64 is 1, arm64 is 3. */
const ARCH = { x64: 1, arm64: 3 };

const PREBUILD_INSTALL = (outcome: 'downloads' | 'fails') => `
const fs = require('node:fs');
fs.appendFileSync(${JSON.stringify('CALLS')}, JSON.stringify({
  args: process.argv.slice(2),
  cwd: process.cwd(),
  npmSettings: Object.keys(process.env).filter((name) => name.startsWith('npm_config_')),
}) + '\\n');
${
  outcome === 'downloads'
    ? `fs.mkdirSync('build/Release', { recursive: true });
fs.writeFileSync('build/Release/better_sqlite3.node', 'built for Electron ' + process.argv.slice(2).join(' '));`
    : `console.error('prebuild-install warn install getaddrinfo EAI_AGAIN github.com'); process.exit(1);`
}`;

const folders: string[] = [];
const savedEnv = { ...process.env };
afterEach(() => {
  process.env = { ...savedEnv };
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** A project whose better-sqlite3 has the CLI's build, and a stand-in prebuild-install beside it. */
function project(outcome: 'downloads' | 'fails'): string {
  const root = tempDir('scriptorium-addon-project-');
  folders.push(root);
  write(join(root, 'node_modules/better-sqlite3/package.json'), JSON.stringify({ version: '12.11.1' }));
  write(join(root, 'node_modules/better-sqlite3/lib/index.js'), 'module.exports = {};');
  write(join(root, CLI_BUILD), 'built for Node');
  write(
    join(root, 'node_modules/prebuild-install/package.json'),
    JSON.stringify({ name: 'prebuild-install' }),
  );
  write(
    join(root, 'node_modules/prebuild-install/bin.js'),
    PREBUILD_INSTALL(outcome).replace('"CALLS"', JSON.stringify(join(root, 'calls.jsonl'))),
  );
  return root;
}

/** What electron-builder hands a beforePack hook, as far as the hook reads it. */
function context(root: string, platform: 'darwin' | 'linux' | 'win32', arch: keyof typeof ARCH) {
  const os = { darwin: 'mac', linux: 'linux', win32: 'win' }[platform];
  return {
    packager: {
      projectDir: root,
      info: { framework: { version: ELECTRON } },
      platform: { buildConfigurationKey: os },
    },
    electronPlatformName: platform,
    arch: ARCH[arch],
  };
}

const calls = (root: string) =>
  readFileSync(join(root, 'calls.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { args: string[]; cwd: string; npmSettings: string[] });

describe("the beforePack hook that fetches better-sqlite3 for each package's Electron, system and CPU", () => {
  it('downloads the build for that Electron, system and architecture into the folder extraResources takes it from', async () => {
    const root = project('downloads');
    await fetchElectronAddon(context(root, 'darwin', 'x64'));
    await fetchElectronAddon(context(root, 'darwin', 'arm64'));
    expect(
      readFileSync(join(stagedAddonFolder(root, 'mac', 'x64'), 'better_sqlite3.node'), 'utf8'),
    ).toContain(`--runtime=electron --target=${ELECTRON} --arch=x64`);
    expect(
      readFileSync(join(stagedAddonFolder(root, 'mac', 'arm64'), 'better_sqlite3.node'), 'utf8'),
    ).toContain(`--arch=arm64`);
    const [x64] = calls(root);
    expect(x64?.args).toEqual([
      '--runtime=electron',
      `--target=${ELECTRON}`,
      '--arch=x64',
      ...(process.platform === 'darwin' ? [] : ['--platform=darwin']),
    ]);
    expect(stagedAddonFolder(root, 'mac', 'x64')).toBe(
      join(root, 'node_modules/.scriptorium-electron/package/mac-x64'),
    );
  });

  it("works on a copy: the CLI's own build of better-sqlite3 is never touched, and no work is left behind", async () => {
    const root = project('downloads');
    await fetchElectronAddon(context(root, 'linux', 'arm64'));
    expect(readFileSync(join(root, CLI_BUILD), 'utf8')).toBe('built for Node');
    expect(calls(root)[0]?.cwd).not.toBe(join(root, 'node_modules/better-sqlite3'));
    expect(readdirSync(join(root, 'node_modules/.scriptorium-electron/work'))).toEqual([]);
  });

  it("never lets npm's settings aim the download at Node or another system", async () => {
    const root = project('downloads');
    process.env['npm_config_runtime'] = 'node';
    process.env['npm_config_target'] = '20.19.0';
    process.env['npm_config_platform'] = 'win32';
    process.env['npm_config_arch'] = 'ia32';
    process.env['npm_config_cache'] = '/tmp/npm-cache';
    await fetchElectronAddon(context(root, 'win32', 'x64'));
    const passed = calls(root)[0]?.npmSettings;
    expect(passed).toContain('npm_config_cache');
    expect(passed?.filter((name) => /_(runtime|target|platform|arch)$/.test(name))).toEqual([]);
  });

  it('stops the packaging when the addon cannot be got, and leaves no earlier one to be packed instead', async () => {
    const root = project('fails');
    // Another system than this one: there is no compiler to fall back on.
    const [other, os] =
      process.platform === 'darwin' ? (['win32', 'win'] as const) : (['darwin', 'mac'] as const);
    const staged = join(stagedAddonFolder(root, os, 'x64'), 'better_sqlite3.node');
    write(staged, 'an addon of an earlier Electron');
    await expect(fetchElectronAddon(context(root, other, 'x64'))).rejects.toThrow(
      `could not build better-sqlite3 for Electron ${ELECTRON} (prebuild-install warn install getaddrinfo EAI_AGAIN github.com)`,
    );
    expect(existsSync(staged)).toBe(false);
  });
});
