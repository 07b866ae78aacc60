import { getRawHeader } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join, win32 } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli';
import { configFile, electronBuilder, yaml } from './electron-builder-run';
import { windowsElectronDistStandIn } from './electron-stand-in/dist';
import { ROOT } from './scratch-project';

// The Windows package, made by electron-builder (`--win --dir`) on this checkout: the app's folder
// as the nsis installer installs it. A real Windows executable stands in for electron.exe
// (electron-builder edits its resources): rcedit.exe, which electron-builder's own dependencies
// install, with Electron's fuse wire after it. The installer's own script (the PATH) is compiled by
// makensis (Debian's nsis), and read for what it does, since it cannot run here.

const require = createRequire(import.meta.url);
const { NtExecutable, NtExecutableResource } = require('resedit') as {
  NtExecutable: { from(bin: Buffer): unknown };
  NtExecutableResource: {
    from(executable: unknown): {
      entries: Array<{ type: string | number; id: string | number; bin: ArrayBuffer }>;
    };
  };
};

const WINDOWS_EXECUTABLE = join(ROOT, 'node_modules/electron-winstaller/vendor/rcedit.exe');
const NODE_BUILD = join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const INCLUDE = join(ROOT, 'resources/windows/installer.nsh');

let work: string;
let unpacked: string;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'out/main/index.js')))
    throw new Error('out/ is missing: run npm run build:app first.');
  work = tempDir('scriptorium-windows-');
  const electronDist = windowsElectronDistStandIn(
    join(work, 'electron'),
    require('electron/package.json').version as string,
    WINDOWS_EXECUTABLE,
  );
  const addons = join(work, 'addons', 'win32-x64');
  mkdirSync(addons, { recursive: true });
  copyFileSync(NODE_BUILD, join(addons, 'better_sqlite3.node'));
  const run = await electronBuilder([
    '--win',
    '--dir',
    '--x64',
    '--config',
    configFile(work, 'dist', electronDist, join(work, 'addons'), {
      afterPack: null,
      // Version and icon are written by a tool that only runs on Windows; the integrity of app.asar
      // is written all the same.
      win: {
        ...(yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as { win: object }).win,
        signAndEditExecutable: false,
      },
    }),
  ]);
  if (run.code !== 0) throw new Error(`electron-builder failed:\n${run.output}`);
  unpacked = join(work, 'dist', 'win-unpacked');
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the Windows package', () => {
  it('has the `scriptorium` command in a folder of its own, bin\\, which holds nothing Windows would find before it', () => {
    expect(readdirSync(unpacked).sort()).toEqual(['Scriptorium.exe', 'bin', 'resources', 'version']);
    expect(readdirSync(join(unpacked, 'bin'))).toEqual(['scriptorium.cmd']);
    const script = readFileSync(join(unpacked, 'bin', 'scriptorium.cmd'), 'latin1');
    expect(script).toBe(readFileSync(join(ROOT, 'resources/windows/scriptorium.cmd'), 'latin1'));
    // A batch file waits for the program it starts, even a windowed one; the console sees its
    // output and its exit code. %~dp0 is the script's folder, with its backslash.
    const lines = script.split('\r\n').filter((line) => !/^(rem |@echo off|$)/.test(line));
    expect(lines).toEqual(['"%~dp0..\\Scriptorium.exe" %*', 'exit /b %ERRORLEVEL%']);
    const target = win32.resolve('C:\\Program Files\\Scriptorium\\bin\\', '..\\Scriptorium.exe');
    expect(target).toBe('C:\\Program Files\\Scriptorium\\Scriptorium.exe');
  });

  it('checks the integrity of its app.asar: the fuse is on, and the executable holds the hash of its header', async () => {
    const executable = join(unpacked, 'Scriptorium.exe');
    const wire = await getCurrentFuseWire(executable);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe('1'.charCodeAt(0));
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe('1'.charCodeAt(0));
    const resources = NtExecutableResource.from(NtExecutable.from(readFileSync(executable)));
    const integrity = resources.entries.find(
      (entry) => entry.type === 'INTEGRITY' && entry.id === 'ELECTRONASAR',
    );
    expect(integrity).toBeDefined();
    const asar = join(unpacked, 'resources', 'app.asar');
    const header = createHash('sha256').update(getRawHeader(asar).headerString).digest('hex');
    expect(JSON.parse(Buffer.from(integrity!.bin).toString('utf8'))).toEqual([
      { file: 'resources\\app.asar', alg: 'SHA256', value: header },
    ]);
  });
});

describe("the installer's script, resources/windows/installer.nsh", () => {
  const text = readFileSync(INCLUDE, 'utf8');
  /** The body of a macro of the script. */
  const macro = (name: string) => {
    const start = text.indexOf(`!macro ${name}`);
    expect(start, name).toBeGreaterThanOrEqual(0);
    return text.slice(start, text.indexOf('!macroend', start));
  };

  it('compiles with makensis, warnings as errors as electron-builder has it, into an installer and its uninstaller', () => {
    // electron-builder's own definitions the script uses: the install mode and the update flag.
    const harness = join(work, 'harness.nsi');
    writeFileSync(
      harness,
      [
        'Unicode true',
        'OutFile "harness.exe"',
        'RequestExecutionLevel user',
        '!include "LogicLib.nsh"',
        'Var installMode',
        '!macro _isUpdated _a _b _t _f',
        '  StrCmp "$installMode" "updated" `${_t}` `${_f}`',
        '!macroend',
        '!define isUpdated `"" isUpdated ""`',
        `!include "${INCLUDE}"`,
        'Section "install"',
        '  StrCpy $installMode "CurrentUser"',
        '  !insertmacro customInstall',
        '  WriteUninstaller "$INSTDIR\\uninstall.exe"',
        'SectionEnd',
        'Section "Uninstall"',
        '  !insertmacro customUnInstall',
        'SectionEnd',
      ].join('\n'),
    );
    const compiled = spawnSync('makensis', ['-WX', '-V2', harness], { cwd: work, encoding: 'utf8' });
    if (compiled.error !== undefined) {
      throw new Error('makensis is not installed: `apt-get install nsis` (.ci/run installs it).');
    }
    expect(compiled.status, compiled.stdout + compiled.stderr).toBe(0);
    expect(existsSync(join(work, 'harness.exe'))).toBe(true);
  });

  it('puts bin\\ on the PATH of the user, or of all users, kept as REG_EXPAND_SZ, and tells running programs', () => {
    const install = macro('customInstall');
    expect(install).toContain('StrCpy $scriptoriumBin "$INSTDIR\\bin"');
    expect(install).toMatch(
      /\$\{If\} \$installMode == "all"\s+!insertmacro scriptoriumAddToPath HKLM "\$\{SCRIPTORIUM_MACHINE_ENVIRONMENT\}"\s+\$\{Else\}\s+!insertmacro scriptoriumAddToPath HKCU "\$\{SCRIPTORIUM_USER_ENVIRONMENT\}"/,
    );
    expect(text).toContain('!define SCRIPTORIUM_USER_ENVIRONMENT "Environment"');
    expect(text).toContain(
      '!define SCRIPTORIUM_MACHINE_ENVIRONMENT "SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"',
    );
    const add = macro('scriptoriumAddToPath');
    expect(add).toContain('WriteRegExpandStr ${ROOT} "${KEY}" "Path" $scriptoriumPath');
    expect(add).toContain(
      'SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000',
    );
    // Only when it is not there yet, and never from a value not read whole or that would not fit.
    expect(add).toMatch(/\$\{If\} \$scriptoriumReadWhole != "yes"\s+DetailPrint/);
    expect(add).toMatch(/\$\{If\} \$scriptoriumFound != "yes"/);
    expect(add).toMatch(/\$\{If\} \$scriptoriumLength >= \$\{NSIS_MAX_STRLEN\}\s+DetailPrint/);
  });

  it('takes bin\\ off the PATH when the app is uninstalled, but not for an update, whose installer puts it back', () => {
    const uninstall = macro('customUnInstall');
    expect(uninstall).toMatch(/^!macro customUnInstall\s+\$\{IfNot\} \$\{isUpdated\}/);
    expect(uninstall).toContain('!insertmacro scriptoriumRemoveFromPath HKLM');
    expect(uninstall).toContain('!insertmacro scriptoriumRemoveFromPath HKCU');
    const remove = macro('scriptoriumRemoveFromPath');
    expect(remove).toMatch(
      /\$\{If\} \$scriptoriumReadWhole == "yes"[\s\S]*\$\{If\} \$scriptoriumFound == "yes"\s+WriteRegExpandStr \$\{ROOT\} "\$\{KEY\}" "Path" \$scriptoriumKept/,
    );
  });
});
