import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addonProblems,
  electronModuleVersion,
  PACKAGED_ADDON,
  // @ts-expect-error: a plain ESM script without type declarations
} from '../../scripts/check-packaged-addons.mjs';
import {
  binaryTarget as binaryTargetScript,
  registeredModuleVersion,
  // @ts-expect-error: a plain ESM script without type declarations
} from '../../scripts/native-binary.mjs';
import { tempDir } from '../support/cli';
import { ROOT } from './scratch-project';

interface Target {
  electronVersion: string;
  platform: 'linux' | 'darwin' | 'win32';
  arch: string;
}
const moduleVersionOf = registeredModuleVersion as (bytes: Buffer) => number | undefined;
const binaryTarget = binaryTargetScript as (
  bytes: Buffer,
) => { format: string; architectures: string[] } | undefined;
const electronAbi = electronModuleVersion as (electronVersion: string) => number;
const problems = addonProblems as (resourcesDir: string, target: Target) => string[];
const ADDON = PACKAGED_ADDON as string;

/** The CLI's own build of better-sqlite3, compiled for the Node (and the machine) that runs these tests. */
const NODE_BUILD = join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const electron = JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as {
  version: string;
};
const ABI = electronAbi(electron.version);
const HOST = process.arch;

let folder: string | undefined;
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

/** A package's resources folder holding `files` (path -> bytes, or a file to copy). */
function resources(files: Record<string, string | Buffer>): string {
  folder = tempDir('packaged-addons-');
  for (const [path, content] of Object.entries(files)) {
    const target = join(folder, path);
    mkdirSync(dirname(target), { recursive: true });
    if (typeof content === 'string') copyFileSync(content, target);
    else writeFileSync(target, content);
  }
  return folder;
}

/** The symbol names an addon exports, as a binary keeps them (NUL-ended). */
const symbols = (...names: string[]) => Buffer.from(names.map((name) => `${name}\0`).join(''), 'latin1');
const registering = (abi: number) => symbols(`node_register_module_v${abi}`, 'sqlite3_open_v2');

/** A minimal 64-bit little-endian ELF header naming `machine` (e_machine at byte 18), then `body`. */
function elf(machine: number, body = registering(ABI)): Buffer {
  const header = Buffer.alloc(64);
  header.write('\x7fELF', 0, 'latin1');
  header[4] = 2; // 64-bit
  header[5] = 1; // little-endian
  header.writeUInt16LE(3, 16); // a shared object
  header.writeUInt16LE(machine, 18);
  return Buffer.concat([header, body]);
}

/** A minimal 64-bit Mach-O header naming `cpuType` (cputype at byte 4), then `body`. */
function machO(cpuType: number, body = registering(ABI)): Buffer {
  const header = Buffer.alloc(32);
  header.writeUInt32LE(0xfeedfacf, 0);
  header.writeInt32LE(cpuType, 4);
  header.writeUInt32LE(6, 12); // MH_DYLIB
  return Buffer.concat([header, body]);
}

/** A universal Mach-O: the fat header (big-endian) listing `cpuTypes`, then `body`. */
function fatMachO(cpuTypes: number[], body = registering(ABI)): Buffer {
  const header = Buffer.alloc(8 + cpuTypes.length * 20);
  header.writeUInt32BE(0xcafebabe, 0);
  header.writeUInt32BE(cpuTypes.length, 4);
  cpuTypes.forEach((cpuType, index) => header.writeInt32BE(cpuType, 8 + index * 20));
  return Buffer.concat([header, body]);
}

/** A minimal PE: the MZ stub pointing (at 0x3c) to the PE signature, then Machine. */
function pe(machine: number, body = registering(ABI)): Buffer {
  const header = Buffer.alloc(0x40 + 24);
  header.write('MZ', 0, 'latin1');
  header.writeUInt32LE(0x40, 0x3c);
  header.write('PE\0\0', 0x40, 'latin1');
  header.writeUInt16LE(machine, 0x44);
  return Buffer.concat([header, body]);
}

const ELF = { x64: 62, arm64: 183 };
const MACHO = { x64: 0x01000007, arm64: 0x0100000c };
const PE = { x64: 0x8664, arm64: 0xaa64 };

describe('what a native addon was built for, read from its header', () => {
  it("reads the CLI's build as an ELF for this machine's CPU that registers this Node's module version", () => {
    const bytes = readFileSync(NODE_BUILD);
    expect(binaryTarget(bytes)).toEqual({ format: 'ELF', architectures: [HOST] });
    expect(moduleVersionOf(bytes)).toBe(Number(process.versions.modules));
  });

  it('reads ELF e_machine, Mach-O cputype (thin and universal) and PE Machine', () => {
    expect(binaryTarget(elf(ELF.arm64))).toEqual({ format: 'ELF', architectures: ['arm64'] });
    expect(binaryTarget(machO(MACHO.x64))).toEqual({ format: 'Mach-O', architectures: ['x64'] });
    expect(binaryTarget(fatMachO([MACHO.x64, MACHO.arm64]))).toEqual({
      format: 'Mach-O',
      architectures: ['x64', 'arm64'],
    });
    expect(binaryTarget(pe(PE.arm64))).toEqual({ format: 'PE', architectures: ['arm64'] });
    expect(binaryTarget(Buffer.from('not a binary'))).toBeUndefined();
  });

  it("compares the module version with the package's Electron's, which the electron package itself states", () => {
    const stated = Number(readFileSync(join(ROOT, 'node_modules/electron/abi_version'), 'utf8'));
    expect(ABI).toBe(stated);
    expect(stated).not.toBe(Number(process.versions.modules));
  });
});

describe('the packaged addons check', () => {
  const linuxX64: Target = { electronVersion: electron.version, platform: 'linux', arch: 'x64' };

  it('accepts the addon built for the package: its system, its CPU and its Electron', () => {
    expect(problems(resources({ [ADDON]: elf(ELF.x64) }), linuxX64)).toEqual([]);
    expect(problems(resources({ [ADDON]: elf(ELF.arm64) }), { ...linuxX64, arch: 'arm64' })).toEqual([]);
    const mac = { ...linuxX64, platform: 'darwin' as const };
    expect(problems(resources({ [ADDON]: machO(MACHO.arm64) }), { ...mac, arch: 'arm64' })).toEqual([]);
    expect(
      problems(resources({ [ADDON]: fatMachO([MACHO.arm64, MACHO.x64]) }), { ...mac, arch: 'x64' }),
    ).toEqual([]);
    expect(problems(resources({ [ADDON]: pe(PE.x64) }), { ...linuxX64, platform: 'win32' })).toEqual([]);
  });

  it('refuses an addon for another CPU: an arm64 build in the x64 dmg, the Windows installer or the deb', () => {
    expect(
      problems(resources({ [ADDON]: machO(MACHO.arm64) }), { ...linuxX64, platform: 'darwin', arch: 'x64' }),
    ).toEqual([`${ADDON} is built for arm64, but this package is for x64`]);
    expect(problems(resources({ [ADDON]: pe(PE.arm64) }), { ...linuxX64, platform: 'win32' })).toEqual([
      `${ADDON} is built for arm64, but this package is for x64`,
    ]);
    expect(problems(resources({ [ADDON]: elf(ELF.arm64) }), linuxX64)).toEqual([
      `${ADDON} is built for arm64, but this package is for x64`,
    ]);
    expect(
      problems(resources({ [ADDON]: fatMachO([MACHO.x64]) }), {
        ...linuxX64,
        platform: 'darwin',
        arch: 'arm64',
      }),
    ).toEqual([`${ADDON} is built for x64, but this package is for arm64`]);
  });

  it("refuses an addon of another system's format, or none", () => {
    expect(problems(resources({ [ADDON]: elf(ELF.x64) }), { ...linuxX64, platform: 'darwin' })).toEqual([
      `${ADDON} is a ELF binary, but this package is for darwin (Mach-O)`,
    ]);
    expect(problems(resources({ [ADDON]: Buffer.from('<html>Not Found</html>') }), linuxX64)).toEqual([
      `${ADDON} is not a native binary ELF can load`,
    ]);
  });

  it("refuses the CLI's Node build, saying both module versions", () => {
    const node = process.versions.node.split('.')[0];
    expect(problems(resources({ [ADDON]: NODE_BUILD }), { ...linuxX64, arch: HOST })).toEqual([
      `${ADDON} is built for module version ${process.versions.modules} (Node ${node}), but Electron ${electron.version} loads module version ${ABI} only`,
    ]);
  });

  it('says both when an addon is wrong twice over, and checks any addon the asar unpacked too', () => {
    const dir = resources({
      [ADDON]: elf(ELF.arm64, symbols('node_register_module_v115', 'node_register_module_v150')),
      'app.asar.unpacked/node_modules/other/build/Release/napi.node': elf(
        ELF.x64,
        symbols('napi_register_module_v1'),
      ),
      'app.asar.unpacked/node_modules/stale/build/Release/stale.node': machO(MACHO.x64),
    });
    expect(problems(dir, linuxX64).sort()).toEqual(
      [
        `${ADDON} is built for arm64, but this package is for x64`,
        `${ADDON} registers several module versions, but Electron ${electron.version} loads module version ${ABI} only`,
        `${join('app.asar.unpacked/node_modules/stale/build/Release/stale.node')} is a Mach-O binary, but this package is for linux (ELF)`,
      ].sort(),
    );
  });

  it('refuses a package without the better-sqlite3 addon, which the app cannot open its database without', () => {
    const dir = resources({ 'app.asar.unpacked/node_modules/other/index.js': Buffer.from('') });
    expect(problems(dir, linuxX64)).toEqual([`${ADDON} is missing`]);
  });
});
