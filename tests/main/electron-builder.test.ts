import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  drawIcon as drawIconScript,
  encodePng as encodePngScript,
  ICON_SIZE,
  LINUX_ICON_SIZES,
  // @ts-expect-error: a plain ESM script without type declarations
} from '../../scripts/make-icon.mjs';
// @ts-expect-error: a plain ESM script without type declarations
import { PACKAGED_ADDON } from '../../scripts/check-packaged-addons.mjs';
// @ts-expect-error: a plain ESM script without type declarations
import { stagedAddonFolder } from '../../scripts/fetch-electron-addon.mjs';
import { packagedBinding } from '../../src/main/native-binding';
import { tempDir } from '../support/cli';
import { ROOT } from './scratch-project';

const require = createRequire(import.meta.url);
// electron-builder's own reading and schema check of electron-builder.yml.
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  getConfig(projectDir: string, configPath: null, options: null): Promise<Config>;
  validateConfiguration(config: Config, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
// electron-builder's icon resolution and size checks, as a target calls them.
const { convertIcon } = require('app-builder-lib/out/util/iconConverter.js') as {
  convertIcon(options: {
    sources: string[];
    fallbackSources: string[];
    roots: string[];
    format: 'icns' | 'ico' | 'set';
    outDir: string;
  }): Promise<{ icons: Array<{ file: string; size: number }> }>;
};
// How electron-builder names an artifact from its pattern.
const { expandMacro } = require('app-builder-lib/out/util/macroExpander.js') as {
  expandMacro(pattern: string, arch: string | null, appInfo: object, extra: object): string;
};
const { archFromString, getArtifactArchName } = require('builder-util') as {
  archFromString(name: string): number;
  getArtifactArchName(arch: number, ext: string): string;
};
// Where the deb and rpm install the app: /opt/<product name>/<executable>.
const { installPrefix } = require('app-builder-lib/out/targets/LinuxTargetHelper.js') as {
  installPrefix: string;
};

type Config = Record<string, unknown> & {
  productName: string;
  directories: { buildResources: string };
  linux: { executableName: string };
  deb: { appArmorProfile: string };
  rpm: { appArmorProfile: string };
};

const drawIcon = drawIconScript as (size: number) => Buffer;
const encodePng = encodePngScript as (size: number, rows: Buffer) => Buffer;
const packageJson = require('../../package.json') as Record<string, unknown>;
const decode = (png: Buffer) => {
  const chunks: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT') chunks.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return {
    width: png.readUInt32BE(16),
    height: png.readUInt32BE(20),
    rows: inflateSync(Buffer.concat(chunks)),
  };
};

let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
  delete process.env['ELECTRON_BUILDER_ICONS_TOOLSET_DIR'];
});

describe('electron-builder.yml', () => {
  it('is a valid configuration: deb, rpm, then AppImage; dmg for Intel and Apple silicon; an nsis installer', async () => {
    const config = await getConfig(ROOT, null, null);
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    expect(config).toMatchObject({
      linux: { target: ['deb', 'rpm', 'AppImage'], executableName: 'scriptorium', syncDesktopName: true },
      mac: {
        target: [
          { target: 'dmg', arch: ['x64', 'arm64'] },
          // What electron-updater installs from on macOS.
          { target: 'zip', arch: ['x64', 'arm64'] },
        ],
      },
      win: { target: [{ target: 'nsis', arch: ['x64'] }] },
      // Nothing is rebuilt in node_modules, where the CLI's own build of better-sqlite3 lives.
      npmRebuild: false,
      // Fetches better-sqlite3 for each package (fetch-electron-addon.test.ts), and refuses a package
      // whose addons would not load in it (packaged-addons.test.ts).
      beforePack: './scripts/fetch-electron-addon.mjs',
      afterPack: './scripts/check-packaged-addons.mjs',
    });
    const files = (config['files'] as Array<{ filter: string[] }>).flatMap((entry) => entry.filter);
    expect(files).toEqual(
      expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**', 'package.json']),
    );
    expect(packageJson['main']).toBe('out/main/index.js');
  });

  it("ships the addon the hook fetched for each system and CPU where the main process and the check look for it, and none of better-sqlite3's own build", async () => {
    const config = await getConfig(ROOT, null, null);
    const [addon, ...others] = config['extraResources'] as Array<{
      from: string;
      to: string;
      filter: string[];
    }>;
    expect(others).toEqual([]);
    // electron-builder's ${os} and ${arch}, as the hook is told them.
    const from = addon!.from.replace('${os}', 'mac').replace('${arch}', 'arm64');
    expect(join(ROOT, from)).toBe(
      (stagedAddonFolder as (root: string, os: string, arch: string) => string)(ROOT, 'mac', 'arm64'),
    );
    expect(addon!.filter).toEqual(['better_sqlite3.node']);
    const resources = join(ROOT, 'resources-of-a-package');
    expect(join(resources, addon!.to, 'better_sqlite3.node')).toBe(packagedBinding(resources));
    expect(join(resources, PACKAGED_ADDON as string)).toBe(packagedBinding(resources));

    const files = (config['files'] as Array<{ filter: string[] }>).flatMap((entry) => entry.filter);
    expect(files).toContain('!node_modules/better-sqlite3/{src,deps,build}/**');
    expect(files.filter((pattern) => pattern.includes('better_sqlite3.node'))).toEqual([]);
    expect(config['asarUnpack']).toEqual(['**/*.node']);
    expect(config['asar']).toEqual({ smartUnpack: false });
  });

  it('flips the fuses: ASAR integrity on, and file:// keeps its privileges, which the built page needs', async () => {
    const config = await getConfig(ROOT, null, null);
    expect(config['electronFuses']).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: true,
      resetAdHocDarwinSignature: true,
    });
    // Why the file protocol keeps its privileges: the window loads the built page from a file, and
    // the page is an ES module script, which Chromium loads from file:// only with them.
    const page = readFileSync(join(ROOT, 'src/renderer/index.html'), 'utf8');
    expect(page).toMatch(/<script type="module" src="[^"]+"><\/script>/);
    const main = readFileSync(join(ROOT, 'src/main/index.ts'), 'utf8');
    expect(main).toContain(': { file: RENDERER_PAGE }');
  });

  it('signs the dmg with the Developer ID, and leaves it unsigned without one, as the workflow checks it', async () => {
    const config = await getConfig(ROOT, null, null);
    // dmg-builder signs the image only when asked, with the identity the app is signed with; with
    // mac.identity null (npm run dist without one) it signs nothing, and the workflow's spctl check
    // of the dmg runs only when signed (release-workflow.test.ts).
    expect(config['dmg']).toMatchObject({ sign: true });
    const dmgBuilder = readFileSync(require.resolve('dmg-builder/out/dmg.js'), 'utf8');
    expect(dmgBuilder).toContain('if (this.options.sign === true) {');
    expect(dmgBuilder).toContain('if (qualifier === null) {');
  });

  it('names every artifact without a space, as GitHub keeps the name of an uploaded file', async () => {
    const config = await getConfig(ROOT, null, null);
    const appInfo = {
      name: packageJson['name'] as string,
      productName: config.productName,
      sanitizedProductName: config.productName,
      version: packageJson['version'] as string,
    };
    // electron-builder's own expansion, with the architecture names it gives each kind of file.
    const name = (target: string, ext: string, arch: 'x64' | 'arm64') => {
      const pattern = (config[target] as { artifactName?: string } | undefined)?.artifactName;
      expect(pattern, `${target}.artifactName`).toBeDefined();
      return expandMacro(pattern!, getArtifactArchName(archFromString(arch), ext), appInfo, { ext });
    };
    const version = appInfo.version;
    const names = [
      name('deb', 'deb', 'x64'),
      name('rpm', 'rpm', 'x64'),
      name('appImage', 'AppImage', 'x64'),
      name('dmg', 'dmg', 'x64'),
      name('dmg', 'dmg', 'arm64'),
      name('mac', 'zip', 'arm64'),
      name('nsis', 'exe', 'x64'),
    ];
    expect(names).toEqual([
      `scriptorium_${version}_amd64.deb`,
      `scriptorium-${version}.x86_64.rpm`,
      `Scriptorium-${version}-x86_64.AppImage`,
      `Scriptorium-${version}-x64.dmg`,
      `Scriptorium-${version}-arm64.dmg`,
      `Scriptorium-${version}-arm64-mac.zip`,
      `Scriptorium-Setup-${version}.exe`,
    ]);
    expect(names.filter((file) => /\s/.test(file))).toEqual([]);
  });
});

describe('package metadata', () => {
  it('makes up no homepage or address: the deb and rpm name the maintainers, and the repository as homepage', async () => {
    // electron-builder takes the homepage from the checkout's GitHub remote (packaging.test.ts).
    expect(packageJson['homepage']).toBeUndefined();
    expect(packageJson['author']).toEqual({ name: 'Scriptorium maintainers' });
    expect(JSON.stringify(packageJson)).not.toMatch(/example|noreply/i);
    expect(packageJson['description']).toMatch(/\S{10}/);
    expect(packageJson['license']).toBe('MIT');
    const config = await getConfig(ROOT, null, null);
    expect((config.linux as Record<string, unknown>)['maintainer']).toBe('Scriptorium maintainers');
    // Electron gives the window the desktopName; the .desktop entry (syncDesktopName) has that name.
    expect(packageJson['desktopName']).toBe(`${config.linux.executableName}.desktop`);
  });
});

describe('the deb and the rpm on Ubuntu 24.04', () => {
  it("install an AppArmor profile that grants the installed app the user namespaces Chromium's sandbox needs", async () => {
    const config = await getConfig(ROOT, null, null);
    expect(config.deb.appArmorProfile).toBe('resources/linux/apparmor-profile');
    expect(config.rpm.appArmorProfile).toBe(config.deb.appArmorProfile);
    const profile = readFileSync(join(ROOT, config.deb.appArmorProfile), 'utf8');
    const executable = `${installPrefix}/${config.productName}/${config.linux.executableName}`;
    // electron-builder's after-install script copies it to /etc/apparmor.d/<executable name>.
    expect(profile).toMatch(/^abi <abi\/4\.0>,$/m);
    expect(profile).toContain(`profile ${config.linux.executableName} ${executable} flags=(unconfined) {`);
    expect(profile).toMatch(/^\s+userns,$/m);
    const afterInstall = readFileSync(
      require.resolve('app-builder-lib/templates/linux/after-install.tpl'),
      'utf8',
    );
    expect(afterInstall).toContain(
      "APPARMOR_PROFILE_SOURCE='/opt/${sanitizedProductName}/resources/apparmor-profile'",
    );
    expect(afterInstall).toContain("APPARMOR_PROFILE_TARGET='/etc/apparmor.d/${executable}'");
  });
});

describe('the icon', () => {
  /** electron-builder's icon tool stands in here (it is downloaded): it only says what it was given. */
  function stubIconTool(): string {
    scratch = tempDir('icon-tool-');
    const toolset = join(scratch, 'toolset');
    mkdirSync(toolset);
    writeFileSync(
      join(toolset, 'icon-tool.js'),
      `const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.slice(2).split('=')));
       require('node:fs').mkdirSync(args.out, { recursive: true });
       require('node:fs').writeFileSync(require('node:path').join(args.out, 'icon.' + args.format), args.input);`,
    );
    process.env['ELECTRON_BUILDER_ICONS_TOOLSET_DIR'] = toolset;
    return scratch;
  }

  it('is one master of 1024×1024 for macOS and Windows, and for Linux the sizes from 16 to 512 drawn from it', async () => {
    const config = await getConfig(ROOT, null, null);
    const resources = join(ROOT, config.directories.buildResources);
    const master = join(resources, 'icon.png');
    const { width, height } = decode(readFileSync(master));
    expect([width, height]).toEqual([1024, 1024]);
    const outDir = join(stubIconTool(), 'out');
    // The sources each target gives electron-builder's icon conversion (macPackager, winPackager,
    // LinuxTargetHelper).
    const icon = config['icon'] as string;
    const linuxIcon = (config.linux as Record<string, unknown>)['icon'] as string;
    for (const format of ['icns', 'ico'] as const) {
      const { icons } = await convertIcon({
        sources: [icon],
        fallbackSources: [],
        roots: [resources, ROOT],
        format,
        outDir: join(outDir, format),
      });
      expect(readFileSync(icons[0]!.file, 'utf8'), format).toBe(master);
    }
    const { icons } = await convertIcon({
      sources: [linuxIcon, icon],
      fallbackSources: [],
      roots: [resources, ROOT],
      format: 'set',
      outDir: join(outDir, 'set'),
    });
    const sizes = LINUX_ICON_SIZES as number[];
    expect(icons).toEqual(
      sizes.map((size) => ({ file: join(ROOT, linuxIcon, `${size}x${size}.png`), size })),
    );
    for (const { file, size } of icons) {
      const png = decode(readFileSync(file));
      expect([png.width, png.height]).toEqual([size, size]);
      // Drawn at its own size by scripts/make-icon.mjs, as the master is.
      expect(drawIcon(size).equals(png.rows), file).toBe(true);
    }
  });

  it('is drawn by scripts/make-icon.mjs, and one of 256×256 would be refused for macOS', async () => {
    const { rows } = decode(readFileSync(join(ROOT, 'resources', 'icon.png')));
    expect(drawIcon(ICON_SIZE as number).equals(rows)).toBe(true);

    const small = join(stubIconTool(), 'small.png');
    writeFileSync(small, encodePng(256, drawIcon(256)));
    await expect(
      convertIcon({
        sources: [small],
        fallbackSources: [],
        roots: [ROOT],
        format: 'icns',
        outDir: join(scratch!, 'out'),
      }),
    ).rejects.toMatchObject({ code: 'ERR_ICON_TOO_SMALL' });
  });
});
