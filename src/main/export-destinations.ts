import { AppError, type AppHandlers } from '../core/app';

/** A Windows path on a drive (C:\...): not a network share (\\server\share) nor a \\?\ or \\.\ path. */
const ON_A_DRIVE = /^[A-Za-z]:[\\/]/;

/**
 * The places the save dialog returned, each good for one export. The renderer names an export's
 * destination, but it may only name one the user chose for it: a compromised page cannot write a
 * corpus over a file of its own choosing.
 */
export class ExportDestinations {
  readonly #platform: NodeJS.Platform;
  readonly #chosen = new Set<string>();

  constructor(platform: NodeJS.Platform) {
    this.#platform = platform;
  }

  /**
   * Records a path the save dialog returned and hands it back. On Windows, a network path is
   * refused: opening \\server\share would send the user's credentials to that server.
   */
  allow(path: string): string {
    if (this.#platform === 'win32' && !ON_A_DRIVE.test(path)) {
      throw new AppError(
        'output_refused',
        'Scriptorium saves exports on a drive of this computer (C:\\ or a mapped drive letter), not at a network path: choose another folder.',
      );
    }
    this.#chosen.add(path);
    return path;
  }

  /** True, once, for a path the save dialog returned. */
  take(path: string): boolean {
    return this.#chosen.delete(path);
  }
}

/**
 * The app's handlers, with exportJob and exportSearchResults writing only to a destination the save
 * dialog returned for that export, and setAutoExport keeping only such a destination (or clearing it). No destination for an
 * export (a download, browser mode's way) is refused too: the desktop has none.
 */
export function exportsOnlyWhereChosen(handlers: AppHandlers, destinations: ExportDestinations): AppHandlers {
  return {
    ...handlers,
    exportJob: async (input) => {
      if (input.destination === null || !destinations.take(input.destination)) {
        throw new AppError(
          'output_refused',
          'An export is written only where you chose in the save dialog: choose Export again. Nothing was written.',
        );
      }
      return handlers.exportJob(input);
    },
    exportSearchResults: async (input) => {
      if (input.destination === null || !destinations.take(input.destination)) {
        throw new AppError(
          'output_refused',
          'Search results are written only where you chose in the save dialog: choose Export results again. Nothing was written.',
        );
      }
      return handlers.exportSearchResults(input);
    },
    setAutoExport: async (input) => {
      if (input.destination !== null && !destinations.take(input.destination)) {
        throw new AppError(
          'output_refused',
          'The file for automatic exports is one you chose in the save dialog: choose it again. Nothing was changed.',
        );
      }
      return handlers.setAutoExport(input);
    },
  };
}
