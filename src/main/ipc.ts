import { commandNames, eventNames, ipcChannel, type EventName, type EventPayload } from '../shared/contract';
import { dispatch, type AppHandlers } from '../core/app';
import type { IpcSender } from './security';

/** The slice of Electron's ipcMain this module needs (a fake stands in for it in tests). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: unknown, input: unknown) => unknown): void;
  removeHandler(channel: string): void;
}

/**
 * ipcMain serving only messages from the app's own page, as Electron's security checklist asks: no
 * other page is ever loaded, but a message from one is refused all the same (its invoke rejects).
 */
export function appOnlyIpc(ipcMain: IpcMainLike, isAppSender: (event: IpcSender) => boolean): IpcMainLike {
  return {
    handle: (channel, listener) =>
      ipcMain.handle(channel, (event, input) => {
        if (!isAppSender(event as IpcSender)) {
          throw new Error('Refused: the request did not come from the Scriptorium window.');
        }
        return listener(event, input);
      }),
    removeHandler: (channel) => ipcMain.removeHandler(channel),
  };
}

/** Where events go: the window's webContents in the app. */
export interface EventSink {
  send(channel: string, payload: unknown): void;
}

/**
 * Binds every contract command to the application's one dispatcher: inputs from the renderer are
 * parsed with the contract's schema before any handler runs, and every answer is an envelope
 * (output or typed error), since an Error crossing IPC keeps nothing but its text.
 */
export function bindCommands(ipcMain: IpcMainLike, handlers: AppHandlers): () => void {
  for (const name of commandNames) {
    ipcMain.handle(ipcChannel.command(name), (_event, input) => dispatch(handlers, name, input));
  }
  return () => commandNames.forEach((name) => ipcMain.removeHandler(ipcChannel.command(name)));
}

/** Forwards app events to the renderer on their contract channels. */
export function forwardEvents(
  subscribe: <N extends EventName>(event: N, listener: (payload: EventPayload<N>) => void) => () => void,
  sink: EventSink,
): () => void {
  const unsubscribers = eventNames.map((name) =>
    subscribe(name, (payload) => sink.send(ipcChannel.event(name), payload)),
  );
  return () => unsubscribers.forEach((unsubscribe) => unsubscribe());
}
