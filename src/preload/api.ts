import { commandNames, ipcChannel, type CommandName, type EventName } from '../shared/channels';
import type { ScriptoriumBridge } from '../shared/contract';
import { answerFrom } from './answer';

/** The slice of Electron's ipcRenderer the preload uses (a fake stands in for it in tests). */
export interface IpcRendererLike {
  invoke(channel: string, input: unknown): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): void;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): void;
}

/**
 * Builds the one object the renderer talks to: a named method per command, which resolves with the
 * main process's answer envelope (the renderer turns a failed one into a typed error: an Error
 * thrown across contextBridge would lose its code), or `unreachable` when main does not answer, and
 * event subscription. Never ipcRenderer itself.
 */
export function createPreloadApi(ipcRenderer: IpcRendererLike): ScriptoriumBridge {
  const methods = Object.fromEntries(
    commandNames.map((name: CommandName) => [
      name,
      (input: unknown) => answerFrom(() => ipcRenderer.invoke(ipcChannel.command(name), input)),
    ]),
  );
  const on = (event: EventName, listener: (payload: unknown) => void) => {
    const wrapped = (_event: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(ipcChannel.event(event), wrapped);
    return () => ipcRenderer.removeListener(ipcChannel.event(event), wrapped);
  };
  return { ...methods, on } as ScriptoriumBridge;
}
