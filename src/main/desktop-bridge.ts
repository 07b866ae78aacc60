import { extname, isAbsolute, join } from 'node:path';
import { AppError, toAppError } from '../core/app';
import type { Answer } from '../shared/contract';
import { desktopChannel } from '../shared/desktop';
import type { ExportDestinations } from './export-destinations';
import type { IpcMainLike } from './ipc';

/** What the desktop bridge asks of the operating system: Electron's dialog and shell in the app. */
export interface DesktopServices {
  showSaveDialog(options: {
    title: string;
    defaultPath: string;
    filters: Array<{ name: string; extensions: string[] }>;
    properties: Array<'createDirectory' | 'showOverwriteConfirmation'>;
  }): Promise<{ canceled: boolean; filePath?: string }>;
  showItemInFolder(path: string): void;
  /** Opens an https link in the user's browser; false when the link was refused. */
  openInBrowser(url: unknown): Promise<boolean>;
  /** Where the save dialog starts: the user's Downloads folder. */
  downloadsFolder: string;
}

/**
 * Binds the desktop bridge (src/shared/desktop.ts) to the operating system. Every argument from the
 * renderer is parsed before use (a file name, an absolute path, an https link). Each channel answers
 * an envelope, as the contract's do: a refused argument is an invalid_input with a message saying
 * why, anything else that fails an internal error, so that the renderer gets the code (an Error
 * thrown across IPC would arrive as bare text). A path the save dialog returns is recorded in
 * `destinations`, the only places an export may then be written.
 */
export function bindDesktopBridge(
  ipcMain: IpcMainLike,
  services: DesktopServices,
  destinations: ExportDestinations,
): () => void {
  const serve = (channel: string, work: (input: unknown) => Promise<unknown>) =>
    ipcMain.handle(channel, (_event, input) => answerOf(() => work(input)));
  serve(desktopChannel.chooseExportPath, async (suggestedName) => {
    const name = zipFileName(suggestedName);
    const choice = await services.showSaveDialog({
      title: 'Export the corpus',
      defaultPath: join(services.downloadsFolder, name),
      filters: [{ name: 'ZIP archive', extensions: ['zip'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
    if (choice.canceled || !choice.filePath) return null;
    // Linux dialogs do not add the filter's extension themselves.
    return destinations.allow(
      extname(choice.filePath).toLowerCase() === '.zip' ? choice.filePath : `${choice.filePath}.zip`,
    );
  });
  serve(desktopChannel.showInFolder, async (path) => services.showItemInFolder(absolutePath(path)));
  serve(desktopChannel.openExternal, async (url) => {
    if (!(await services.openInBrowser(url))) {
      throw new AppError(
        'invalid_input',
        'Only https:// links open in your browser; this link was not opened.',
      );
    }
  });
  return () => Object.values(desktopChannel).forEach((channel) => ipcMain.removeHandler(channel));
}

async function answerOf(work: () => Promise<unknown>): Promise<Answer<unknown>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: toAppError(error).toData() };
  }
}

// eslint-disable-next-line no-control-regex -- control characters are what is removed
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** The suggested name as a plain file name ending in .zip: no folder, no control character. */
function zipFileName(value: unknown): string {
  if (typeof value !== 'string' || value.length > 255) {
    throw new AppError('invalid_input', 'The suggested file name must be text of at most 255 characters.');
  }
  // Separators, and what Windows refuses in a name, become '_'.
  const name = value
    .replace(/[\\/<>:"|?*]/g, '_')
    .replace(CONTROL_CHARACTERS, '')
    .trim();
  const stem = name === '' || name === '.' || name === '..' ? 'corpus' : name;
  return extname(stem).toLowerCase() === '.zip' ? stem : `${stem}.zip`;
}

function absolutePath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 4096 || value.includes('\0') || !isAbsolute(value)) {
    throw new AppError('invalid_input', 'Only an absolute path to a file can be shown in its folder.');
  }
  return value;
}
