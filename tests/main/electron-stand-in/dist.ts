import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** @electron/fuses finds the fuse wire right after this sentinel in Electron's binary. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron's own defaults for the eight fuses @electron/fuses knows, '1' on and '0' off, in order. */
export const DEFAULT_FUSES = {
  runAsNode: '1',
  enableCookieEncryption: '0',
  enableNodeOptionsEnvironmentVariable: '1',
  enableNodeCliInspectArguments: '1',
  enableEmbeddedAsarIntegrityValidation: '0',
  onlyLoadAppFromAsar: '0',
  loadBrowserProcessSpecificV8Snapshot: '0',
  grantFileProtocolExtraPrivileges: '1',
} as const;

/**
 * A stand-in for an unpacked Electron distribution, for electron-builder's `electronDist`: an
 * `electron` executable that holds the fuse wire (version 1, eight fuses) and nothing else, and the
 * `version` file. electron-builder copies it, renames the executable and flips its fuses.
 */
export function electronDistStandIn(dir: string, electronVersion: string): string {
  mkdirSync(dir, { recursive: true });
  const wire = fuseWire();
  const executable = join(dir, 'electron');
  writeFileSync(
    executable,
    Buffer.concat([
      Buffer.from("#!/bin/sh\n# A stand-in for Electron's binary: it only holds the fuse wire.\n# ", 'ascii'),
      wire,
      Buffer.from('\necho "This is a stand-in for Electron; it runs nothing." >&2\nexit 1\n', 'ascii'),
    ]),
  );
  chmodSync(executable, 0o755);
  writeFileSync(join(dir, 'version'), electronVersion);
  return dir;
}

/**
 * The same for Windows: electron.exe is `executable`, a real Windows program (electron-builder edits
 * its resources), with the fuse wire after it.
 */
export function windowsElectronDistStandIn(dir: string, electronVersion: string, executable: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'electron.exe'), Buffer.concat([readFileSync(executable), fuseWire()]));
  writeFileSync(join(dir, 'version'), electronVersion);
  return dir;
}

/** The fuse wire as Electron's binary holds it: the sentinel, version 1, eight fuses at their defaults. */
function fuseWire(): Buffer {
  return Buffer.concat([
    Buffer.from(FUSE_SENTINEL, 'ascii'),
    Buffer.from([1, 8]),
    Buffer.from(Object.values(DEFAULT_FUSES).join(''), 'ascii'),
  ]);
}
