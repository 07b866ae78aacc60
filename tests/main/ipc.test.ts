import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryKeyStore, openApp, type ScriptoriumApp } from '../../src/core/app';
import { appOnlyIpc, bindCommands, forwardEvents, type IpcMainLike } from '../../src/main/ipc';
import { appSenderCheck } from '../../src/main/security';
import { createPreloadApi } from '../../src/preload/api';
import { bridgeApi } from '../../src/renderer/src/transport/electron';
import { commandNames } from '../../src/shared/contract';
import { ContractError } from '../../src/shared/contract-error';
import { tempDir } from '../support/cli';

/** A stand-in for Electron's ipcMain: keeps the handlers and lets the test invoke them. */
function fakeIpcMain() {
  const handlers = new Map<string, (event: unknown, input: unknown) => unknown>();
  const ipc: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const invoke = async (channel: string, input: unknown, sender: unknown = {}) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(sender, input);
  };
  return { ipc, handlers, invoke };
}

let app: ScriptoriumApp;

beforeEach(() => {
  app = openApp({ dataDir: tempDir(), keys: memoryKeyStore() });
});

afterEach(async () => {
  await app.close();
});

describe('the main process IPC binding', () => {
  it('binds every contract command to the application and unbinds them all', async () => {
    const { ipc, handlers, invoke } = fakeIpcMain();
    const unbind = bindCommands(ipc, app.handlers);
    expect([...handlers.keys()].sort()).toEqual(
      commandNames.map((name) => `scriptorium:command:${name}`).sort(),
    );
    expect(await invoke('scriptorium:command:listJobs', {})).toEqual({ ok: true, value: [] });
    const credits = await invoke('scriptorium:command:setBalance', { credits: 250 });
    expect(credits).toMatchObject({ ok: true, value: { balance: 250, estimatedRemaining: 250, total: 0 } });
    unbind();
    expect(handlers.size).toBe(0);
  });

  it('refuses renderer input that does not fit the contract before any handler runs, with a typed error', async () => {
    const { ipc, invoke } = fakeIpcMain();
    bindCommands(ipc, app.handlers);
    expect(await invoke('scriptorium:command:setBalance', { credits: -5 })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/input was not valid/) },
    });
    expect(await invoke('scriptorium:command:pauseJob', { jobId: 'drop table' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await invoke('scriptorium:command:pauseJob', { jobId: 99 })).toEqual({
      ok: false,
      error: { code: 'job_not_found', message: 'There is no job 99.' },
    });
    expect(
      (await invoke('scriptorium:command:creditStatus', {})) as { value: { balance: unknown } },
    ).toMatchObject({
      value: { balance: null },
    });
  });

  it("refuses a message from another page as access_refused, doing nothing, and serves the app's own", async () => {
    const { ipc, invoke } = fakeIpcMain();
    bindCommands(appOnlyIpc(ipc, appSenderCheck('file:///app/index.html')), app.handlers);
    // The page's side is the real preload and the renderer's transport, as in the window.
    const pageAt = (url: string) =>
      bridgeApi(
        createPreloadApi({
          invoke: (channel, input) => invoke(channel, structuredClone(input), { senderFrame: { url } }),
          on: () => undefined,
          removeListener: () => undefined,
        }),
      );
    const refused = await pageAt('https://elsewhere.example/')
      .setBalance({ credits: 250 })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(ContractError);
    expect(refused).toMatchObject({ code: 'access_refused' });
    expect((refused as ContractError).message).toMatch(/did not come from the Scriptorium window/);
    const own = pageAt('file:///app/index.html');
    expect((await own.creditStatus({})).balance).toBeNull();
    await expect(own.setBalance({ credits: 250 })).resolves.toMatchObject({ balance: 250 });
  });

  it('forwards every contract event to the window until stopped', () => {
    const sent: Array<{ channel: string; payload: unknown }> = [];
    const listeners = new Map<string, (payload: unknown) => void>();
    const subscribe = ((event: string, listener: (payload: unknown) => void) => {
      listeners.set(event, listener);
      return () => listeners.delete(event);
    }) as Parameters<typeof forwardEvents>[0];
    const stop = forwardEvents(subscribe, { send: (channel, payload) => sent.push({ channel, payload }) });
    listeners.get('jobRemoved')?.({ jobId: 1 });
    stop();
    expect(listeners.size).toBe(0);
    expect(sent).toEqual([{ channel: 'scriptorium:event:jobRemoved', payload: { jobId: 1 } }]);
  });
});
