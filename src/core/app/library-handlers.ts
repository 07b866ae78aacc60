import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { exportsFolder } from './exports-folder';
import type { AppContext, AppHandlers } from './handlers';
import { readLibraryTranscript, searchLibrary } from './library';
import { exportSearchResultsTo, searchExportCancelled } from './search-export';

/** The Library's commands that read it: searching, reading a transcript, Export results. */
export function libraryHandlers(
  ctx: AppContext,
): Pick<
  AppHandlers,
  'searchTranscripts' | 'readTranscript' | 'exportSearchResults' | 'cancelSearchExport' | 'libraryStatus'
> {
  return {
    searchTranscripts: async ({ limit, ...search }) => searchLibrary(ctx.db, search, limit ?? 100),

    readTranscript: async ({ transcriptId, query }) =>
      readLibraryTranscript(ctx.db, transcriptId, query ?? null),

    exportSearchResults: async ({ destination, limit, ...search }) => {
      const exportId = randomUUID();
      const fileName = 'search-results.csv';
      const path = destination ?? join(exportsFolder(ctx.dataDir), `${exportId}.csv`);
      const controller = new AbortController();
      let ended = (): void => undefined;
      // Known before it starts: its first progress may come before the first await.
      ctx.searchExports.set(exportId, {
        cancel: () => controller.abort(searchExportCancelled()),
        settled: new Promise<void>((resolve) => (ended = resolve)),
      });
      try {
        const written = await exportSearchResultsTo(
          path,
          { search, limit: limit ?? null },
          ctx.searchExport,
          {
            signal: controller.signal,
            onProgress: ({ done, total }) =>
              ctx.events.emit('searchExportProgress', { exportId, done, total }),
          },
        );
        if (destination === null)
          ctx.downloads.set(exportId, { path, fileName, contentType: 'text/csv; charset=utf-8' });
        return {
          exportId,
          fileName,
          path: destination === null ? null : path,
          bytes: written.bytes,
          hits: written.rows,
          threadId: written.threadId,
        };
      } finally {
        ctx.searchExports.delete(exportId);
        ended();
      }
    },

    cancelSearchExport: async ({ exportId }) => {
      const running = ctx.searchExports.get(exportId);
      running?.cancel();
      return { cancelled: running !== undefined };
    },

    libraryStatus: async () => ({ indexing: ctx.indexing }),
  };
}
