import { commandNames, ipcChannel, type CommandName, type EventName } from '../shared/channels';
import type { EventPayload, ScriptoriumApi } from '../shared/contract';

/** The slice of Electron's ipcRenderer the preload uses (a fake stands in for it in tests). */
export interface IpcRendererLike {
  invoke(channel: string, input: unknown): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): void;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): void;
}

/** Builds the one typed object the renderer talks to: named methods, never ipcRenderer itself. */
export function createPreloadApi(ipcRenderer: IpcRendererLike): ScriptoriumApi {
  const methods = Object.fromEntries(
    commandNames.map((name: CommandName) => [
      name,
      (input: unknown) => ipcRenderer.invoke(ipcChannel.command(name), input),
    ]),
  );
  const on = <N extends EventName>(event: N, listener: (payload: EventPayload<N>) => void) => {
    const wrapped = (_event: unknown, payload: unknown) => listener(payload as EventPayload<N>);
    ipcRenderer.on(ipcChannel.event(event), wrapped);
    return () => ipcRenderer.removeListener(ipcChannel.event(event), wrapped);
  };
  return { ...methods, on } as ScriptoriumApi;
}
