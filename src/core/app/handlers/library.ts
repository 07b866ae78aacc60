import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ConcordanceOptionsSchema } from '../../../shared/contract';
import { exportsFolder } from '../exports-folder';
import { readLibraryTranscript, searchLibrary } from '../library';
import { libraryJobDraft } from '../library-export';
import { offlineClient } from '../offline-client';
import { exportSearchResultsTo, searchExportCancelled } from '../search-export';
import type { AppContext, DomainHandlers } from './context';
import { jobFor } from './drafts';
import { jobView } from './job-views';

/**
 * The Library (shared/contract/library.ts): searching every stored transcript, reading one, writing
 * a search's hits (Export results), and a job of the matching videos.
 */
export function libraryHandlers(
  ctx: AppContext,
): DomainHandlers<
  | 'searchTranscripts'
  | 'readTranscript'
  | 'exportSearchResults'
  | 'cancelSearchExport'
  | 'createJobFromSearch'
  | 'libraryStatus'
> {
  return {
    searchTranscripts: async ({ limit, ...search }) => searchLibrary(ctx.db, search, limit ?? 100),

    readTranscript: async ({ transcriptId, query }) =>
      readLibraryTranscript(ctx.db, transcriptId, query ?? null),

    exportSearchResults: async ({ destination, limit, concordance, ...search }) => {
      const exportId = randomUUID();
      const fileName = concordance === null ? 'search-results.csv' : 'concordance.csv';
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
          {
            search,
            limit: limit ?? null,
            concordance: concordance == null ? null : ConcordanceOptionsSchema.parse(concordance),
          },
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

    createJobFromSearch: async (search) => {
      const { draft, videos, leftOut } = libraryJobDraft(ctx.db, search, ctx.settings.read().defaults);
      const { job } = jobFor(ctx, draft);
      // Answered from the cache: a client that sends nothing, and the job's budget of 0.
      await ctx.engine.run(job.id, { client: offlineClient() });
      ctx.events.jobTouched(job.id);
      ctx.events.videosTouched(job.id, videos);
      return { job: jobView(ctx, job.id), videos, leftOut };
    },

    libraryStatus: async () => ({ indexing: ctx.indexing }),
  };
}
