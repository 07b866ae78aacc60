import { commandNames, eventNames, ipcChannel, type EventName, type EventPayload } from '../shared/contract';
import { dispatch, type AppHandlers } from '../core/app';
import type { AppErrorData } from '../shared/errors';
import type { IpcSender } from './security';

/** The slice of Electron's ipcMain this module needs (a fake stands in for it in tests). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: unknown, input: unknown) => unknown): void;
  removeHandler(channel: string): void;
}

/** The answer to a message from any page but the app's own: refused, with nothing done. */
const FOREIGN_SENDER: { ok: false; error: AppErrorData } = {
  ok: false,
  error: {
    code: 'access_refused',
    message: 'Refused: the request did not come from the Scriptorium window. Nothing was done.',
  },
};

/**
 * ipcMain serving only messages from the app's own page, as Electron's security checklist asks: no
 * other page is ever loaded, but a message from one is refused all the same, with the envelope of
 * `access_refused` (a rejected invoke would reach the page as `unreachable`, which it is not).
 */
export function appOnlyIpc(ipcMain: IpcMainLike, isAppSender: (event: IpcSender) => boolean): IpcMainLike {
  return {
    handle: (channel, listener) =>
      ipcMain.handle(channel, (event, input) =>
        isAppSender(event as IpcSender) ? listener(event, input) : FOREIGN_SENDER,
      ),
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
