import { z } from 'zod';
import { PERIOD_UNITS } from '../periods';
import { ConcordanceOptionsSchema, LibraryNarrowingSchema, LibrarySearchSchema } from './library';
import type { CommandSchemas } from './values';

/**
 * The Library as an instrument (docs/product.md, "Trends", "Concordance", "Distinctive words"): what
 * queries match per period of the videos' publication, every hit in its context, and the words that
 * set the matching transcripts apart. Nothing is sent or charged.
 */

/** What a trend groups its videos by, besides the whole scope. */
export const TREND_GROUPINGS = ['channel', 'job', 'language'] as const;
/** What a trend counts: matching videos, their share of the period's videos, hits, or the share of airtime. */
export const TREND_MEASURES = ['videos', 'share', 'hits', 'airtime'] as const;

/** A day, YYYY-MM-DD. */
const DaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is written YYYY-MM-DD');

/** The scope of a trend or of distinctive words: the search's narrowing and a window of publication days. */
const ScopeSchema = LibraryNarrowingSchema.extend({
  /** Only periods from the one holding this day (both ends included). */
  publishedAfter: DaySchema.nullable().default(null),
  /** Only periods up to the one holding this day. */
  publishedBefore: DaySchema.nullable().default(null),
});

export const TrendRequestSchema = ScopeSchema.extend({
  /** One to five queries in the search's language. */
  queries: z.array(z.string().max(20_000)).min(1).max(5),
  by: z.enum(PERIOD_UNITS).default('month'),
  per: z.enum(TREND_GROUPINGS).nullable().default(null),
  measure: z.enum(TREND_MEASURES).default('videos'),
  /** With `per`: the groups shown, at most (those with the most matching videos); null: all. */
  limit: z.number().int().min(1).max(1000).nullable().default(null),
  /** Also answer the trend as CSV (the Trends view's Download CSV), with the corpus tables' cell rules. */
  withCsv: z.boolean().default(false),
});

const BoundsSchema = z.object({ low: z.number(), high: z.number() });

/**
 * One period of one series: the measure's lowest and highest value (equal when every date is
 * exact; null for a share in a period no video of the scope can be in), and what it is made of:
 * `count` the matching videos, hits or seconds of matching captions; `of`, for a share, the videos
 * or seconds of captions of the scope in the period (null for a count).
 */
export const TrendCellSchema = z.object({
  low: z.number().nullable(),
  high: z.number().nullable(),
  count: BoundsSchema,
  of: BoundsSchema.nullable(),
});

export const TrendSchema = z.object({
  by: z.enum(PERIOD_UNITS),
  measure: z.enum(TREND_MEASURES),
  /** The axis, every period from the first to the last (a window's, else the dated videos'). */
  periods: z.array(z.object({ label: z.string(), from: DaySchema, to: DaySchema })),
  /** For each group shown (most matching videos first) each query, in the order asked. */
  series: z.array(
    z.object({
      query: z.string(),
      /** The channel, the job's number or the language; null for the whole scope ('' for no channel). */
      group: z.string().nullable(),
      label: z.string(),
      /** One per period of the axis. */
      values: z.array(TrendCellSchema),
      /** The videos no list page dated, counted apart (exact). */
      undated: TrendCellSchema,
    }),
  ),
  /** Groups some query matches a video of, shown or not (0 without `per`). */
  groupsMatching: z.number().int(),
  /** The trend as `trends --csv` prints it, when asked for (withCsv). */
  csv: z.string().nullable(),
});

export const ConcordanceRowSchema = z.object({
  transcriptId: z.number().int(),
  videoId: z.string(),
  segment: z.number().int(),
  /** Seconds; null for a transcript without times. */
  start: z.number().nullable(),
  language: z.string(),
  title: z.string(),
  channelTitle: z.string().nullable(),
  /** The publication's interval, YYYY-MM-DD; null when no list page dated the video. */
  publishedFrom: z.string().nullable(),
  publishedTo: z.string().nullable(),
  /** The video's address opening at the hit. */
  url: z.string(),
  /** The words before the match (from earlier captions too), the match, the words after. */
  left: z.string(),
  match: z.string(),
  right: z.string(),
});

export const ConcordanceSchema = z.object({
  /** Hits in all, as a search counts them. */
  hits: z.number().int(),
  rows: z.array(ConcordanceRowSchema),
});

export const DistinctiveWordsRequestSchema = ScopeSchema.extend({
  /** What sets the target apart, at least one of: the transcripts this query matches... */
  query: z.string().max(20_000).nullable().default(null),
  /** ...the videos published in this period for sure (2024, 2024-05, 2024-W18 or 2024-05-03)... */
  period: z.string().max(20).nullable().default(null),
  /** ...the videos of this channel (its whole name, case ignored). */
  targetChannel: z.string().max(200).nullable().default(null),
  limit: z.number().int().min(1).max(500).default(25),
});

const CorpusSizeSchema = z.object({
  transcripts: z.number().int(),
  videos: z.number().int(),
  /** Words counted (stop words included), each caption once. */
  words: z.number().int(),
});

export const DistinctiveWordsSchema = z.object({
  target: CorpusSizeSchema,
  /** The rest of the scope (less the videos that may or may not be in the period). */
  reference: CorpusSizeSchema,
  /** Most distinctive first: only words used more often in the target than in the reference. */
  words: z.array(
    z.object({
      word: z.string(),
      target: z.number().int(),
      reference: z.number().int(),
      /** Dunning's log-likelihood (G²) of the difference. */
      logLikelihood: z.number(),
    }),
  ),
});

export const analysisCommands = {
  /**
   * Counts, per period of publication, what each query matches in the scope (docs/product.md,
   * "Trends"), with a lower and an upper bound for every figure. A query the parser refuses fails
   * with invalid_input and its message.
   */
  libraryTrends: { input: TrendRequestSchema, output: TrendSchema },
  /** Every hit of a search with the words around it (at most `limit` lines), in the order asked. */
  libraryConcordance: {
    input: LibrarySearchSchema.extend(ConcordanceOptionsSchema.shape).extend({
      limit: z.number().int().min(1).max(10_000).default(1000),
      /**
       * Only the hits of videos that may have been published within these days (a trend's period):
       * `hits` then counts those. Each line's published_from and published_to say whether surely.
       */
      within: z.object({ from: DaySchema, to: DaySchema }).nullable().default(null),
    }),
    output: ConcordanceSchema,
  },
  /** The words the target uses more than the rest of the scope, by log-likelihood. */
  distinctiveWords: { input: DistinctiveWordsRequestSchema, output: DistinctiveWordsSchema },
} as const satisfies CommandSchemas;

export type TrendRequest = z.infer<typeof TrendRequestSchema>;
export type TrendMeasure = (typeof TREND_MEASURES)[number];
export type TrendGrouping = (typeof TREND_GROUPINGS)[number];
export type Trend = z.infer<typeof TrendSchema>;
export type TrendCell = z.infer<typeof TrendCellSchema>;
export type Concordance = z.infer<typeof ConcordanceSchema>;
export type ConcordanceRow = z.infer<typeof ConcordanceRowSchema>;
export type DistinctiveWordsRequest = z.infer<typeof DistinctiveWordsRequestSchema>;
export type DistinctiveWords = z.infer<typeof DistinctiveWordsSchema>;
