import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// What kind of installation the running app is, as far as updating it goes: which of
// electron-updater's updaters fits it, what the app may offer, and where its releases are.

/** The kinds of package that look for updates, as electron-builder makes them. */
export type PackageKind = 'nsis' | 'appimage' | 'deb' | 'rpm' | 'mac';

export interface Installation {
  kind: PackageKind;
  /** `install` where the package replaces itself; `download` where the app only says where the new one is. */
  offer: 'install' | 'download';
  /** The GitHub repository whose Releases electron-builder's app-update.yml names. */
  repository: { owner: string; repo: string };
}

export interface InstallationFacts {
  isPackaged: boolean;
  platform: NodeJS.Platform;
  /** Where the package keeps app-update.yml and, for the deb and rpm, package-type. */
  resourcesPath: string;
  /** Set by an AppImage's runtime: the AppImage file itself. */
  appImage: string | undefined;
  /** package.json of the app: npm run dist marks a Mac app built without a Developer ID. */
  appPackage: { macUpdates?: unknown };
}

/**
 * The installation, or why it does not update itself: a checkout, or a package made without a
 * release feed (no GitHub repository in the checkout it was built from).
 */
export function installationOf(facts: InstallationFacts): Installation | { unsupported: string } {
  if (!facts.isPackaged) {
    return { unsupported: 'This copy of Scriptorium runs from its source: update it with git and npm.' };
  }
  const repository = releaseRepository(facts.resourcesPath);
  if (repository === undefined) {
    return {
      unsupported: 'This package was built without a release feed, so it cannot look for new releases.',
    };
  }
  if (facts.platform === 'win32') return { kind: 'nsis', offer: 'install', repository };
  if (facts.platform === 'darwin') {
    // Squirrel.Mac installs only an app signed as the running one is.
    const signed = facts.appPackage.macUpdates !== 'download';
    return { kind: 'mac', offer: signed ? 'install' : 'download', repository };
  }
  if (facts.appImage !== undefined) return { kind: 'appimage', offer: 'install', repository };
  const packageType = readText(join(facts.resourcesPath, 'package-type'))?.trim();
  if (packageType === 'deb' || packageType === 'rpm')
    return { kind: packageType, offer: 'download', repository };
  return {
    unsupported: 'This installation of Scriptorium is not one of its packages, so it cannot update itself.',
  };
}

/** The package file of `kind` among a release's files, by name (electron-builder.yml's artifactName). */
export function isPackageOf(kind: PackageKind, arch: string): (fileName: string) => boolean {
  const arm = arch === 'arm64';
  switch (kind) {
    case 'deb':
      return (name) => name.endsWith(arm ? '_arm64.deb' : '_amd64.deb');
    case 'rpm':
      return (name) => name.endsWith(arm ? '.aarch64.rpm' : '.x86_64.rpm');
    case 'appimage':
      return (name) => name.endsWith('.AppImage');
    case 'nsis':
      return (name) => name.endsWith('.exe');
    case 'mac':
      return (name) => name.endsWith('.dmg') && name.includes('-arm64') === arm;
  }
}

/** The page of a release of `repository`, as the release workflow tags it (v1.2.3). */
export function releasePage(repository: Installation['repository'], version: string): string {
  return `https://github.com/${repository.owner}/${repository.repo}/releases/tag/v${version}`;
}

/**
 * The repository app-update.yml names (electron-builder writes it from electron-builder.yml's
 * publish and the checkout's GitHub remote: `provider: github`, `owner`, `repo`); undefined when
 * there is none, or it names another provider.
 */
function releaseRepository(resourcesPath: string): Installation['repository'] | undefined {
  const text = readText(join(resourcesPath, 'app-update.yml'));
  if (text === undefined) return undefined;
  const field = (name: string) => new RegExp(`^${name}: *['"]?([^'"\\s]+)['"]? *$`, 'm').exec(text)?.[1];
  const [provider, owner, repo] = [field('provider'), field('owner'), field('repo')];
  return provider === 'github' && owner !== undefined && repo !== undefined ? { owner, repo } : undefined;
}

function readText(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}
