import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEY_FILE } from '../../src/main/key-vault';
import { CONTENT_SECURITY_POLICY } from '../../src/main/security';
import { WINDOW_STATE_FILE } from '../../src/main/window-state';
import { commandNames, type JobView } from '../../src/shared/contract';
import { desktopChannel } from '../../src/shared/desktop';
import { describePlaylist, describeVideo, startSimulator, type RunningSimulator } from '../../src/simulator';
import { readZip, tempDir } from '../support/cli';
import {
  startDesktop as start,
  type DesktopEnvironment,
  type DesktopProcess,
  type Report,
} from './desktop-process';
import { fakeSafeStorage } from './fake-safe-storage';
import { buildDesktop, scratchProject } from './scratch-project';

// The BUILT main bundle (out/main/index.js), booted under Node with a stand-in for `electron`
// (electron-stand-in/): no Electron binary can run here, but everything main does is real.

let project: string;
let sim: RunningSimulator;

beforeAll(async () => {
  project = scratchProject();
  await buildDesktop(project);
  sim = await startSimulator({ credits: 1000, latencyMs: 5 });
}, 60_000);

afterAll(async () => {
  await sim?.close();
});

/** Every app started, so that one a failed test left running is stopped. */
const started: DesktopProcess[] = [];
afterEach(() => {
  for (const desktop of started.splice(0)) if (desktop.child.exitCode === null) desktop.child.kill('SIGKILL');
});

function startDesktop(environment: DesktopEnvironment): DesktopProcess {
  const desktop = start(environment);
  started.push(desktop);
  return desktop;
}

function environment() {
  const dir = tempDir();
  const downloads = join(dir, 'Downloads');
  mkdirSync(downloads);
  return {
    project,
    userData: join(dir, 'userData'),
    downloads,
    keychainSecret: randomBytes(32).toString('hex'),
  };
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

const jobChanged = (predicate: (job: JobView) => boolean) => (report: Report) =>
  report.type === 'event' &&
  report['channel'] === 'scriptorium:event:jobChanged' &&
  predicate(report['payload'] as JobView);

function draft(source: string, concurrency = 2) {
  return {
    sources: [{ where: 'line 1', text: source }],
    languages: 'orig',
    includeTimestamp: true,
    sendMetadata: false,
    maxVideos: null,
    budget: null,
    concurrency,
    formats: ['txt', 'json'],
  };
}

/** Every file under `dir`, with what it holds, to look for a secret in. */
function filesUnder(dir: string): Array<{ path: string; bytes: Buffer }> {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, bytes: readFileSync(path) }));
}

async function quitByClosingTheWindow(desktop: DesktopProcess): Promise<number | null> {
  await desktop.request('closeWindow');
  return desktop.exited;
}

describe('the desktop app, built, booted with a stand-in for Electron', () => {
  it('opens one sandboxed, isolated window under the CSP, with every contract command bound', async () => {
    const env = environment();
    const desktop = startDesktop(env);
    await desktop.waitFor((report) => report.type === 'window' && report['shown'] === true);
    const state = await desktop.request<{
      channels: string[];
      windows: Array<{ options: { webPreferences: Record<string, unknown> }; page: string }>;
      session: string[];
    }>('state');

    expect(state.channels.sort()).toEqual(
      [...commandNames.map((name) => `scriptorium:command:${name}`), ...Object.values(desktopChannel)].sort(),
    );
    expect(state.windows).toHaveLength(1);
    const [window] = state.windows;
    expect(window?.options.webPreferences).toEqual({
      preload: join(project, 'out/preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
      devTools: true,
    });
    // Electron's own menu, with its developer tools, stays while developing.
    expect(desktop.reports.filter((report) => report.type === 'menu')).toEqual([]);
    expect(existsSync(join(project, 'out/preload/index.cjs'))).toBe(true);
    const page = join(project, 'out/renderer/index.html');
    expect(window?.page).toBe(pathToFileURL(page).href);
    expect(readFileSync(page, 'utf8')).toContain(`content="${CONTENT_SECURITY_POLICY}"`);
    expect(await desktop.request('headers')).toEqual({
      responseHeaders: { 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });

    for (const permission of ['media', 'notifications', 'geolocation']) {
      expect(await desktop.request('permission', { permission })).toEqual({ granted: false, checked: false });
    }
    expect(await desktop.request('navigate', { url: 'file:///etc/passwd' })).toEqual({ prevented: true });
    expect(await desktop.request('openWindow', { url: 'smb://attacker/share' })).toEqual({ action: 'deny' });
    expect(await desktop.request('navigate', { url: 'https://docs.example/help' })).toEqual({
      prevented: true,
    });
    const opened = await desktop.waitFor((report) => report.type === 'openExternal');
    expect(desktop.reports.filter((report) => report.type === 'openExternal')).toEqual([opened]);
    expect(opened['url']).toBe('https://docs.example/help');

    expect(
      await desktop.request('invoke', {
        channel: 'scriptorium:command:listJobs',
        input: {},
        frameUrl: 'https://evil.example/',
      }),
    ).toMatchObject({ ok: false, error: { code: 'access_refused' } });

    // A second launch shows this window again.
    expect(await desktop.request('secondInstance')).toEqual({ visible: true });

    expect(await quitByClosingTheWindow(desktop)).toBe(0);
    expect(JSON.parse(readFileSync(join(env.userData, WINDOW_STATE_FILE), 'utf8'))).toEqual({
      x: 100,
      y: 100,
      width: 1100,
      height: 720,
      maximized: false,
    });
    expect(desktop.reports.filter((report) => report.type === 'errorBox')).toEqual([]);
  });

  it('runs a job through IPC to completion against the simulator, keeps the key only encrypted, and notifies', async () => {
    const env = environment();
    const desktop = startDesktop(env);
    await command(desktop, 'updateSettings', { serviceUrl: sim.url });
    expect(await command(desktop, 'setKey', { key: sim.key })).toMatchObject({
      set: true,
      storage: 'encrypted',
    });

    const { job } = await command<{ job: JobView }>(desktop, 'createJob', {
      draft: draft('PLdesktopSmoke_n12'),
      start: true,
    });
    const captioned = describePlaylist('PLdesktopSmoke_n12')
      .videoIds()
      .filter((videoId) => describeVideo(videoId).hasCaptions).length;
    const completed = await desktop.waitFor(
      jobChanged((view) => view.id === job.id && view.status === 'completed'),
    );
    expect((completed['payload'] as JobView).counts).toMatchObject({ total: 12, ok: captioned, pending: 0 });
    const notice = await desktop.waitFor((report) => report.type === 'notification');
    expect(notice).toEqual({
      type: 'notification',
      title: 'Job finished',
      body: `${(completed['payload'] as JobView).title}: ${captioned} transcripts fetched. Export it from Jobs.`,
    });

    // A destination the save dialog did not return is refused, and nothing is written there.
    const unchosen = join(env.downloads, 'not-chosen.zip');
    await expect(
      command(desktop, 'exportJob', { jobId: job.id, formats: ['txt'], destination: unchosen }),
    ).rejects.toThrow('An export is written only where you chose in the save dialog');
    expect(existsSync(unchosen)).toBe(false);

    // The desktop bridge answers envelopes, as the contract's channels do.
    const chosen = await desktop.request<Answer<string>>('invoke', {
      channel: desktopChannel.chooseExportPath,
      input: 'Desktop smoke',
    });
    const destination = chosen.ok ? chosen.value : '';
    expect(destination).toBe(join(env.downloads, 'chosen-corpus.zip'));
    const exported = await command<{ path: string; complete: boolean }>(desktop, 'exportJob', {
      jobId: job.id,
      formats: ['txt', 'json'],
      destination,
    });
    expect(exported).toMatchObject({ path: destination, jobFinished: true });
    const zip = await readZip(destination);
    expect(zip.manifest).toMatchObject({ counts: { videos: 12, ok: captioned } });

    expect(await quitByClosingTheWindow(desktop)).toBe(0);
    const key = Buffer.from(sim.key);
    const files = filesUnder(env.userData);
    expect(files.map((file) => file.path)).toContain(join(env.userData, KEY_FILE));
    expect(files.filter((file) => file.bytes.includes(key)).map((file) => file.path)).toEqual([]);
    const keychain = fakeSafeStorage({ secret: Buffer.from(env.keychainSecret, 'hex') });
    // The key is kept with the address it was saved for, and goes nowhere else.
    expect(JSON.parse(keychain.decryptString(readFileSync(join(env.userData, KEY_FILE))))).toEqual({
      key: sim.key,
      serviceUrl: sim.url,
    });
    expect(JSON.stringify(desktop.reports)).not.toContain(sim.key);
    expect(desktop.stderr()).not.toContain(sim.key);
  });

  it('continues at the next start a job that was running when the app quit, buying nothing twice', async () => {
    const slow = await startSimulator({ credits: 1000, latencyMs: 25 });
    try {
      const env = environment();
      const first = startDesktop(env);
      await command(first, 'updateSettings', { serviceUrl: slow.url });
      await command(first, 'setKey', { key: slow.key });
      const { job } = await command<{ job: JobView }>(first, 'createJob', {
        draft: draft('PLresumeAtNext_n60', 1),
        start: true,
      });
      await first.waitFor(jobChanged((view) => view.id === job.id && view.counts.ok >= 3));
      expect(await quitByClosingTheWindow(first)).toBe(0);
      expect(first.reports.filter((report) => report.type === 'notification')).toEqual([]);

      const second = startDesktop(env);
      const finished = await second.waitFor(
        jobChanged((view) => view.id === job.id && view.status === 'completed'),
      );
      const captioned = describePlaylist('PLresumeAtNext_n60')
        .videoIds()
        .filter((videoId) => describeVideo(videoId).hasCaptions).length;
      expect((finished['payload'] as JobView).counts).toMatchObject({ total: 60, ok: captioned, pending: 0 });
      await second.waitFor((report) => report.type === 'notification' && report['title'] === 'Job finished');
      const charges = slow.admin.ledger().filter((charge) => charge.videoId !== undefined);
      expect(charges).toHaveLength(60);
      expect(new Set(charges.map((charge) => charge.videoId)).size).toBe(60);
      expect(await quitByClosingTheWindow(second)).toBe(0);
    } finally {
      await slow.close();
    }
  });

  it('keeps a marked job current from the start: syncs it, names what was new in a notification, and writes its chosen file', async () => {
    const env = environment();
    const first = startDesktop(env);
    await command(first, 'updateSettings', { serviceUrl: sim.url });
    await command(first, 'setKey', { key: sim.key });
    const { job } = await command<{ job: JobView }>(first, 'createJob', {
      draft: draft('@desktopKeptCurrent_n6'),
      start: true,
    });
    await first.waitFor(jobChanged((view) => view.id === job.id && view.status === 'completed'));
    await command(first, 'setKeepCurrent', { jobId: job.id, on: true });
    // The file for automatic exports comes from the save dialog, as an export's does.
    await expect(
      command(first, 'setAutoExport', { jobId: job.id, destination: join(env.downloads, 'not-chosen.zip') }),
    ).rejects.toThrow('The file for automatic exports is one you chose in the save dialog');
    const chosen = await first.request<Answer<string>>('invoke', {
      channel: desktopChannel.chooseExportPath,
      input: 'Kept current',
    });
    const destination = chosen.ok ? chosen.value : '';
    expect(await command<JobView>(first, 'setAutoExport', { jobId: job.id, destination })).toMatchObject({
      keepCurrent: { available: true, marked: true, autoExportPath: destination },
    });
    expect(await quitByClosingTheWindow(first)).toBe(0);
    expect(existsSync(destination)).toBe(false);

    sim.admin.addUploads('@desktopKeptCurrent_n6', 2);
    const second = startDesktop(env);
    const synced = await second.waitFor(
      jobChanged((view) => view.id === job.id && view.status === 'completed' && view.counts.total === 8),
    );
    expect((synced['payload'] as JobView).keepCurrent.lastSyncAt).toEqual(expect.any(String));
    const notice = await second.waitFor((report) => report.type === 'notification');
    expect(notice).toEqual({
      type: 'notification',
      title: `2 new videos in ${(synced['payload'] as JobView).title}`,
      body: expect.stringMatching(/^Brought up to date for \d+ credits?\.$/),
    });
    await vi.waitFor(
      async () =>
        expect(
          (await command<{ exportPath: string | null }>(second, 'jobDetail', { jobId: job.id })).exportPath,
        ).toBe(destination),
      { timeout: 15_000, interval: 50 },
    );
    expect((await readZip(destination)).manifest).toMatchObject({ counts: { videos: 8 } });
    expect(await quitByClosingTheWindow(second)).toBe(0);
    // The sync's return to finished is no "Job finished": the notice of what was new says it.
    expect(second.reports.filter((report) => report.type === 'notification')).toEqual([notice]);
  });

  it('says why in a dialog and leaves when the data folder cannot be used', async () => {
    const env = environment();
    mkdirSync(join(env.userData, 'scriptorium.db'), { recursive: true });
    const desktop = startDesktop(env);
    expect(await desktop.exited).toBe(1);
    const [box, ...more] = desktop.reports.filter((report) => report.type === 'errorBox');
    expect(more).toEqual([]);
    expect(box?.['title']).toBe('Scriptorium cannot start');
    expect(box?.['content']).toMatch(/database/);
    expect(desktop.reports.some((report) => report.type === 'window')).toBe(false);
  });

  it('leaves at once, touching nothing, when another instance is running', async () => {
    const env = environment();
    const desktop = startDesktop({ ...env, lockHeld: true });
    expect(await desktop.exited).toBe(0);
    expect(desktop.reports.map((report) => report.type)).toEqual(['lock', 'exit']);
    expect(existsSync(env.userData)).toBe(false);
  });
});
