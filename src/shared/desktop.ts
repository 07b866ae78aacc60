import type { Answer } from './contract';

/**
 * What the desktop app offers the renderer besides the contract: the operating system's own save
 * dialog and file manager, and the user's browser. Browser mode has none of it (window.scriptoriumDesktop
 * is then undefined): the renderer downloads ZIPs and opens links itself. A refusal rejects with a
 * ContractError, as a command's does.
 */
export interface DesktopApi {
  /**
   * Asks where to save an export, suggesting `suggestedName`: a ZIP, or a CSV table for a name ending
   * in .csv (the hits of a Library search); null when the user cancels.
   */
  chooseExportPath(suggestedName: string): Promise<string | null>;
  /** Shows the file in the system's file manager. */
  showInFolder(path: string): Promise<void>;
  /** Opens an https:// link in the user's browser; any other scheme is refused. */
  openExternal(url: string): Promise<void>;
}

/**
 * What the preload exposes for it: the same methods, resolving with the answer envelope (an Error
 * thrown across IPC and contextBridge would lose its code), which the renderer unwraps.
 */
export type DesktopBridge = {
  [K in keyof DesktopApi]: (
    ...args: Parameters<DesktopApi[K]>
  ) => Promise<Answer<Awaited<ReturnType<DesktopApi[K]>>>>;
};

/** The IPC channels of the desktop bridge. */
export const desktopChannel = {
  chooseExportPath: 'scriptorium:desktop:chooseExportPath',
  showInFolder: 'scriptorium:desktop:showInFolder',
  openExternal: 'scriptorium:desktop:openExternal',
} as const satisfies Record<keyof DesktopApi, string>;
