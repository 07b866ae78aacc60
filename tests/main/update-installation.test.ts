import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installationOf, isPackageOf, type InstallationFacts } from '../../src/main/updates/installation';
import { tempDir } from '../support/cli';

// Which kind of package the running app is, read from what electron-builder puts in its resources
// folder (app-update.yml, and for the deb and rpm package-type) and from the system: what its
// updater may offer.

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A resources folder with the files electron-builder writes, as `files` says. */
function resources(files: Record<string, string>): string {
  dir = tempDir('update-installation-');
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const FEED =
  'owner: scriptorium-project\nrepo: scriptorium\nprovider: github\nupdaterCacheDirName: scriptorium-updater\n';
const repository = { owner: 'scriptorium-project', repo: 'scriptorium' };

function facts(overrides: Partial<InstallationFacts>): InstallationFacts {
  return {
    isPackaged: true,
    platform: 'linux',
    resourcesPath: resources({ 'app-update.yml': FEED }),
    appImage: undefined,
    appPackage: {},
    ...overrides,
  };
}

describe('the kind of installation, and what its updater may offer', () => {
  it('installs itself: the Windows installer, the AppImage, a signed Mac app', () => {
    expect(installationOf(facts({ platform: 'win32' }))).toEqual({
      kind: 'nsis',
      offer: 'install',
      repository,
    });
    expect(installationOf(facts({ appImage: '/home/ada/Scriptorium.AppImage' }))).toEqual({
      kind: 'appimage',
      offer: 'install',
      repository,
    });
    expect(installationOf(facts({ platform: 'darwin' }))).toEqual({
      kind: 'mac',
      offer: 'install',
      repository,
    });
  });

  it('says where the new one is: the deb, the rpm, a Mac app built without a Developer ID', () => {
    for (const type of ['deb', 'rpm'] as const) {
      const path = resources({ 'app-update.yml': FEED, 'package-type': type });
      expect(installationOf(facts({ resourcesPath: path }))).toEqual({
        kind: type,
        offer: 'download',
        repository,
      });
    }
    expect(
      installationOf(facts({ platform: 'darwin', appPackage: { macUpdates: 'download' } })),
    ).toMatchObject({
      kind: 'mac',
      offer: 'download',
    });
  });

  it('does not update a checkout, nor a package built without a feed (no GitHub remote)', () => {
    expect(installationOf(facts({ isPackaged: false }))).toEqual({
      unsupported: 'This copy of Scriptorium runs from its source: update it with git and npm.',
    });
    // What electron-builder writes when it found no repository.
    const noFeed = resources({ 'app-update.yml': 'updaterCacheDirName: scriptorium-updater\n' });
    expect(installationOf(facts({ resourcesPath: noFeed }))).toEqual({
      unsupported: 'This package was built without a release feed, so it cannot look for new releases.',
    });
  });

  it("finds its own package among a release's files, by electron-builder.yml's names", () => {
    const files = [
      'scriptorium_0.2.0_amd64.deb',
      'scriptorium-0.2.0.x86_64.rpm',
      'Scriptorium-0.2.0-x86_64.AppImage',
      'Scriptorium-0.2.0-x64.dmg',
      'Scriptorium-0.2.0-arm64.dmg',
      'Scriptorium-Setup-0.2.0.exe',
    ];
    const own = (kind: Parameters<typeof isPackageOf>[0], arch: string) =>
      files.filter(isPackageOf(kind, arch));
    expect(own('deb', 'x64')).toEqual(['scriptorium_0.2.0_amd64.deb']);
    expect(own('rpm', 'x64')).toEqual(['scriptorium-0.2.0.x86_64.rpm']);
    expect(own('appimage', 'x64')).toEqual(['Scriptorium-0.2.0-x86_64.AppImage']);
    expect(own('mac', 'arm64')).toEqual(['Scriptorium-0.2.0-arm64.dmg']);
    expect(own('mac', 'x64')).toEqual(['Scriptorium-0.2.0-x64.dmg']);
    expect(own('nsis', 'x64')).toEqual(['Scriptorium-Setup-0.2.0.exe']);
  });
});
