import { desktopChannel, type DesktopBridge } from '../shared/desktop';
import type { IpcRendererLike } from './api';

/**
 * The desktop bridge for the renderer: the save dialog, the file manager and the user's browser, each
 * a named method that main checks and serves. Never ipcRenderer itself.
 */
export function createDesktopApi(ipcRenderer: IpcRendererLike): DesktopBridge {
  return {
    chooseExportPath: (suggestedName) =>
      ipcRenderer.invoke(desktopChannel.chooseExportPath, suggestedName) as Promise<string | null>,
    showInFolder: async (path) => {
      await ipcRenderer.invoke(desktopChannel.showInFolder, path);
    },
    openExternal: async (url) => {
      await ipcRenderer.invoke(desktopChannel.openExternal, url);
    },
  };
}
