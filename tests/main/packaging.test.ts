import { extractAll, extractFile, listPackage } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KEY_FILE } from '../../src/main/key-vault';
import { commandNames, type JobView } from '../../src/shared/contract';
import { desktopChannel } from '../../src/shared/desktop';
import { describePlaylist, describeVideo, startSimulator, type RunningSimulator } from '../../src/simulator';
import { readZip, tempDir } from '../support/cli';
import { startDesktop, type DesktopProcess, type Report } from './desktop-process';
import { DEFAULT_FUSES, electronDistStandIn } from './electron-stand-in/dist';
import { fakeSafeStorage } from './fake-safe-storage';
import { ROOT } from './scratch-project';

// `electron-builder --dir` for Linux on this checkout, as `npm run dist -- --linux --dir` runs it, with
// a stand-in for the Electron binary (which cannot be fetched here) and without the rebuild of
// better-sqlite3 for Electron (whose headers cannot be fetched either). Then the package is booted
// from its app.asar, under Node with the `electron` stand-in, as an installed app starts.
// Needs the built app in out/ (npm test builds it first; alone: npm run build:app).

const electronVersion = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version;
const ADDON = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';

let work: string;
let refused: { code: number | null; output: string };
let unpacked: string;
let app: string;
let sim: RunningSimulator;

/** Runs electron-builder's CLI on this checkout; resolves its exit code and what it printed. */
function electronBuilder(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/electron-builder/cli.js'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'] },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

beforeAll(async () => {
  for (const built of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html']) {
    if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run npm run build:app first.`);
  }
  work = tempDir('scriptorium-packaging-');
  const electronDist = electronDistStandIn(join(work, 'electron'), electronVersion);

  // electron-builder.yml as it is: its afterPack check must refuse the CLI's Node build.
  refused = await electronBuilder([
    '--linux',
    '--dir',
    `-c.electronDist=${electronDist}`,
    '-c.npmRebuild=false',
    `-c.directories.output=${join(work, 'refused')}`,
  ]);

  // The same configuration without that check, for a package that boots under Node.
  const config = join(work, 'electron-builder.json');
  writeFileSync(
    config,
    JSON.stringify({
      extends: `file:${join(ROOT, 'electron-builder.yml')}`,
      afterPack: null,
      npmRebuild: false,
      electronDist,
      directories: { output: join(work, 'package') },
    }),
  );
  const packaged = await electronBuilder(['--linux', '--dir', '--config', config]);
  if (packaged.code !== 0) throw new Error(`electron-builder failed:\n${packaged.output}`);
  unpacked = join(work, 'package', 'linux-unpacked');
  // An installed app reads app.asar; extracted (with app.asar.unpacked), Node can run it.
  app = join(work, 'app');
  extractAll(join(unpacked, 'resources', 'app.asar'), app);
  sim = await startSimulator({ credits: 1000, latencyMs: 5 });
}, 120_000);

afterAll(async () => {
  await sim?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const started: DesktopProcess[] = [];
afterEach(() => {
  for (const desktop of started.splice(0)) if (desktop.child.exitCode === null) desktop.child.kill('SIGKILL');
});

/** The packaged app, started as an installed app is: app.isPackaged, a fresh data folder. */
function startInstalled(): { desktop: DesktopProcess; userData: string; downloads: string; secret: string } {
  const dir = join(work, `run-${started.length}`);
  const downloads = join(dir, 'Downloads');
  mkdirSync(downloads, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  const userData = join(dir, 'userData');
  const desktop = startDesktop({ project: app, userData, downloads, keychainSecret: secret, packaged: true });
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
  it("is refused while its better-sqlite3 is the CLI's Node build, which Electron cannot load", () => {
    expect(refused.code).not.toBe(0);
    const node = process.versions.node.split('.')[0];
    expect(refused.output).toContain(
      `${ADDON} is built for module version ${process.versions.modules} (Node ${node}), but Electron ${electronVersion} loads module version`,
    );
  });

  it('holds the built app and production dependencies only, and outside the asar only the native addon', () => {
    expect(readdirSync(join(unpacked, 'resources')).sort()).toEqual(['app.asar', 'app.asar.unpacked']);
    expect(filesUnder(join(unpacked, 'resources', 'app.asar.unpacked'))).toEqual([ADDON]);

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
      expect.arrayContaining(['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html']),
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

    // No sources (ours, TypeScript of dependencies, better-sqlite3's C), maps, objects or tests.
    expect(files.filter((path) => /\.(ts|mts|cts|map|c|cc|cpp|h|hpp|gyp|gypi|o|a)$/.test(path))).toEqual([]);
    expect(files.filter((path) => /(^|\/)(src|tests?|__tests__)\//.test(path))).toEqual([]);
    const inPackage = packageNames(files);
    const production = productionPackages();
    expect([...inPackage].filter((name) => !production.has(name))).toEqual([]);
    const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect([...inPackage]).toEqual(expect.arrayContaining(Object.keys(dependencies)));
  });

  it('has its fuses flipped as electron-builder.yml says', async () => {
    const wire = await getCurrentFuseWire(join(unpacked, 'scriptorium'));
    const state = (on: string) => on.charCodeAt(0);
    expect(wire[FuseV1Options.RunAsNode]).toBe(state('0'));
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(state('0'));
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(state('0'));
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(state('1'));
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
});
