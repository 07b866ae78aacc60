import { localApi, type ScriptoriumApp } from '../../src/core/app';
import { bindCommands, forwardEvents, type IpcMainLike } from '../../src/main/ipc';
import { createPreloadApi, type IpcRendererLike } from '../../src/preload/api';
import { bridgeApi } from '../../src/renderer/src/transport/electron';
import { httpApi } from '../../src/renderer/src/transport/http';
import type { ScriptoriumApi } from '../../src/shared/contract';
import { startWebServer, type RunningWebServer } from '../../src/web/server';

/** A face's view of an app: the contract, and how to let go of the transport. */
export interface Connected {
  api: ScriptoriumApi;
  /** Browser mode's server, for requests the contract does not make (downloads, refused ones). */
  server?: RunningWebServer;
  close(): Promise<void>;
}

/**
 * Electron IPC without Electron: the real main-process binding and the real preload, joined by
 * fakes of ipcMain and ipcRenderer that copy every payload with structuredClone, as IPC does.
 */
export async function overIpc(app: ScriptoriumApp): Promise<Connected> {
  const handlers = new Map<string, (event: unknown, input: unknown) => unknown>();
  const listeners = new Map<string, Set<(event: unknown, payload: unknown) => void>>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const ipcRenderer: IpcRendererLike = {
    async invoke(channel, input) {
      const handler = handlers.get(channel);
      if (handler === undefined) throw new Error(`No handler registered for '${channel}'`);
      return structuredClone(await handler({}, structuredClone(input)));
    },
    on(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set.add(listener));
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
    },
  };
  const unbind = bindCommands(ipcMain, app.handlers);
  const stopForwarding = forwardEvents(app.on, {
    send: (channel, payload) =>
      listeners.get(channel)?.forEach((listener) => listener({}, structuredClone(payload))),
  });
  return {
    api: bridgeApi(createPreloadApi(ipcRenderer)),
    async close() {
      stopForwarding();
      unbind();
    },
  };
}

/** Browser mode: the real server on 127.0.0.1 and the renderer's own HTTP transport. */
export async function overHttp(app: ScriptoriumApp): Promise<Connected> {
  const server = await startWebServer({ app, port: 0 });
  const api = httpApi({ base: `${server.origin}/`, token: server.token });
  return {
    api,
    server,
    async close() {
      api.close();
      await server.close();
    },
  };
}

/** The CLI's way: the same dispatcher, in the app's own process. */
export async function inProcess(app: ScriptoriumApp): Promise<Connected> {
  return { api: localApi(app), close: async () => undefined };
}

export const TRANSPORTS = [
  ['Electron IPC', overIpc],
  ['browser mode (HTTP + server-sent events)', overHttp],
] as const;

/** Every way a face reaches the app: the transports, and the CLI's in-process dispatch. */
export const FACES = [...TRANSPORTS, ['the CLI (in process)', inProcess]] as const;
