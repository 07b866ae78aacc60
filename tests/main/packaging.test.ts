import { extractAll, extractFile, listPackage } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_EXPORT_WORKER_FILE } from '../../src/core/app';
import { KEY_FILE } from '../../src/main/key-vault';
import { commandNames, type JobView } from '../../src/shared/contract';
import { desktopChannel } from '../../src/shared/desktop';
import { describePlaylist, describeVideo, startSimulator, type RunningSimulator } from '../../src/simulator';
import { readZip, tempDir } from '../support/cli';
import { startDesktop, type DesktopProcess, type Report } from './desktop-process';
import { DEFAULT_FUSES, electronDistStandIn } from './electron-stand-in/dist';
import { configFile, electronBuilder, yaml, type BuilderRun } from './electron-builder-run';
import { fakeSafeStorage } from './fake-safe-storage';
import { reachedPackages } from './production-tree';
import { ROOT } from './scratch-project';

const require = createRequire(import.meta.url);
// The launcher electron-builder writes into every AppImage (AppRun).
const { generateAppRunScript } = require('app-builder-lib/out/targets/appimage/appImageUtil.js') as {
  generateAppRunScript(config: {
    ExecutableName: string;
    ProductName: string;
    ProductFilename: string;
  }): string;
};

// `electron-builder --dir` for Linux on this checkout, as `npm run dist -- --linux --dir` runs it, with
// a stand-in for the Electron binary (which cannot be fetched here), and with the CLI's Node build
// of better-sqlite3 standing in for the Electron build that electron-builder.yml's beforePack hook
// fetches (the network is not there either). Then the package is booted from its app.asar, under
// Node with the `electron` stand-in, as an installed app starts: as the desktop app, and as the CLI,
// and behind the AppImage's launcher. linux-packages.test.ts makes the deb and the rpm. Needs the
// built app in out/ (npm test builds it first; alone: npm run build:app).

const electronVersion = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version;
const appVersion = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
const NODE_BUILD = join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
/** An architecture the CLI's build is not for. */
const OTHER_ARCH = process.arch === 'x64' ? 'arm64' : 'x64';

/** The address electron-builder reads from the checkout's GitHub remote, as the release workflow's checkout has it. */
const REPOSITORY = 'https://github.com/scriptorium-project/scriptorium';

let work: string;
let refused: BuilderRun;
let unpacked: string;
let app: string;
let sim: RunningSimulator;

beforeAll(async () => {
  for (const built of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html']) {
    if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run npm run build:app first.`);
  }
  work = tempDir('scriptorium-packaging-');
  const electronDist = electronDistStandIn(join(work, 'electron'), electronVersion);
  const addons = join(work, 'addons');
  for (const arch of [process.arch, OTHER_ARCH]) {
    mkdirSync(join(addons, `linux-${arch}`), { recursive: true });
    copyFileSync(NODE_BUILD, join(addons, `linux-${arch}`, 'better_sqlite3.node'));
  }

  const [refusedRun, packaged] = await Promise.all([
    // The afterPack check, as configured: it must refuse the CLI's build in a package for another
    // CPU, for that and for its module version.
    electronBuilder([
      '--linux',
      '--dir',
      `--${OTHER_ARCH}`,
      '--config',
      configFile(work, 'refused', electronDist, addons),
    ]),
    // Without that check, a package for this machine that boots under Node.
    electronBuilder([
      '--linux',
      '--dir',
      `--${process.arch}`,
      '--config',
      configFile(work, 'package', electronDist, addons, {
        afterPack: null,
        extraMetadata: { repository: REPOSITORY },
      }),
    ]),
  ]);
  refused = refusedRun;
  if (packaged.code !== 0) throw new Error(`electron-builder failed:\n${packaged.output}`);
  unpacked = join(
    work,
    'package',
    process.arch === 'x64' ? 'linux-unpacked' : `linux-${process.arch}-unpacked`,
  );
  // An installed app reads app.asar; extracted (the addon stays in resources/native), Node can run it.
  app = join(work, 'app');
  extractAll(join(unpacked, 'resources', 'app.asar'), app);

  sim = await startSimulator({ credits: 1000, latencyMs: 5 });
}, 240_000);

afterAll(async () => {
  await sim?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const started: DesktopProcess[] = [];
afterEach(() => {
  for (const desktop of started.splice(0)) if (desktop.child.exitCode === null) desktop.child.kill('SIGKILL');
});

/**
 * The packaged app, started as an installed app is: app.isPackaged, its resources folder, a fresh
 * data folder; with `args` when the user typed some after `scriptorium`.
 */
function startInstalled(
  args: string[] = [],
  env: Record<string, string> = {},
  dir = join(work, `run-${started.length}`),
): { desktop: DesktopProcess; userData: string; downloads: string; secret: string } {
  const downloads = join(dir, 'Downloads');
  mkdirSync(downloads, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  const userData = join(dir, 'userData');
  const desktop = startDesktop({
    project: app,
    resourcesPath: join(unpacked, 'resources'),
    userData,
    downloads,
    keychainSecret: secret,
    packaged: true,
    args,
    env,
  });
  started.push(desktop);
  return { desktop, userData, downloads, secret };
}

type Answer<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

async function command<T>(desktop: DesktopProcess, name: string, input: unknown): Promise<T> {
  const answer = await desktop.request<Answer<T>>('invoke', {
    channel: `scriptorium:command:${name}`,
    input,
  });
  if (!answer.ok) throw new Error(`${name}: ${answer.error.message}`);
  return answer.value;
}

/** Names of the packages under any node_modules of `paths`. */
function packageNames(paths: string[]): Set<string> {
  return new Set(
    paths.flatMap((path) => [...path.matchAll(/node_modules\/(@[^/]+\/[^/]+|[^/]+)/g)].map((m) => m[1]!)),
  );
}

/** The packages npm installs for production (package-lock.json's entries not marked dev). */
function productionPackages(): Set<string> {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
  };
  const production = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !entry.dev && !entry.devOptional)
    .map(([path]) => path);
  return packageNames(production);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(join(dir, name)).isFile())
    .map((name) => name.split(sep).join('/'))
    .sort();
}

describe('the Linux package, made by electron-builder with a stand-in for Electron', () => {
  it("is refused when its better-sqlite3 is built for another CPU, or is the CLI's Node build, which Electron cannot load", () => {
    expect(refused.code).not.toBe(0);
    const node = process.versions.node.split('.')[0];
    expect(refused.output).toContain(
      `native/better_sqlite3.node is built for ${process.arch}, but this package is for ${OTHER_ARCH}`,
    );
    expect(refused.output).toContain(
      `native/better_sqlite3.node is built for module version ${process.versions.modules} (Node ${node}), but Electron ${electronVersion} loads module version`,
    );
  });

  it('holds the built app and production dependencies only, and beside the asar only better-sqlite3 built for it', () => {
    expect(readdirSync(join(unpacked, 'resources')).sort()).toEqual(['app-update.yml', 'app.asar', 'native']);
    // Where the app looks for a newer version: the repository's GitHub Releases (src/main/updates).
    expect(yaml.load(readFileSync(join(unpacked, 'resources', 'app-update.yml'), 'utf8'))).toEqual({
      provider: 'github',
      owner: 'scriptorium-project',
      repo: 'scriptorium',
      updaterCacheDirName: 'scriptorium-updater',
    });
    expect(filesUnder(join(unpacked, 'resources', 'native'))).toEqual(['better_sqlite3.node']);
    // The addon given to it (the CLI's build, standing in for the one fetched for Electron).
    expect(
      readFileSync(join(unpacked, 'resources', 'native', 'better_sqlite3.node')).equals(
        readFileSync(NODE_BUILD),
      ),
    ).toBe(true);

    const files = listPackage(join(unpacked, 'resources', 'app.asar'), { isPack: false }).map((path) =>
      path.slice(1).split(sep).join('/'),
    );
    expect(files.filter((path) => !path.includes('/')).sort()).toEqual([
      'node_modules',
      'out',
      'package.json',
    ]);
    expect(
      files.filter((path) => path.startsWith('out/') && !path.startsWith('out/renderer/assets/')),
    ).toEqual(
      expect.arrayContaining([
        'out/main/index.js',
        // The worker thread that writes Export results, beside the bundle that starts it.
        `out/main/${SEARCH_EXPORT_WORKER_FILE}`,
        'out/preload/index.cjs',
        'out/renderer/index.html',
      ]),
    );
    expect(files.filter((path) => /^out\/[^/]+$/.test(path)).sort()).toEqual([
      'out/main',
      'out/preload',
      'out/renderer',
    ]);
    const packaged = JSON.parse(
      extractFile(join(unpacked, 'resources', 'app.asar'), 'package.json').toString('utf8'),
    ) as { main: string };
    expect(packaged.main).toBe('out/main/index.js');

    // No sources (ours, TypeScript of dependencies, better-sqlite3's C), maps, objects, addons or tests.
    expect(files.filter((path) => /\.(ts|mts|cts|map|c|cc|cpp|h|hpp|gyp|gypi|o|a|node)$/.test(path))).toEqual(
      [],
    );
    // (A dependency's src/ may be its code: debug's is.)
    expect(files.filter((path) => /^src\/|(^|\/)(tests?|__tests__)\//.test(path))).toEqual([]);
    const inPackage = packageNames(files);
    const production = productionPackages();
    expect([...inPackage].filter((name) => !production.has(name))).toEqual([]);
    // Every package the app's dependencies reach, but none that only better-sqlite3's installer
    // (prebuild-install, which fetches a build when npm installs it) needs.
    const needed = reachedPackages(['prebuild-install']);
    const onlyTheInstaller = [...reachedPackages()].filter((name) => !needed.has(name));
    expect(onlyTheInstaller).toContain('prebuild-install');
    expect([...needed].filter((name) => !inPackage.has(name))).toEqual([]);
    expect(onlyTheInstaller.filter((name) => inPackage.has(name))).toEqual([]);
  });

  it('has its fuses flipped as electron-builder.yml says', async () => {
    const wire = await getCurrentFuseWire(join(unpacked, 'scriptorium'));
    const state = (on: string) => on.charCodeAt(0);
    expect(wire[FuseV1Options.RunAsNode]).toBe(state('0'));
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(state('0'));
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(state('0'));
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(state('1'));
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(state('1'));
    // Needed by the page the window loads from file:// (electron-builder.test.ts).
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(state('1'));
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(state(DEFAULT_FUSES.enableCookieEncryption));
  });

  it('boots from its app.asar as an installed app: one window with its own menu, every command bound', async () => {
    const { desktop } = startInstalled();
    await desktop.waitFor((report) => report.type === 'window' && report['shown'] === true);
    const state = await desktop.request<{
      channels: string[];
      windows: Array<{ options: { webPreferences: Record<string, unknown> }; page: string }>;
    }>('state');
    expect(state.channels.sort()).toEqual(
      [...commandNames.map((name) => `scriptorium:command:${name}`), ...Object.values(desktopChannel)].sort(),
    );
    expect(state.windows).toHaveLength(1);
    expect(state.windows[0]?.page).toBe(pathToFileURL(join(app, 'out/renderer/index.html')).href);
    expect(state.windows[0]?.options.webPreferences).toMatchObject({
      preload: join(app, 'out/preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      devTools: false,
    });
    const [menu, ...more] = desktop.reports.filter((report) => report.type === 'menu');
    expect(more).toEqual([]);
    const roles = JSON.stringify(menu?.['items']);
    expect(roles).toContain('"role":"copy"');
    expect(roles).not.toMatch(/toggleDevTools|reload|viewMenu/i);

    await desktop.request('closeWindow');
    expect(await desktop.exited).toBe(0);
    expect(desktop.reports.filter((report) => report.type === 'errorBox')).toEqual([]);
  });

  it('runs a job to completion against the simulator, exports it, and keeps the key only encrypted', async () => {
    const { desktop, userData, downloads, secret } = startInstalled();
    await command(desktop, 'updateSettings', { serviceUrl: sim.url });
    expect(await command(desktop, 'setKey', { key: sim.key })).toMatchObject({
      set: true,
      storage: 'encrypted',
    });
    const playlist = 'PLpackagedApp_n12';
    const { job } = await command<{ job: JobView }>(desktop, 'createJob', {
      draft: {
        sources: [{ where: 'line 1', text: playlist }],
        languages: 'orig',
        includeTimestamp: true,
        sendMetadata: false,
        maxVideos: null,
        budget: null,
        concurrency: 2,
        formats: ['txt', 'json'],
      },
      start: true,
    });
    const captioned = describePlaylist(playlist)
      .videoIds()
      .filter((videoId) => describeVideo(videoId).hasCaptions).length;
    const completed = await desktop.waitFor(
      (report: Report) =>
        report.type === 'event' &&
        report['channel'] === 'scriptorium:event:jobChanged' &&
        (report['payload'] as JobView).id === job.id &&
        (report['payload'] as JobView).status === 'completed',
    );
    expect((completed['payload'] as JobView).counts).toMatchObject({ total: 12, ok: captioned, pending: 0 });

    // The desktop bridge answers envelopes, as the contract's channels do.
    const chosen = await desktop.request<Answer<string>>('invoke', {
      channel: desktopChannel.chooseExportPath,
      input: 'Packaged',
    });
    const destination = chosen.ok ? chosen.value : '';
    expect(destination).toBe(join(downloads, 'chosen-corpus.zip'));
    await command(desktop, 'exportJob', { jobId: job.id, formats: ['txt', 'json'], destination });
    expect((await readZip(destination)).manifest).toMatchObject({ counts: { videos: 12, ok: captioned } });

    // Export results, on the worker thread the package carries in app.asar, which opens the
    // database with the better-sqlite3 beside the asar (the package's node_modules has no build).
    // "Question" in the simulator's languages: the videos are in their original ones.
    const query = 'question OR pregunta OR Frage OR pergunta OR domanda OR 質問 OR 질문 OR 问题';
    const { hits } = await command<{ hits: number }>(desktop, 'searchTranscripts', { query, limit: 1 });
    expect(hits).toBeGreaterThan(0);
    const csvChosen = await desktop.request<Answer<string>>('invoke', {
      channel: desktopChannel.chooseExportPath,
      input: 'hits.csv',
    });
    const csv = csvChosen.ok ? csvChosen.value : '';
    expect(csv).toBe(join(downloads, 'chosen-corpus.csv'));
    const written = await command<{ hits: number; threadId: number }>(desktop, 'exportSearchResults', {
      query,
      destination: csv,
    });
    expect(written.hits).toBe(hits);
    expect(written.threadId).toBeGreaterThan(0);
    expect(readFileSync(csv, 'utf8').split('\n')[0]).toBe(
      'video_id,transcript_id,language,title,time,start_seconds,url,snippet',
    );

    await desktop.request('closeWindow');
    expect(await desktop.exited).toBe(0);
    const key = Buffer.from(sim.key);
    const files = filesUnder(userData).map((name) => join(userData, name));
    expect(files).toContain(join(userData, KEY_FILE));
    expect(files.filter((file) => readFileSync(file).includes(key))).toEqual([]);
    const keychain = fakeSafeStorage({ secret: Buffer.from(secret, 'hex') });
    // The key is kept with the address it was saved for (it goes nowhere else).
    expect(JSON.parse(keychain.decryptString(readFileSync(join(userData, KEY_FILE))))).toEqual({
      key: sim.key,
      serviceUrl: sim.url,
    });
    expect(desktop.stderr()).not.toContain(sim.key);
  });

  it('is the CLI when given a command: `scriptorium --version` prints the version and exits, with no window', async () => {
    const { desktop } = startInstalled(['--version']);
    expect(await desktop.exited).toBe(0);
    expect(desktop.stdout()).toBe(`${appVersion}\n`);
    expect(desktop.stderr()).toBe('');
    // No window, no menu, and no single-instance lock: a cron job may run beside the open app.
    expect(desktop.reports.map((report) => report.type)).toEqual(['exit']);
  });

  it('runs a job as the CLI on the better-sqlite3 it carries, and `jobs --json` lists it, with no window', async () => {
    const data = join(work, 'cli-data');
    const corpus = join(work, 'cli-corpus.zip');
    const env = { SCRIPTORIUM_DATA_DIR: data, TRANSCRIPT_API_KEY: sim.key };
    const playlist = 'PLpackagedCommandLine_n6';
    const exported = startInstalled(
      ['export', playlist, '--base-url', sim.url, '--out', corpus],
      env,
    ).desktop;
    expect(await exported.exited, exported.stderr()).toBe(0);
    const captioned = describePlaylist(playlist)
      .videoIds()
      .filter((videoId) => describeVideo(videoId).hasCaptions).length;
    expect((await readZip(corpus)).manifest).toMatchObject({ counts: { videos: 6, ok: captioned } });

    const listed = startInstalled(['jobs', '--json'], env).desktop;
    expect(await listed.exited, listed.stderr()).toBe(0);
    const jobs = JSON.parse(listed.stdout()) as JobView[];
    expect(jobs.map((job) => [job.status, job.counts.total])).toEqual([['completed', 6]]);
    for (const run of [exported, listed]) {
      expect(run.reports.map((report) => report.type)).toEqual(['exit']);
    }
  });
});

describe("the AppImage's launcher, electron-builder's AppRun, in front of that package", () => {
  /**
   * Runs AppRun as electron-builder writes it, in an AppDir whose executable only writes down the
   * arguments it was given; `userNamespaces` is whether `unshare -Ur true` succeeds, the launcher's
   * test of whether Chromium's sandbox can start.
   */
  function launch(args: string[], userNamespaces: boolean): string[] {
    const appDir = join(work, `AppDir-${userNamespaces}`);
    const tools = join(work, `tools-${userNamespaces}`);
    mkdirSync(appDir, { recursive: true });
    mkdirSync(tools, { recursive: true });
    writeFileSync(
      join(appDir, 'AppRun'),
      generateAppRunScript({
        ExecutableName: 'scriptorium',
        ProductName: 'Scriptorium',
        ProductFilename: 'Scriptorium',
      }),
      { mode: 0o755 },
    );
    const saw = join(appDir, 'arguments.json');
    writeFileSync(
      join(appDir, 'scriptorium'),
      `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(saw)}, JSON.stringify(process.argv.slice(2)));\n`,
      { mode: 0o755 },
    );
    writeFileSync(join(tools, 'unshare'), `#!/bin/sh\nexit ${userNamespaces ? 0 : 1}\n`, { mode: 0o755 });
    const run = spawnSync('bash', [join(appDir, 'AppRun'), ...args], {
      env: { PATH: `${tools}:${process.env['PATH']}`, HOME: work },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    return JSON.parse(readFileSync(saw, 'utf8')) as string[];
  }

  it('puts --no-sandbox first where user namespaces are blocked; the command after it is still the CLI, with no window', async () => {
    expect(launch(['jobs', '--json'], true)).toEqual(['jobs', '--json']);
    const args = launch(['jobs', '--json'], false);
    expect(args).toEqual(['--no-sandbox', 'jobs', '--json']);

    const env = { SCRIPTORIUM_DATA_DIR: join(work, 'appimage-cli-data') };
    const { desktop } = startInstalled(args, env);
    expect(await desktop.exited, desktop.stderr()).toBe(0);
    expect(JSON.parse(desktop.stdout())).toEqual([]);
    expect(desktop.reports.map((report) => report.type)).toEqual(['exit']);
  });

  it('opens the app without the sandbox only saying so: a line at every start, a message box the first time', async () => {
    const args = launch([], false);
    expect(args).toEqual(['--no-sandbox']);
    const dir = join(work, 'appimage-gui');
    for (const start of [1, 2]) {
      const { desktop } = startInstalled(args, {}, dir);
      await desktop.waitFor((report) => report.type === 'window' && report['shown'] === true);
      const boxes = desktop.reports.filter((report) => report.type === 'messageBox');
      expect(
        boxes.map((box) => (box['options'] as { message: string }).message),
        `start ${start}`,
      ).toEqual(start === 1 ? [expect.stringContaining("running without Chromium's sandbox")] : []);
      await desktop.request('closeWindow');
      expect(await desktop.exited).toBe(0);
      expect(desktop.stderr()).toContain("Scriptorium is running without Chromium's sandbox");
    }
    // With the sandbox, not a word.
    const { desktop } = startInstalled([], {}, dir);
    await desktop.waitFor((report) => report.type === 'window' && report['shown'] === true);
    await desktop.request('closeWindow');
    expect(await desktop.exited).toBe(0);
    expect(desktop.stderr()).not.toContain('sandbox');
  });
});
