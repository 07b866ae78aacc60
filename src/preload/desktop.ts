import { desktopChannel, type DesktopBridge } from '../shared/desktop';
import { answerFrom } from './answer';
import type { IpcRendererLike } from './api';

/**
 * The desktop bridge for the renderer: the save dialog, the file manager and the user's browser, each
 * a named method that main checks and serves, resolving with main's answer envelope (the renderer
 * reads it as it reads a command's). Never ipcRenderer itself.
 */
export function createDesktopApi(ipcRenderer: IpcRendererLike): DesktopBridge {
  const ask = (channel: string, input: unknown) =>
    answerFrom(() => ipcRenderer.invoke(channel, input)) as Promise<never>;
  return {
    chooseExportPath: (suggestedName) => ask(desktopChannel.chooseExportPath, suggestedName),
    showInFolder: (path) => ask(desktopChannel.showInFolder, path),
    openExternal: (url) => ask(desktopChannel.openExternal, url),
  };
}
