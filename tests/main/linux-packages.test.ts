import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli';
import { configFile, electronBuilder, fpmCall, fpmStandIn, type FpmCall } from './electron-builder-run';
import { electronDistStandIn } from './electron-stand-in/dist';
import { ROOT } from './scratch-project';

// The deb and the rpm, made by electron-builder (`--linux deb rpm`, as the release workflow runs it)
// from a package of this checkout with a stand-in for Electron, and with a stand-in for fpm that keeps
// what it was given: the paths each package installs, its dependencies and descriptions, and the
// scripts dpkg and rpm run, as electron-builder wrote them. Those scripts are then run with sh as the
// package managers run them, with the arguments each passes, on a copy of the system in a folder
// (their paths moved there) with Debian's real update-alternatives: installed, upgraded, removed.
// Needs the built app in out/ (npm run build:app).

const electronVersion = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version;
const NODE_BUILD = join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const REPOSITORY = 'https://github.com/scriptorium-project/scriptorium';

let work: string;
let unpacked: string;
const made: Partial<Record<'deb' | 'rpm', FpmCall>> = {};

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'out/main/index.js')))
    throw new Error('out/ is missing: run npm run build:app first.');
  work = tempDir('scriptorium-linux-packages-');
  const electronDist = electronDistStandIn(join(work, 'electron'), electronVersion);
  const addons = join(work, 'addons');
  mkdirSync(join(addons, `linux-${process.arch}`), { recursive: true });
  copyFileSync(NODE_BUILD, join(addons, `linux-${process.arch}`, 'better_sqlite3.node'));
  const fpm = fpmStandIn(join(work, 'fpm'));
  const run = await electronBuilder(
    [
      '--linux',
      'deb',
      'rpm',
      `--${process.arch}`,
      '--config',
      configFile(work, 'dist', electronDist, addons, {
        afterPack: null,
        extraMetadata: { repository: REPOSITORY },
      }),
    ],
    { USE_SYSTEM_FPM: 'true', PATH: `${fpm}:${process.env['PATH']}` },
  );
  if (run.code !== 0) throw new Error(`electron-builder failed:\n${run.output}`);
  unpacked = join(work, 'dist', process.arch === 'x64' ? 'linux-unpacked' : `linux-${process.arch}-unpacked`);
  made.deb = fpmCall(fpm, 'deb');
  made.rpm = fpmCall(fpm, 'rpm');
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const call = (target: 'deb' | 'rpm'): FpmCall => made[target]!;
const option = (target: 'deb' | 'rpm', name: string): string | undefined => {
  const { args } = call(target);
  return args[args.indexOf(name) + 1];
};
/** The pairs fpm is told to install: file in the package -> path on the system. */
const installed = (target: 'deb' | 'rpm'): Map<string, string> =>
  new Map(
    call(target)
      .args.filter((arg) => arg.includes('=/'))
      .map((arg) => [arg.slice(arg.lastIndexOf('=/') + 1), arg.slice(0, arg.lastIndexOf('=/'))]),
  );
const dependencies = (target: 'deb' | 'rpm'): string[] => {
  const { args } = call(target);
  return args.flatMap((arg, at) => (arg === '-d' ? [args[at + 1]!] : []));
};

describe('the deb and the rpm', () => {
  it("install an icon in each of hicolor's app directories from 16 to 512 pixels, and nowhere else", () => {
    // hicolor-icon-theme's index.theme, as Debian 12 and Ubuntu 24.04 ship it: desktops look for an
    // app's icon in the directories it lists only.
    const indexTheme = readFileSync('/usr/share/icons/hicolor/index.theme', 'utf8');
    const listed = new Set(/^Directories=(.*)$/m.exec(indexTheme)![1]!.split(','));
    for (const target of ['deb', 'rpm'] as const) {
      const icons = [...installed(target).keys()].filter((path) => path.startsWith('/usr/share/icons/'));
      const directories = icons.map(
        (path) => /^\/usr\/share\/icons\/hicolor\/(.+)\/scriptorium\.png$/.exec(path)?.[1],
      );
      expect(directories.filter((directory) => directory === undefined || !listed.has(directory))).toEqual(
        [],
      );
      expect(directories).toEqual(
        expect.arrayContaining([
          '16x16/apps',
          '32x32/apps',
          '48x48/apps',
          '64x64/apps',
          '128x128/apps',
          '256x256/apps',
          '512x512/apps',
        ]),
      );
      // Each file is the size its directory says.
      for (const [path, file] of installed(target)) {
        const size = /hicolor\/(\d+)x\1\//.exec(path)?.[1];
        if (size === undefined) continue;
        const png = readFileSync(file);
        expect([png.readUInt32BE(16), png.readUInt32BE(20)], path).toEqual([Number(size), Number(size)]);
      }
    }
  });

  it('put `scriptorium` on the PATH: /usr/bin/scriptorium is the packaged executable, the CLI with arguments', () => {
    for (const target of ['deb', 'rpm'] as const) {
      expect(installed(target).get('/opt/Scriptorium')).toBe(`${unpacked}/`);
      expect(call(target).afterInstall).toContain(
        "update-alternatives --install '/usr/bin/scriptorium' 'scriptorium' '/opt/Scriptorium/scriptorium'",
      );
    }
    expect(existsSync(join(unpacked, 'scriptorium'))).toBe(true);
  });

  it('name the repository as their homepage and the maintainers without a made-up address', () => {
    for (const target of ['deb', 'rpm'] as const) {
      expect(option(target, '--url')).toBe(REPOSITORY);
      expect(option(target, '--maintainer')).toBe('Scriptorium maintainers');
      expect(call(target).args.filter((arg) => /example|noreply/i.test(arg))).toEqual([]);
    }
  });

  it('say in one line what the app is: the deb its Description, the rpm its Summary', () => {
    const synopsis = 'Bulk export of video transcripts into ZIP corpora researchers can cite';
    // fpm makes the deb's Description of --description: its first line is the one apt lists.
    const [first, ...more] = option('deb', '--description')!.split('\n');
    expect(first).toBe(synopsis);
    expect(more.join('\n')).toContain('Export transcripts in bulk from the Video Transcript Service');
    expect(option('rpm', '--rpm-summary')).toBe(synopsis);
  });

  it('depend on GBM and ALSA, which Chromium loads and nothing else brings on a minimal system', () => {
    expect(dependencies('deb')).toEqual(
      expect.arrayContaining([
        'libgtk-3-0',
        'libnss3',
        'libsecret-1-0',
        'libgbm1',
        'libasound2 | libasound2t64',
      ]),
    );
    expect(dependencies('rpm')).toEqual(
      expect.arrayContaining(['gtk3', 'nss', '(mesa-libgbm or libgbm1)', '(alsa-lib or libasound2)']),
    );
  });

  it('are told to check for updates, and which kind of package they are (electron-updater reads both)', () => {
    const resources = join(unpacked, 'resources');
    expect(readFileSync(join(resources, 'app-update.yml'), 'utf8')).toContain('provider: github');
    // Written by the last package made from the folder; each package's own is `deb` or `rpm`.
    expect(['deb', 'rpm']).toContain(readFileSync(join(resources, 'package-type'), 'utf8'));
  });
});

/**
 * A copy of the system in a folder: the scripts' paths (/usr/bin, /opt, /etc) moved into it, Debian's
 * update-alternatives keeping its links and records there, and stand-ins for AppArmor's tools (as on
 * Ubuntu, with AppArmor on) and the desktop's caches.
 */
function fakeSystem(name: string) {
  const root = join(work, name);
  const tools = join(root, 'tools');
  for (const dir of [
    'usr/bin',
    'etc/apparmor.d',
    'etc/alternatives',
    'var/lib/dpkg/alternatives',
    'opt/Scriptorium/resources',
    'tools',
  ]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, 'opt/Scriptorium/scriptorium'), '#!/bin/sh\n', { mode: 0o755 });
  writeFileSync(join(root, 'opt/Scriptorium/resources/apparmor-profile'), 'profile scriptorium {}\n');
  const tool = (toolName: string, body: string) =>
    writeFileSync(join(tools, toolName), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  tool(
    'update-alternatives',
    `exec /usr/bin/update-alternatives --altdir '${root}/etc/alternatives' --admindir '${root}/var/lib/dpkg/alternatives' --log /dev/null --quiet "$@"`,
  );
  tool('apparmor_status', 'exit 0');
  tool('apparmor_parser', 'exit 0');
  tool('update-mime-database', 'exit 0');
  tool('update-desktop-database', 'exit 0');
  const moved = (script: string) => script.replace(/'\/(usr|opt|etc)\//g, `'${root}/$1/`);

  /** Runs a package's script as its package manager would: sh, with that manager's argument. */
  const run = (script: string, argument: string) => {
    const file = join(root, 'script');
    writeFileSync(file, moved(script), { mode: 0o755 });
    const shell = script.startsWith('#!/bin/bash') ? 'bash' : 'sh';
    const result = spawnSync(shell, [file, argument], {
      env: { PATH: `${tools}:/usr/bin:/bin:/usr/sbin:/sbin` },
      encoding: 'utf8',
    });
    expect(result.status, `${argument}: ${result.stderr}`).toBe(0);
  };
  const command = join(root, 'usr/bin/scriptorium');
  return {
    run,
    /** Where /usr/bin/scriptorium leads, or null when it is gone. */
    command: () => (existsSync(command) && lstatSync(command).isSymbolicLink() ? resolved(command) : null),
    profile: () => existsSync(join(root, 'etc/apparmor.d/scriptorium')),
    executable: join(root, 'opt/Scriptorium/scriptorium'),
  };
}

/** Follows a chain of symbolic links (update-alternatives makes two) to its end. */
function resolved(path: string): string {
  let at = path;
  while (lstatSync(at).isSymbolicLink()) at = readlinkSync(at);
  return at;
}

describe("the deb's and the rpm's scripts, run as dpkg and rpm run them", () => {
  it('rpm: installed, upgraded with rpm -U (the old %postun runs last, with 1), then erased (0)', () => {
    const { afterInstall, afterRemove } = call('rpm');
    const system = fakeSystem('rpm');
    system.run(afterInstall, '1');
    expect([system.command(), system.profile()]).toEqual([system.executable, true]);
    // rpm -U: the new version's %post (2 versions installed), then the old version's %postun (1 left).
    system.run(afterInstall, '2');
    system.run(afterRemove, '1');
    expect([system.command(), system.profile()]).toEqual([system.executable, true]);
    // rpm -e: %postun with 0.
    system.run(afterRemove, '0');
    expect([system.command(), system.profile()]).toEqual([null, false]);
  });

  it('deb: installed, upgraded (the old postrm runs with "upgrade"), removed, then purged', () => {
    const { afterInstall, afterRemove } = call('deb');
    const system = fakeSystem('deb');
    system.run(afterInstall, 'configure');
    expect([system.command(), system.profile()]).toEqual([system.executable, true]);
    system.run(afterRemove, 'upgrade');
    expect([system.command(), system.profile()]).toEqual([system.executable, true]);
    system.run(afterInstall, 'configure');
    system.run(afterRemove, 'remove');
    expect([system.command(), system.profile()]).toEqual([null, false]);
    system.run(afterRemove, 'purge');
    expect([system.command(), system.profile()]).toEqual([null, false]);
  });

  it('the after-remove script is plain sh (rpm runs its scriptlets with /bin/sh), which shellcheck passes where it is installed', () => {
    const { afterRemove } = call('rpm');
    expect(afterRemove.startsWith('#!/bin/sh\n')).toBe(true);
    const shellcheck = spawnSync('shellcheck', ['--version']);
    if (shellcheck.error !== undefined) return;
    const file = join(work, 'after-remove.sh');
    writeFileSync(file, afterRemove);
    const checked = spawnSync('shellcheck', ['-s', 'sh', file], { encoding: 'utf8' });
    expect(checked.stdout).toBe('');
  });
});
