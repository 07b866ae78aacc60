import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli';
import { ROOT } from './scratch-project';

// scripts/merge-mac-update-info.mjs, as the release job runs it on the latest-mac.yml each Mac
// wrote (in the form electron-builder writes), read back by electron-updater's own choice of the
// files for a Mac of either CPU.

const require = createRequire(import.meta.url);
const yaml = createRequire(require.resolve('electron-updater/package.json'))('js-yaml') as {
  dump(value: unknown): string;
  load(text: string): unknown;
};
const { MacUpdater } = require('electron-updater') as {
  MacUpdater: { filterFilesForArch<T>(files: T[], isArm64Mac: boolean): T[] };
};

const SCRIPT = join(ROOT, 'scripts/merge-mac-update-info.mjs');

/** One Mac's latest-mac.yml, as electron-builder writes it for its zip and dmg. */
function latestMac(version: string, arch: 'x64' | 'arm64', releaseDate: string) {
  const file = (name: string, size: number) => ({ url: name, sha512: `${name}-sha512`, size });
  const zip = `Scriptorium-${version}-${arch}-mac.zip`;
  return {
    version,
    files: [file(zip, 100), file(`Scriptorium-${version}-${arch}.dmg`, 200)],
    path: zip,
    sha512: `${zip}-sha512`,
    releaseDate,
  };
}

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function merge(...infos: object[]) {
  dir = tempDir('merge-mac-');
  const inputs = infos.map((info, at) => {
    const file = join(dir!, `in-${at}.yml`);
    writeFileSync(file, yaml.dump(info));
    return file;
  });
  const out = join(dir, 'latest-mac.yml');
  const run = spawnSync(process.execPath, [SCRIPT, out, ...inputs], { encoding: 'utf8' });
  return {
    code: run.status,
    stderr: run.stderr,
    merged: () => yaml.load(readFileSync(out, 'utf8')) as ReturnType<typeof latestMac>,
  };
}

describe('one latest-mac.yml for both Mac architectures', () => {
  it('lists both Macs’ files, and each Mac’s updater finds its own zip in it', () => {
    const run = merge(
      latestMac('1.2.0', 'arm64', '2026-01-02T10:00:00.000Z'),
      latestMac('1.2.0', 'x64', '2026-01-02T10:05:00.000Z'),
    );
    expect(run.code, run.stderr).toBe(0);
    const merged = run.merged();
    expect(merged.version).toBe('1.2.0');
    expect(merged.releaseDate).toBe('2026-01-02T10:05:00.000Z');
    expect(merged.files.map((file) => file.url)).toEqual([
      'Scriptorium-1.2.0-arm64-mac.zip',
      'Scriptorium-1.2.0-arm64.dmg',
      'Scriptorium-1.2.0-x64-mac.zip',
      'Scriptorium-1.2.0-x64.dmg',
    ]);
    // electron-updater's own choice, given the files as its provider resolves them.
    const resolved = merged.files.map((info) => ({ url: new URL(info.url, 'https://example.org/'), info }));
    const zipFor = (arm64: boolean) =>
      MacUpdater.filterFilesForArch(resolved, arm64)
        .map((file) => file.info.url)
        .filter((url) => url.endsWith('.zip'));
    expect(zipFor(true)).toEqual(['Scriptorium-1.2.0-arm64-mac.zip']);
    expect(zipFor(false)).toEqual(['Scriptorium-1.2.0-x64-mac.zip']);
  });

  it('refuses files of two versions, which would mix two releases', () => {
    const run = merge(latestMac('1.2.0', 'arm64', '2026-01-02'), latestMac('1.1.0', 'x64', '2026-01-01'));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the files are of different versions (1.2.0, 1.1.0)');
  });
});
