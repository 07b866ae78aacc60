import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as ElectronUpdater from 'electron-updater';
import type { UpdateStatus } from '../../src/shared/contract';
import { quiet } from '../../src/main/updates/updater';
import {
  AppUpdates,
  CHECK_EVERY_MS,
  FIRST_CHECK_MS,
  type AppUpdatesOptions,
  type Updater,
} from '../../src/main/updates/app-updates';
import { isPackageOf, releasePage } from '../../src/main/updates/installation';
import { tempDir } from '../support/cli';
import { fakeGitHubRelease, OWNER, REPO, type FakeGitHub, type FakeRelease } from './fake-github-release';

// The app's updater (src/main/updates/app-updates.ts) driving electron-updater's own updaters for
// the AppImage and the deb against a fake GitHub release on 127.0.0.1: found, offered, downloaded
// and checked against the release's SHA-512, installed in place after the user agrees; a tampered
// download refused; nothing while a job runs or with "Check for updates" off; nothing asked but the
// release. Electron's network stack stands aside for Node's (the requests are electron-updater's
// own), and Electron's app object for the test's.

const require = createRequire(import.meta.url);
const { AppImageUpdater, DebUpdater } = require('electron-updater') as typeof ElectronUpdater;
const { ElectronHttpExecutor } = require('electron-updater/out/electronHttpExecutor') as {
  ElectronHttpExecutor: new () => object;
};

/** electron-updater's executor (its downloads, its SHA-512 check) over Node's http instead of Electron's net. */
class NodeHttpExecutor extends (ElectronHttpExecutor as unknown as new () => {
  createRequest(options: object, callback: (response: unknown) => void): unknown;
}) {
  override createRequest(options: object, callback: (response: unknown) => void) {
    return request(options, callback);
  }
}

// quitAndInstall tells Electron's autoUpdater it is about to quit; here there is no Electron, and
// this file's stand-in for it is taken away again at its end.
const electronPath = require.resolve('electron', { paths: [dirname(require.resolve('electron-updater'))] });
const electronBefore = require.cache[electronPath];
beforeAll(() => {
  require.cache[electronPath] = { exports: { autoUpdater: new EventEmitter() } } as NodeJS.Module;
});
afterAll(() => {
  if (electronBefore === undefined) delete require.cache[electronPath];
  else require.cache[electronPath] = electronBefore;
});

const CURRENT = '0.1.0';
const NEW = '0.2.0';
const APPIMAGE = `Scriptorium-${NEW}-x86_64.AppImage`;
const DEB = `scriptorium_${NEW}_amd64.deb`;
const RPM = `scriptorium-${NEW}.x86_64.rpm`;

let work: string;
const cleanups: Array<() => Promise<void> | void> = [];
beforeAll(() => {
  work = tempDir('scriptorium-updates-');
  cleanups.push(() => rmSync(work, { recursive: true, force: true }));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(1).reverse()) await cleanup();
  delete process.env['APPIMAGE'];
});

/** A new AppImage: a script that, started, leaves a mark (the updater starts the new version). */
function newAppImage(mark: string): Buffer {
  return Buffer.from(`#!/bin/sh\necho "${NEW} started" > '${mark}'\n`);
}

/** Work the test runs by hand in place of timers: `fire` runs what is due, in order. */
function manualTimers() {
  const due: Array<{ ms: number; work: () => void; cancelled: boolean }> = [];
  return {
    after: ((ms, work) => {
      const entry = { ms, work, cancelled: false };
      due.push(entry);
      return () => (entry.cancelled = true);
    }) satisfies AppUpdatesOptions['after'],
    /** The delays pending now. */
    pending: () => due.filter((entry) => !entry.cancelled).map((entry) => entry.ms),
    fire() {
      const now = due.splice(0).filter((entry) => !entry.cancelled);
      for (const entry of now) entry.work();
    },
  };
}

interface Setup {
  github: FakeGitHub;
  updates: AppUpdates;
  quits: string[];
  timers: ReturnType<typeof manualTimers>;
  jobs: { running: boolean };
  statuses: UpdateStatus[];
}

/**
 * An installed app of `kind`, version 0.1.0, whose feed (app-update.yml, as electron-builder writes it
 * but for the host) is the fake release.
 */
async function installed(kind: 'appimage' | 'deb', release: FakeRelease | undefined): Promise<Setup> {
  const github = await fakeGitHubRelease(release);
  cleanups.push(() => github.close());
  const dir = join(work, `${kind}-${cleanups.length}`);
  mkdirSync(dir, { recursive: true });
  const feed = join(dir, 'app-update.yml');
  writeFileSync(
    feed,
    `provider: github\nowner: ${OWNER}\nrepo: ${REPO}\nhost: ${github.host}\nprotocol: http\nupdaterCacheDirName: scriptorium-updater\n`,
  );
  const quits: string[] = [];
  const adapter = {
    version: CURRENT,
    name: 'Scriptorium',
    isPackaged: true,
    appUpdateConfigPath: feed,
    userDataPath: join(dir, 'userData'),
    baseCachePath: join(dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => quits.push('relaunch'),
    quit: () => quits.push('quit'),
    onQuit: () => undefined,
  };
  // As the app makes it (src/main/updates/updater.ts), on the test's app object.
  const updater = quiet(
    kind === 'appimage'
      ? new AppImageUpdater(undefined, adapter as never)
      : new DebUpdater(undefined, adapter as never),
  );
  (updater as unknown as { httpExecutor: object }).httpExecutor = new NodeHttpExecutor();
  const timers = manualTimers();
  const jobs = { running: false };
  const updates = new AppUpdates({
    updater: updater as unknown as Updater,
    current: CURRENT,
    offer: kind === 'appimage' ? 'install' : 'download',
    isOwnPackage: isPackageOf(kind, 'x64'),
    releaseUrl: (version) => releasePage({ owner: OWNER, repo: REPO }, version),
    jobRunning: () => jobs.running,
    checking: true,
    after: timers.after,
    now: () => new Date('2026-03-04T05:06:07.000Z'),
  });
  const statuses: UpdateStatus[] = [];
  updates.onChange((status) => statuses.push(status));
  return { github, updates, quits, timers, jobs, statuses };
}

/** The installed AppImage (APPIMAGE, as its runtime sets it), holding the old version. */
function installedAppImage(): string {
  const file = join(work, `installed-${cleanups.length}`, 'Scriptorium.AppImage');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '#!/bin/sh\necho 0.1.0\n');
  chmodSync(file, 0o755);
  process.env['APPIMAGE'] = file;
  return file;
}

const sha512Hex = (bytes: Buffer) => createHash('sha512').update(bytes).digest('hex');
const paths = (github: FakeGitHub) => github.requests.map((entry) => `${entry.method} ${entry.url}`);
const feedRequests = [
  `GET /${OWNER}/${REPO}/releases.atom`,
  `GET /api/v3/repos/${OWNER}/${REPO}/releases/latest`,
];

describe('the AppImage updates itself in place after the user agrees', () => {
  it('finds the release, offers it with its checksum, downloads it checked, then installs it and starts it', async () => {
    const mark = join(work, 'started');
    const bytes = newAppImage(mark);
    const { github, updates, quits, statuses } = await installed('appimage', {
      version: NEW,
      channelFile: 'latest-linux.yml',
      files: [
        { name: APPIMAGE, bytes },
        { name: DEB, bytes: Buffer.from('a deb') },
      ],
    });
    const appImage = installedAppImage();

    const found = await updates.check();
    expect(found).toEqual({
      current: CURRENT,
      state: {
        phase: 'available',
        version: NEW,
        offer: 'install',
        releaseUrl: `https://github.com/${OWNER}/${REPO}/releases/tag/v${NEW}`,
        file: { name: APPIMAGE, sha512: sha512Hex(bytes), size: bytes.length },
      },
      waiting: null,
    });
    // Nothing is downloaded before the user agrees.
    expect(paths(github)).toEqual([
      ...feedRequests,
      `GET /${OWNER}/${REPO}/releases/download/v${NEW}/latest-linux.yml`,
    ]);

    const downloaded = await updates.download();
    expect(downloaded.state).toEqual({ phase: 'downloaded', version: NEW });
    expect(statuses.map((status) => status.state.phase)).toContain('downloading');
    expect(paths(github).at(-1)).toBe(`GET /${OWNER}/${REPO}/releases/download/v${NEW}/${APPIMAGE}`);
    // The installed AppImage is untouched until the user restarts for it.
    expect(readFileSync(appImage, 'utf8')).toBe('#!/bin/sh\necho 0.1.0\n');

    await updates.install();
    expect(readFileSync(appImage)).toEqual(bytes);
    // The new version is started, and the app quits.
    await vi.waitFor(() => expect(existsSync(mark)).toBe(true), { timeout: 10_000 });
    expect(readFileSync(mark, 'utf8')).toBe(`${NEW} started\n`);
    await vi.waitFor(() => expect(quits).toEqual(['quit']));

    // Nothing but the release was asked for, and nothing sent about the user.
    for (const { method, url, headers } of github.requests) {
      expect(method).toBe('GET');
      expect(url).not.toContain('?');
      expect(
        Object.keys(headers).filter(
          (name) =>
            !['host', 'connection', 'accept', 'user-agent', 'cache-control', 'accept-encoding'].includes(
              name,
            ),
        ),
      ).toEqual([]);
    }
  });

  it('refuses a tampered download by its SHA-512: nothing installed, the reason said', async () => {
    const bytes = newAppImage(join(work, 'never'));
    const { github, updates } = await installed('appimage', {
      version: NEW,
      channelFile: 'latest-linux.yml',
      files: [{ name: APPIMAGE, bytes, served: Buffer.concat([bytes, Buffer.from('echo tampered\n')]) }],
    });
    const appImage = installedAppImage();
    await updates.check();
    const failed = await updates.download();
    expect(failed.state).toEqual({
      phase: 'failed',
      message: `The download of ${NEW} did not match the release's SHA-512 checksum, so it was discarded and nothing was installed. Try again later.`,
    });
    expect(paths(github).at(-1)).toBe(`GET /${OWNER}/${REPO}/releases/download/v${NEW}/${APPIMAGE}`);
    await expect(updates.install()).rejects.toMatchObject({ code: 'invalid_input' });
    expect(readFileSync(appImage, 'utf8')).toBe('#!/bin/sh\necho 0.1.0\n');
  });

  it('says the app is current when the release is not newer, or the repository has none yet', async () => {
    const same = await installed('appimage', {
      version: CURRENT,
      channelFile: 'latest-linux.yml',
      files: [{ name: `Scriptorium-${CURRENT}-x86_64.AppImage`, bytes: Buffer.from('same') }],
    });
    installedAppImage();
    expect((await same.updates.check()).state).toEqual({
      phase: 'current',
      checkedAt: '2026-03-04T05:06:07.000Z',
    });
    const none = await installed('appimage', undefined);
    expect((await none.updates.check()).state).toEqual({
      phase: 'current',
      checkedAt: '2026-03-04T05:06:07.000Z',
    });
  });
});

describe('the deb (and the rpm) only say a new version exists, with the link and the checksum', () => {
  it('offers the page and its own package checksum, and downloads nothing', async () => {
    const deb = Buffer.from('the new deb');
    const { github, updates } = await installed('deb', {
      version: NEW,
      channelFile: 'latest-linux.yml',
      files: [
        { name: APPIMAGE, bytes: Buffer.from('an AppImage') },
        { name: DEB, bytes: deb },
        { name: RPM, bytes: Buffer.from('an rpm') },
      ],
    });
    const found = await updates.check();
    expect(found.state).toEqual({
      phase: 'available',
      version: NEW,
      offer: 'download',
      releaseUrl: `https://github.com/${OWNER}/${REPO}/releases/tag/v${NEW}`,
      file: { name: DEB, sha512: sha512Hex(deb), size: deb.length },
    });
    await expect(updates.download()).rejects.toMatchObject({ code: 'invalid_input' });
    expect(paths(github).filter((path) => path.includes('/download/') && !path.endsWith('.yml'))).toEqual([]);
  });
});

describe('when the app looks by itself', () => {
  const release: FakeRelease = {
    version: NEW,
    channelFile: 'latest-linux.yml',
    files: [{ name: APPIMAGE, bytes: Buffer.from('new') }],
  };

  it('a while after the start and then twice a day, but never while a job runs: then when it ends', async () => {
    const { github, updates, timers, jobs } = await installed('appimage', release);
    installedAppImage();
    updates.start();
    expect(timers.pending()).toEqual([FIRST_CHECK_MS]);

    jobs.running = true;
    timers.fire();
    expect(github.requests).toEqual([]);
    expect(timers.pending()).toEqual([]);
    // Asked by the user meanwhile, every step is refused, saying why.
    await expect(updates.check()).rejects.toMatchObject({ code: 'job_running' });
    expect(updates.status().waiting).toBe('A job is running: updates wait until it ends (or pause it).');

    jobs.running = false;
    updates.jobsChanged();
    await vi.waitFor(() => expect(updates.status().state.phase).toBe('available'));
    expect(paths(github).slice(0, 2)).toEqual(feedRequests);
    expect(timers.pending()).toEqual([CHECK_EVERY_MS]);

    jobs.running = true;
    await expect(updates.download()).rejects.toMatchObject({ code: 'job_running' });
  });

  it('not at all with "Check for updates" off, and again once it is on', async () => {
    const { github, updates, timers } = await installed('appimage', release);
    installedAppImage();
    updates.start();
    updates.checkingChanged(false);
    expect(updates.status().state).toEqual({ phase: 'off' });
    expect(timers.pending()).toEqual([]);
    await expect(updates.check()).rejects.toMatchObject({ code: 'invalid_input' });
    expect(github.requests).toEqual([]);

    updates.checkingChanged(true);
    expect(timers.pending()).toEqual([FIRST_CHECK_MS]);
    timers.fire();
    await vi.waitFor(() => expect(updates.status().state.phase).toBe('available'));
  });
});
