import { z } from 'zod';
import { JobViewSchema, type CommandSchemas } from './values';

/**
 * What the Library searches: a query in the language of src/shared/search-query.ts (its parser
 * refuses what it cannot read, a query too long included, in plain words) and optional narrowing
 * (the scope).
 */
export const LibraryNarrowingSchema = z.object({
  /** Only the videos of this job. */
  jobId: z.number().int().positive().nullable().default(null),
  /** Only transcripts in this language or a variant of it: "zh" holds "zh-Hans" (by subtag, case ignored). */
  language: z.string().max(50).nullable().default(null),
  /** Only videos whose channel's name holds this text (case ignored). */
  channel: z.string().max(200).nullable().default(null),
});

export const LibrarySearchSchema = LibraryNarrowingSchema.extend({ query: z.string().max(20_000) });

/** How a concordance orders its lines: the search's order, or by date, channel, or the words around the match. */
export const CONCORDANCE_ORDERS = ['relevance', 'date', 'channel', 'left', 'right'] as const;

/** A concordance (keyword in context): how many words each side of the match, and the order of its lines. */
export const ConcordanceOptionsSchema = z.object({
  context: z.number().int().min(1).max(50).default(8),
  sort: z.enum(CONCORDANCE_ORDERS).default('relevance'),
});

export const SnippetPartSchema = z.object({ text: z.string(), match: z.boolean() });

export const SearchHitSchema = z.object({
  /** Index into the transcript's segments. */
  segment: z.number().int(),
  /** Seconds; null for a transcript without times. */
  start: z.number().nullable(),
  /** The video's address opening at the hit: url + &t=<whole seconds>s. */
  url: z.string(),
  snippet: z.array(SnippetPartSchema),
});

/** A stored transcript as the Library names it, in a search's results and in the reader. */
const LibraryTranscriptSchema = z.object({
  transcriptId: z.number().int(),
  videoId: z.string(),
  title: z.string(),
  channelTitle: z.string().nullable(),
  language: z.string(),
  /** https://www.youtube.com/watch?v=ID */
  url: z.string(),
});

export const SearchGroupSchema = LibraryTranscriptSchema.extend({
  /** In time order. */
  hits: z.array(SearchHitSchema),
});

export const SearchResultsSchema = z.object({
  /** Videos that match, in all. */
  videos: z.number().int(),
  /**
   * Hits (segments) that match, in all; a caption that two transcripts of the same video and language
   * hold (bought again) counts, and is listed, once.
   */
  hits: z.number().int(),
  /** Best first (bm25 over each transcript's segments); at most `limit` hits in all. */
  groups: z.array(SearchGroupSchema),
});

export const TranscriptReadingSchema = LibraryTranscriptSchema.extend({
  segments: z.array(
    z.object({ start: z.number().nullable(), duration: z.number().nullable(), text: z.string() }),
  ),
  /** Indices of the segments the query matches; empty without a query. */
  hits: z.array(z.number().int()),
});

/** The Library: searching every stored transcript, reading one, and exporting what a search finds. */
export const libraryCommands = {
  /**
   * Searches every stored transcript (the Library). A query the parser refuses fails with
   * invalid_input and its message. Sends nothing.
   */
  searchTranscripts: {
    input: LibrarySearchSchema.extend({ limit: z.number().int().min(1).max(1000).default(100) }),
    output: SearchResultsSchema,
  },
  /** One stored transcript, whole, with the segments a query matches. */
  readTranscript: {
    input: z.object({
      transcriptId: z.number().int().positive(),
      query: z.string().max(20_000).nullable().default(null),
    }),
    output: TranscriptReadingSchema,
  },
  /**
   * Writes the hits of a search as CSV (SEARCH_RESULTS_HEADER of core/export: video, transcript,
   * language, title, time, start in seconds, link, text; or with `concordance`, CONCORDANCE_HEADER:
   * each hit's words to the left, the match and the words to the right, in the order asked), all of
   * them or the first `limit`, to
   * `destination`, or, when it is null, to a file this process keeps for download (browser mode), as
   * exportJob does. Written on a worker thread in the desktop app and browser mode, so that the app
   * answers meanwhile; searchExportProgress tells how far it has come. Cancelled (cancelSearchExport,
   * or the app closing), it fails with `interrupted` and writes nothing.
   */
  exportSearchResults: {
    input: LibrarySearchSchema.extend({
      destination: z.string().min(1).max(4096).nullable(),
      limit: z.number().int().min(1).nullable().default(null),
      /** Write the hits as a concordance (CONCORDANCE_HEADER): each with the words around it. */
      concordance: ConcordanceOptionsSchema.nullable().default(null),
    }),
    output: z.object({
      exportId: z.string(),
      fileName: z.string(),
      path: z.string().nullable(),
      bytes: z.number().int(),
      hits: z.number().int(),
      /** The id of the thread that wrote it (Node's worker_threads threadId: 0 is the app's own). */
      threadId: z.number().int(),
    }),
  },
  /**
   * Cancels the Export results of that id (searchExportProgress names it) while it is written: it
   * then fails with `interrupted`, leaving no file. `cancelled` is false when none of that id was
   * under way (it had ended already).
   */
  cancelSearchExport: {
    input: z.object({ exportId: z.string().max(100) }),
    output: z.object({ cancelled: z.boolean() }),
  },
  /**
   * A new job of the matching videos' stored transcripts (their language and flags), so that running
   * it is answered from the cache and spends no credit. Sends nothing.
   */
  createJobFromSearch: {
    input: LibrarySearchSchema,
    output: z.object({
      job: JobViewSchema,
      videos: z.number().int(),
      /**
       * Matching videos left out because no transcript of theirs that matches was bought the way the
       * job asks (another language, with or without times or metadata).
       */
      leftOut: z.number().int(),
    }),
  },
  /**
   * How far indexing the stored transcripts has come since this process started (after an upgrade):
   * `done` equal to `total` once finished; null when there was nothing to index.
   */
  libraryStatus: {
    input: z.object({}),
    output: z.object({ indexing: z.object({ done: z.number().int(), total: z.number().int() }).nullable() }),
  },
} as const satisfies CommandSchemas;

export type SearchResults = z.infer<typeof SearchResultsSchema>;
export type SearchGroup = z.infer<typeof SearchGroupSchema>;
export type SearchHit = z.infer<typeof SearchHitSchema>;
export type TranscriptReading = z.infer<typeof TranscriptReadingSchema>;
export type ConcordanceOptions = z.infer<typeof ConcordanceOptionsSchema>;
export type ConcordanceOrder = (typeof CONCORDANCE_ORDERS)[number];
