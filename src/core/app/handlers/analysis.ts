import {
  ConcordanceOptionsSchema,
  DistinctiveWordsRequestSchema,
  TrendRequestSchema,
} from '../../../shared/contract';
import { distinctiveWords } from '../distinctive-words';
import { libraryConcordance } from '../library-concordance';
import { libraryTrends } from '../library-trends';
import type { AppContext, DomainHandlers } from './context';
import { jobView } from './job-views';

/**
 * The Library as an instrument (shared/contract/analysis.ts): trends over the videos' publication,
 * the concordance of a search's hits, and distinctive words.
 */
export function analysisHandlers(
  ctx: AppContext,
): DomainHandlers<'libraryTrends' | 'libraryConcordance' | 'distinctiveWords'> {
  // The dispatcher has parsed each input; parsing again gives its defaults their types.
  return {
    libraryTrends: async (request) =>
      libraryTrends(
        ctx.db,
        TrendRequestSchema.parse(request),
        (jobId) => `Job ${jobId}: ${jobView(ctx, jobId).title}`,
      ),

    libraryConcordance: async ({ context, sort, limit, within, ...search }) =>
      libraryConcordance(ctx.db, search, {
        ...ConcordanceOptionsSchema.parse({ context, sort }),
        limit: limit ?? 1000,
        within: within ?? null,
      }),

    distinctiveWords: async (request) =>
      distinctiveWords(ctx.db, DistinctiveWordsRequestSchema.parse(request)),
  };
}
