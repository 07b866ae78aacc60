import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bindDesktopBridge, type DesktopServices } from '../../src/main/desktop-bridge';
import { ExportDestinations } from '../../src/main/export-destinations';
import type { IpcMainLike } from '../../src/main/ipc';
import { openInBrowser } from '../../src/main/security';
import type { IpcRendererLike } from '../../src/preload/api';
import { createDesktopApi } from '../../src/preload/desktop';
import { desktopApi } from '../../src/renderer/src/transport/desktop';
import { ContractError } from '../../src/shared/contract-error';

/**
 * Main's ipcMain and the preload's ipcRenderer joined as Electron joins them: invoke runs the handler
 * and copies its answer with structuredClone, and a handler that throws rejects the invoke with bare
 * text (Electron keeps only the message). Main's real binding, the real preload object and the
 * renderer's real reading of it are under test.
 */
function ipcPair() {
  const handlers = new Map<string, (event: unknown, input: unknown) => unknown>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const ipcRenderer: IpcRendererLike = {
    invoke: async (channel, input) => {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`Error invoking remote method '${channel}': No handler registered`);
      try {
        return structuredClone(await handler({}, structuredClone(input)));
      } catch (error) {
        throw new Error(`Error invoking remote method '${channel}': ${String(error)}`);
      }
    },
    on: () => undefined,
    removeListener: () => undefined,
  };
  return { ipcMain, ipcRenderer, handlers };
}

function fakeServices(answer: { canceled: boolean; filePath?: string } = { canceled: true }) {
  const calls: Array<[string, unknown]> = [];
  const opened: string[] = [];
  const services: DesktopServices = {
    showSaveDialog: async (options) => {
      calls.push(['showSaveDialog', options]);
      return answer;
    },
    showItemInFolder: (path) => void calls.push(['showItemInFolder', path]),
    openInBrowser: (url) => openInBrowser({ openExternal: async (href) => void opened.push(href) }, url),
    downloadsFolder: join('/home', 'me', 'Downloads'),
  };
  return { services, calls, opened };
}

describe('the desktop bridge', () => {
  it('asks where to save with the system dialog, in Downloads, for a .zip named as suggested', async () => {
    const { ipcMain, ipcRenderer } = ipcPair();
    const { services, calls } = fakeServices({ canceled: false, filePath: '/home/me/corpora/lectures' });
    bindDesktopBridge(ipcMain, services, new ExportDestinations(process.platform));
    const desktop = desktopApi(createDesktopApi(ipcRenderer));

    expect(await desktop.chooseExportPath('Lectures 2024.zip')).toBe('/home/me/corpora/lectures.zip');
    expect(calls).toEqual([
      [
        'showSaveDialog',
        {
          title: 'Export the corpus',
          defaultPath: join('/home/me/Downloads', 'Lectures 2024.zip'),
          filters: [{ name: 'ZIP archive', extensions: ['zip'] }],
          properties: ['createDirectory', 'showOverwriteConfirmation'],
        },
      ],
    ]);
  });

  it('asks for a .csv, with a CSV filter, for the hits of a Library search', async () => {
    const { ipcMain, ipcRenderer } = ipcPair();
    const { services, calls } = fakeServices({ canceled: false, filePath: '/home/me/hits' });
    const destinations = new ExportDestinations(process.platform);
    bindDesktopBridge(ipcMain, services, destinations);
    const desktop = desktopApi(createDesktopApi(ipcRenderer));

    expect(await desktop.chooseExportPath('scriptorium-search-river.csv')).toBe('/home/me/hits.csv');
    expect(calls).toEqual([
      [
        'showSaveDialog',
        {
          title: 'Export the search results',
          defaultPath: join('/home/me/Downloads', 'scriptorium-search-river.csv'),
          filters: [{ name: 'CSV table', extensions: ['csv'] }],
          properties: ['createDirectory', 'showOverwriteConfirmation'],
        },
      ],
    ]);
    // The path the dialog returned is the one an export may then be written to, once.
    expect(destinations.take('/home/me/hits.csv')).toBe(true);
    expect(destinations.take('/home/me/hits.csv')).toBe(false);
  });

  it('keeps the suggested name a plain file name, and answers null when the user cancels', async () => {
    const { ipcMain, ipcRenderer } = ipcPair();
    const { services, calls } = fakeServices({ canceled: true });
    bindDesktopBridge(ipcMain, services, new ExportDestinations(process.platform));
    const desktop = desktopApi(createDesktopApi(ipcRenderer));

    expect(await desktop.chooseExportPath('../../.ssh/authorized_keys')).toBeNull();
    expect(await desktop.chooseExportPath('job\u0007 7')).toBeNull();
    expect(await desktop.chooseExportPath('..')).toBeNull();
    expect(await desktop.chooseExportPath('Q&A: "why?"')).toBeNull();
    const defaults = calls.map(([, options]) => (options as { defaultPath: string }).defaultPath);
    expect(defaults).toEqual([
      join('/home/me/Downloads', '.._.._.ssh_authorized_keys.zip'),
      join('/home/me/Downloads', 'job 7.zip'),
      join('/home/me/Downloads', 'corpus.zip'),
      join('/home/me/Downloads', 'Q&A_ _why__.zip'),
    ]);
    await expect(desktop.chooseExportPath(42 as unknown as string)).rejects.toThrow(/file name must be text/);
    await expect(desktop.chooseExportPath(42 as unknown as string)).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });

  it('shows an exported file in its folder, given an absolute path only', async () => {
    const { ipcMain, ipcRenderer } = ipcPair();
    const { services, calls } = fakeServices();
    bindDesktopBridge(ipcMain, services, new ExportDestinations(process.platform));
    const desktop = desktopApi(createDesktopApi(ipcRenderer));

    await desktop.showInFolder('/home/me/corpora/lectures.zip');
    for (const refused of ['corpora/lectures.zip', '/home/me/a\0b.zip', ['/etc/passwd']]) {
      const error = await desktop.showInFolder(refused as string).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContractError);
      expect(error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/absolute path/) });
    }
    expect(calls).toEqual([['showItemInFolder', '/home/me/corpora/lectures.zip']]);
  });

  it('opens https links in the browser and refuses every other scheme', async () => {
    const { ipcMain, ipcRenderer } = ipcPair();
    const { services, opened } = fakeServices();
    bindDesktopBridge(ipcMain, services, new ExportDestinations(process.platform));
    const desktop = desktopApi(createDesktopApi(ipcRenderer));

    await desktop.openExternal('https://billing.example/top-up');
    for (const refused of ['file:///etc/passwd', 'smb://host/share', 'http://billing.example/']) {
      await expect(desktop.openExternal(refused)).rejects.toMatchObject({
        code: 'invalid_input',
        message: expect.stringMatching(/Only https:\/\/ links open in your browser/),
      });
    }
    expect(opened).toEqual(['https://billing.example/top-up']);
  });

  it('refuses a network path on Windows as output_refused, and a failing dialog as internal', async () => {
    const network = ipcPair();
    const share = fakeServices({ canceled: false, filePath: '\\\\server\\share\\corpus.zip' });
    bindDesktopBridge(network.ipcMain, share.services, new ExportDestinations('win32'));
    await expect(
      desktopApi(createDesktopApi(network.ipcRenderer)).chooseExportPath('c.zip'),
    ).rejects.toMatchObject({
      code: 'output_refused',
    });

    const broken = ipcPair();
    const services = {
      ...fakeServices().services,
      showSaveDialog: () => Promise.reject(new Error('no display')),
    };
    bindDesktopBridge(broken.ipcMain, services, new ExportDestinations(process.platform));
    await expect(
      desktopApi(createDesktopApi(broken.ipcRenderer)).chooseExportPath('c.zip'),
    ).rejects.toMatchObject({
      code: 'internal',
      message: expect.stringMatching(/no display/),
    });
  });

  it('answers unreachable once main no longer serves it (the app is closing)', async () => {
    const { ipcMain, ipcRenderer } = ipcPair();
    const unbind = bindDesktopBridge(
      ipcMain,
      fakeServices().services,
      new ExportDestinations(process.platform),
    );
    unbind();
    await expect(
      desktopApi(createDesktopApi(ipcRenderer)).showInFolder('/home/me/c.zip'),
    ).rejects.toMatchObject({
      code: 'unreachable',
    });
  });

  it('unbinds every channel it bound', () => {
    const { ipcMain, handlers } = ipcPair();
    const unbind = bindDesktopBridge(
      ipcMain,
      fakeServices().services,
      new ExportDestinations(process.platform),
    );
    expect([...handlers.keys()].sort()).toEqual([
      'scriptorium:desktop:chooseExportPath',
      'scriptorium:desktop:openExternal',
      'scriptorium:desktop:showInFolder',
    ]);
    unbind();
    expect(handlers.size).toBe(0);
  });
});
