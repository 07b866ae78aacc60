import { describe, expect, it } from 'vitest';
import { createPreloadApi, type IpcRendererLike } from '../../src/preload/api';
import { commandNames } from '../../src/shared/contract';

/** A stand-in for Electron's ipcRenderer that records what the preload sends. */
function fakeIpcRenderer() {
  const invoked: Array<{ channel: string; input: unknown }> = [];
  const listeners = new Map<string, Set<(event: unknown, payload: unknown) => void>>();
  const ipc: IpcRendererLike = {
    async invoke(channel, input) {
      invoked.push({ channel, input });
      return { ok: true, value: { echoed: channel } };
    },
    on(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)?.add(listener);
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
    },
  };
  const emit = (channel: string, payload: unknown) =>
    listeners.get(channel)?.forEach((listener) => listener({}, payload));
  return { ipc, invoked, emit };
}

describe('the preload API', () => {
  it('exposes one named method per contract command, answering with the envelope, and never ipcRenderer itself', async () => {
    const { ipc, invoked } = fakeIpcRenderer();
    const api = createPreloadApi(ipc);
    expect(Object.keys(api).sort()).toEqual([...commandNames, 'on'].sort());
    expect(await api.pauseJob({ jobId: 7 })).toEqual({
      ok: true,
      value: { echoed: 'scriptorium:command:pauseJob' },
    });
    expect(invoked).toEqual([{ channel: 'scriptorium:command:pauseJob', input: { jobId: 7 } }]);
  });

  it('answers unreachable, as an envelope, when the main process does not answer', async () => {
    const { ipc } = fakeIpcRenderer();
    const api = createPreloadApi({
      ...ipc,
      invoke: () => Promise.reject(new Error("Error invoking remote method 'x': No handler registered")),
    });
    expect(await api.listJobs({})).toEqual({
      ok: false,
      error: { code: 'unreachable', message: expect.stringMatching(/lost its connection to Scriptorium/) },
    });
  });

  it('delivers events until the subscriber unsubscribes', () => {
    const { ipc, emit } = fakeIpcRenderer();
    const api = createPreloadApi(ipc);
    const received: unknown[] = [];
    const unsubscribe = api.on('jobRemoved', (payload) => received.push(payload));
    emit('scriptorium:event:jobRemoved', { jobId: 1 });
    unsubscribe();
    emit('scriptorium:event:jobRemoved', { jobId: 2 });
    expect(received).toEqual([{ jobId: 1 }]);
  });
});
