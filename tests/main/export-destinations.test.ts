import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryKeyStore, openApp, type ScriptoriumApp } from '../../src/core/app';
import { bindDesktopBridge, type DesktopServices } from '../../src/main/desktop-bridge';
import { ExportDestinations, exportsOnlyWhereChosen } from '../../src/main/export-destinations';
import { bindCommands, type IpcMainLike } from '../../src/main/ipc';
import { unwrap } from '../../src/shared/client';
import type { Answer, JobView } from '../../src/shared/contract';
import { tempDir } from '../support/cli';

/** A stand-in for Electron's ipcMain: keeps the handlers and lets the test invoke them as the page would. */
function fakeIpcMain() {
  const handlers = new Map<string, (event: unknown, input: unknown) => unknown>();
  const ipc: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const invoke = async (channel: string, input: unknown) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler({}, input);
  };
  return { ipc, invoke };
}

/** The system's save dialog, answering `filePath` each time. */
function dialogAnswering(filePath: string): DesktopServices {
  return {
    showSaveDialog: async () => ({ canceled: false, filePath }),
    showItemInFolder: () => undefined,
    openInBrowser: async () => false,
    downloadsFolder: '/home/me/Downloads',
  };
}

let dir: string;
let app: ScriptoriumApp;

beforeEach(() => {
  dir = tempDir();
  app = openApp({ dataDir: join(dir, 'data'), keys: memoryKeyStore() });
});

afterEach(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

async function createJob(invoke: (channel: string, input: unknown) => Promise<unknown>): Promise<number> {
  const created = (await invoke('scriptorium:command:createJob', {
    draft: {
      sources: [{ where: 'line 1', text: 'PLexportDestinations_n5' }],
      languages: 'orig',
      includeTimestamp: true,
      sendMetadata: false,
      maxVideos: null,
      budget: null,
      concurrency: 2,
      formats: ['txt'],
    },
    start: false,
  })) as { ok: true; value: { job: { id: number } } };
  return created.value.job.id;
}

describe("the desktop's exports", () => {
  it('are written only where the save dialog said, once for each time it said so', async () => {
    const { ipc, invoke } = fakeIpcMain();
    const destinations = new ExportDestinations('linux');
    bindCommands(ipc, exportsOnlyWhereChosen(app.handlers, destinations));
    const chosen = join(dir, 'chosen');
    bindDesktopBridge(ipc, dialogAnswering(chosen), destinations);
    const jobId = await createJob(invoke);
    const exportTo = (destination: string | null) =>
      invoke('scriptorium:command:exportJob', { jobId, formats: ['txt'], destination });
    const refused = {
      ok: false,
      error: {
        code: 'output_refused',
        message:
          'An export is written only where you chose in the save dialog: choose Export again. Nothing was written.',
      },
    };

    // A path of the page's own making, or none at all, is refused before anything is written.
    const elsewhere = join(dir, 'not-chosen.zip');
    expect(await exportTo(elsewhere)).toEqual(refused);
    expect(await exportTo(null)).toEqual(refused);
    expect(existsSync(elsewhere)).toBe(false);

    const path = unwrap(
      (await invoke('scriptorium:desktop:chooseExportPath', 'corpus.zip')) as Answer<string>,
    );
    expect(path).toBe(`${chosen}.zip`);
    expect(await exportTo(`${chosen}.zip`)).toMatchObject({ ok: true, value: { path: `${chosen}.zip` } });
    expect(existsSync(`${chosen}.zip`)).toBe(true);
    // The choice was for that export: another one asks again.
    expect(await exportTo(`${chosen}.zip`)).toEqual(refused);
  });

  it("keep as a job's automatic export file only a path the save dialog returned, and may clear it", async () => {
    const { ipc, invoke } = fakeIpcMain();
    const destinations = new ExportDestinations('linux');
    bindCommands(ipc, exportsOnlyWhereChosen(app.handlers, destinations));
    const chosen = join(dir, 'kept');
    bindDesktopBridge(ipc, dialogAnswering(chosen), destinations);
    const jobId = await createJob(invoke);
    const keepAt = (destination: string | null) =>
      invoke('scriptorium:command:setAutoExport', { jobId, destination });
    const autoExportPath = async () =>
      unwrap((await invoke('scriptorium:command:jobDetail', { jobId })) as Answer<{ job: JobView }>).job
        .keepCurrent.autoExportPath;

    expect(await keepAt(join(dir, 'not-chosen.zip'))).toEqual({
      ok: false,
      error: {
        code: 'output_refused',
        message:
          'The file for automatic exports is one you chose in the save dialog: choose it again. Nothing was changed.',
      },
    });
    expect(await autoExportPath()).toBeNull();

    unwrap((await invoke('scriptorium:desktop:chooseExportPath', 'corpus.zip')) as Answer<string>);
    expect(await keepAt(`${chosen}.zip`)).toMatchObject({
      ok: true,
      value: { keepCurrent: { autoExportPath: `${chosen}.zip` } },
    });
    // Once: the same path again needs the dialog again. Clearing needs no dialog.
    expect(await keepAt(`${chosen}.zip`)).toMatchObject({ ok: false, error: { code: 'output_refused' } });
    expect(await keepAt(null)).toMatchObject({ ok: true, value: { keepCurrent: { autoExportPath: null } } });
    expect(await autoExportPath()).toBeNull();
  });

  it('are never written to a network path on Windows, even one the save dialog returned', async () => {
    const { ipc, invoke } = fakeIpcMain();
    for (const network of [
      '\\\\server\\share\\corpus.zip',
      '//server/share/corpus.zip',
      '\\\\?\\UNC\\server\\share\\corpus.zip',
    ]) {
      const destinations = new ExportDestinations('win32');
      const unbind = bindDesktopBridge(ipc, dialogAnswering(network), destinations);
      expect(await invoke('scriptorium:desktop:chooseExportPath', 'corpus.zip'), network).toEqual({
        ok: false,
        error: {
          code: 'output_refused',
          message:
            'Scriptorium saves exports on a drive of this computer (C:\\ or a mapped drive letter), not at a network path: choose another folder.',
        },
      });
      expect(destinations.take(network)).toBe(false);
      unbind();
    }
    const destinations = new ExportDestinations('win32');
    bindDesktopBridge(ipc, dialogAnswering('Z:\\corpora\\lectures.zip'), destinations);
    expect(await invoke('scriptorium:desktop:chooseExportPath', 'corpus.zip')).toEqual({
      ok: true,
      value: 'Z:\\corpora\\lectures.zip',
    });
    expect(destinations.take('Z:\\corpora\\lectures.zip')).toBe(true);
  });
});
