import { AppError, type AppHandlers } from '../core/app';

/**
 * The app's handlers as browser mode serves them: an export is offered as a download, never written
 * to a path the page names, so that whoever holds the page cannot make Scriptorium write a file
 * anywhere on this computer (docs/product.md, browser mode). For the same reason a job's automatic
 * export file can be cleared here, never set.
 */
export function downloadsOnly(handlers: AppHandlers): AppHandlers {
  return {
    ...handlers,
    exportJob: async (input) => {
      if (input.destination !== null) {
        throw new AppError(
          'output_refused',
          'In browser mode an export is offered as a download, not written to a path. Nothing was written.',
        );
      }
      return handlers.exportJob(input);
    },
    exportSearchResults: async (input) => {
      if (input.destination !== null) {
        throw new AppError(
          'output_refused',
          'In browser mode search results are offered as a download, not written to a path. Nothing was written.',
        );
      }
      return handlers.exportSearchResults(input);
    },
    setAutoExport: async (input) => {
      if (input.destination !== null) {
        throw new AppError(
          'output_refused',
          'In browser mode no file is written after a sync: export the job to download it. Nothing was changed.',
        );
      }
      return handlers.setAutoExport(input);
    },
  };
}
