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
    const { name, kind } = exportFileName(suggestedName);
    const choice = await services.showSaveDialog({
      title: kind.title,
      defaultPath: join(services.downloadsFolder, name),
      filters: [{ name: kind.filter, extensions: [kind.extension] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
    if (choice.canceled || !choice.filePath) return null;
    // Linux dialogs do not add the filter's extension themselves.
    const dotted = `.${kind.extension}`;
    return destinations.allow(
      extname(choice.filePath).toLowerCase() === dotted ? choice.filePath : `${choice.filePath}${dotted}`,
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

/** What can be exported: a job's corpus (a ZIP) or the hits of a Library search (a CSV table). */
const EXPORT_KINDS = {
  zip: { extension: 'zip', filter: 'ZIP archive', title: 'Export the corpus' },
  csv: { extension: 'csv', filter: 'CSV table', title: 'Export the search results' },
} as const;

/**
 * The suggested name as a plain file name (no folder, no control character) and what it is for: a
 * name ending in .csv is the hits of a search, any other a corpus, ending in .zip.
 */
function exportFileName(value: unknown): {
  name: string;
  kind: (typeof EXPORT_KINDS)[keyof typeof EXPORT_KINDS];
} {
  if (typeof value !== 'string' || value.length > 255) {
    throw new AppError('invalid_input', 'The suggested file name must be text of at most 255 characters.');
  }
  // Separators, and what Windows refuses in a name, become '_'.
  const name = value
    .replace(/[\\/<>:"|?*]/g, '_')
    .replace(CONTROL_CHARACTERS, '')
    .trim();
  const kind = extname(name).toLowerCase() === '.csv' ? EXPORT_KINDS.csv : EXPORT_KINDS.zip;
  const stem = name === '' || name === '.' || name === '..' ? 'corpus' : name;
  const dotted = `.${kind.extension}`;
  return { name: extname(stem).toLowerCase() === dotted ? stem : `${stem}${dotted}`, kind };
}

function absolutePath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 4096 || value.includes('\0') || !isAbsolute(value)) {
    throw new AppError('invalid_input', 'Only an absolute path to a file can be shown in its folder.');
  }
  return value;
}
