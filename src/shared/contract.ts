import { z } from 'zod';
import type { CommandName, EventName } from './channels';
import { AppErrorSchema } from './errors';
import { AuthorLineSchema, CitationSchema, LicenseSchema } from './citation';
import { FiltersSchema } from './filters';
import { MAX_LANGUAGE_LIST_CHARS, MAX_SOURCE_LINE_CHARS, MAX_SOURCES_PER_JOB } from './limits';
import {
  CHUNK_SECONDS,
  CONCURRENCY,
  DAILY_CREDIT_LIMIT,
  EXPORT_FORMATS,
  ITEM_STATUSES,
  JOB_STATUS,
  JOB_STATUSES,
  LIST_STATUSES,
  PAUSE_REASONS,
  STOP_REASONS,
  SYNC_EVERY_HOURS,
  VIDEO_FILTERS,
} from './vocabulary';

export { commandNames, eventNames, ipcChannel } from './channels';
export type { CommandName, EventName } from './channels';
export { EXPORT_FORMATS } from './vocabulary';
export type {
  ExportFormat,
  ItemStatus as VideoStatus,
  JobStatus,
  ListStatus,
  PauseReason,
  StopReason,
  VideoFilter,
} from './vocabulary';

/**
 * The app contract: every command a face may send and every event it may receive, with their
 * schemas. Electron IPC (main/preload), browser mode (web) and the CLI are transports of this one
 * object; adding a command means one entry here and one handler in core/app.
 */

// ---------------------------------------------------------------------------------------------
// Values

/** src/shared/vocabulary.ts says what each status means. */
export const JobStatusSchema = z.enum(JOB_STATUSES);

/** What a ZIP corpus holds: files per transcript (txt, json, srt, vtt) and passages (chunks.jsonl). */
export const ExportFormatSchema = z.enum(EXPORT_FORMATS);

/** A video's state in a job (src/shared/vocabulary.ts); 'fetching' has a request in flight. */
export const VideoStatusSchema = z.enum(ITEM_STATUSES);

export const SourceKindSchema = z.enum(['video', 'playlist', 'channel', 'search']);

export const ItemCountsSchema = z.object({
  total: z.number().int(),
  /** Still to fetch, those in flight included. */
  pending: z.number().int(),
  ok: z.number().int(),
  unavailable: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  /** Of the failed, those a forced stop cut off after they were sent: possibly charged, not retried. */
  interrupted: z.number().int(),
});

/** One line a user gave as a source: where it was, what it is, or why it is not one. */
export const SourceEntrySchema = z
  .object({
    /** "line 3", "argument 2": how to point the user at it. */
    where: z.string().max(64),
    text: z.string(),
  })
  .superRefine(({ where, text }, ctx) => {
    // Faces cut longer lines (shared/source-files.ts sourceEntry); one that did not is told which line.
    if (text.length > MAX_SOURCE_LINE_CHARS) {
      ctx.addIssue({
        code: 'custom',
        path: ['text'],
        message: `${where} is too long to be a source (more than ${MAX_SOURCE_LINE_CHARS} characters)`,
      });
    }
  });

export const SourceLineSchema = z.object({
  where: z.string(),
  input: z.string(),
  /** null when the line is not a valid source. */
  kind: SourceKindSchema.nullable(),
  reason: z.string().nullable(),
  /** Valid, but maybe not what was meant (an 11-character ID that looks like a list). */
  warning: z.string().nullable(),
});

/** How chunks.jsonl cuts transcripts into passages: a target length and an overlap, in seconds. */
export const ChunkingSchema = z
  .object({
    targetSeconds: z.number().int().min(CHUNK_SECONDS.min).max(CHUNK_SECONDS.max),
    overlapSeconds: z.number().int().min(0).max(CHUNK_SECONDS.max),
  })
  .refine((chunking) => chunking.overlapSeconds < chunking.targetSeconds, {
    message: 'the overlap must be shorter than the passages',
  });

/** A job's name as the user gives it: trimmed, one line, at most 200 characters. */
export const JobNameSchema = z
  .string()
  .trim()
  .min(1, 'a name needs at least one character')
  .max(200, 'a name has at most 200 characters')
  .refine((name) => !/\p{Cc}/u.test(name), 'a name is one line, without control characters');

/**
 * Everything a new job needs; sources, languages, flags, max videos and filters make its identity
 * (the same ones find the same job again).
 */
export const JobDraftSchema = z.object({
  sources: z.array(SourceEntrySchema).min(1).max(MAX_SOURCES_PER_JOB),
  /** A preference list such as "es,en,orig". */
  languages: z.string().max(MAX_LANGUAGE_LIST_CHARS),
  includeTimestamp: z.boolean(),
  sendMetadata: z.boolean(),
  maxVideos: z.number().int().positive().nullable(),
  budget: z.number().int().nonnegative().nullable(),
  concurrency: z.number().int().min(CONCURRENCY.min).max(CONCURRENCY.max),
  formats: z.array(ExportFormatSchema).min(1),
  /** Selection filters (src/shared/filters.ts); none when left out. */
  filters: FiltersSchema.optional(),
  /** For the chunks format; DEFAULT_CHUNKING (src/shared/vocabulary.ts) when left out. */
  chunking: ChunkingSchema.optional(),
  /** What the user calls the job; not part of its identity. Left out: named after what it holds. */
  name: JobNameSchema.optional(),
});

/** Why a job stopped before its end. */
export const StopSchema = z.object({
  /** src/shared/vocabulary.ts says what each reason means. */
  reason: z.enum(STOP_REASONS),
  /** The 402 code, or the refused HTTP status. */
  code: z.string().nullable(),
  message: z.string().nullable(),
});

/** What all automatic syncs may spend together in a day, in credits (src/shared/vocabulary.ts). */
export const DailyCreditLimitSchema = z
  .number()
  .int()
  .min(DAILY_CREDIT_LIMIT.min)
  .max(DAILY_CREDIT_LIMIT.max);

/** A job's Keep current state, as the Jobs and Job detail screens show it. */
export const KeepCurrentViewSchema = z.object({
  /** Whether it can be kept current: it has a playlist or a channel. */
  available: z.boolean(),
  /** Marked Keep current: the desktop app syncs it at start and every "Sync every (hours)"; so does `sync --all`. */
  marked: z.boolean(),
  /** When its last automatic sync started; null: never. */
  lastSyncAt: z.string().nullable(),
  /** When this process syncs it next; null when it is not marked or nothing here syncs it (the CLI). */
  nextSyncAt: z.string().nullable(),
  /** The file its corpus is written to after each automatic sync (chosen in the save dialog); null: none. */
  autoExportPath: z.string().nullable(),
  /**
   * Why it is paused when a limit stopped it (its budget, or the daily credit limit of automatic
   * syncs, which the next automatic sync continues after), in plain words; null otherwise.
   */
  limitMessage: z.string().nullable(),
  /**
   * Why this process's last automatic sync of it could not run (no key, say), in plain words; null
   * when it ran. It runs again once the key or address is given, else at the next round.
   */
  syncProblem: z.string().nullable(),
});

export const JobViewSchema = z.object({
  id: z.number().int(),
  /** The name the user gave the job, else what it holds (src/shared/job-name.ts). */
  title: z.string(),
  /** The name the user gave, or null. */
  name: z.string().nullable(),
  status: JobStatusSchema,
  sources: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
  counts: ItemCountsSchema,
  /** Credits the job spent, those possibly charged included. */
  creditsSpent: z.number().int(),
  creditsPossible: z.number().int(),
  budget: z.number().int().nullable(),
  concurrency: z.number().int(),
  formats: z.array(ExportFormatSchema),
  stop: StopSchema.nullable(),
  /** Lists walked so far, of all the job's sources. */
  sourcesWalked: z.number().int(),
  sourcesTotal: z.number().int(),
  /** Lists that could not be walked (listed in errors.csv). */
  sourcesFailed: z.number().int(),
  ratePerSecond: z.number(),
  etaSeconds: z.number().nullable(),
  /** 'here' when this process runs it, 'elsewhere' when another one does. */
  runningIn: z.enum(['here', 'elsewhere']).nullable(),
  /**
   * What a queued job waits for before this process can start it (a key, a service address), in
   * plain words; it starts once given. Null otherwise.
   */
  waitingFor: z.string().nullable(),
  /** Who made its corpus and under what terms, as last given to an export (authors one a line); null: never. */
  citation: z
    .object({
      title: z.string().nullable(),
      description: z.string().nullable(),
      authors: z.array(z.string()),
      license: z.string().nullable(),
    })
    .nullable(),
  keepCurrent: KeepCurrentViewSchema,
});

export const ListViewSchema = z.object({
  input: z.string(),
  kind: SourceKindSchema,
  title: z.string().nullable(),
  /** How far its walk has come (src/shared/vocabulary.ts). */
  status: z.enum(LIST_STATUSES),
  pages: z.number().int(),
  videos: z.number().int(),
  expectedVideos: z.number().int().nullable(),
  error: z.string().nullable(),
  httpStatus: z.number().int().nullable(),
  code: z.string().nullable(),
});

export const JobDetailSchema = z.object({
  job: JobViewSchema,
  options: z.object({
    languages: z.array(z.string()),
    includeTimestamp: z.boolean(),
    sendMetadata: z.boolean(),
    maxVideos: z.number().int().nullable(),
    /** The selection filters as given (part of the job's identity); {} when none. */
    filters: FiltersSchema,
    chunking: ChunkingSchema,
  }),
  /** Where the job's corpus was last written; null when it never was (or only downloaded). */
  exportPath: z.string().nullable(),
  lists: z.array(ListViewSchema),
  skipped: z.array(z.object({ input: z.string(), reason: z.string() })),
  /** What running it will still cost: list pages (at least) and transcripts (at most). */
  estimate: z.object({ pages: z.number().int(), transcripts: z.number().int(), exact: z.boolean() }),
  /** The job's filters in words, and how many videos each left out (never charged). */
  filters: z.array(z.string()),
  skippedByFilter: z.array(z.object({ reason: z.string(), videos: z.number().int() })),
  /**
   * Its failed videos (not those a forced stop cut off) by what happened to them, most first: what
   * the service answered and whether Scriptorium tried again ("not retried: …").
   */
  failures: z.array(z.object({ reason: z.string(), videos: z.number().int() })),
  /** Each bringing-up-to-date of the job, oldest first. */
  syncs: z.array(z.object({ at: z.string(), newVideos: z.number().int(), credits: z.number().int() })),
});

export const VideoRowSchema = z.object({
  itemId: z.number().int(),
  /** Its corpus number: fixed when the job first listed it, the number its files in the ZIP carry. */
  number: z.number().int(),
  /**
   * 1-based position in its list as the latest read of it gave it (1 for a single video); null when
   * that read no longer found it in the list.
   */
  position: z.number().int().nullable(),
  videoId: z.string(),
  title: z.string(),
  language: z.string().nullable(),
  status: VideoStatusSchema,
  source: z.string(),
  attempts: z.number().int(),
  httpStatus: z.number().int().nullable(),
  code: z.string().nullable(),
  message: z.string().nullable(),
  /** The stored transcript the Library's reader opens; null until the video has one. */
  transcriptId: z.number().int().nullable(),
});

export const VideoFilterSchema = z.enum(VIDEO_FILTERS);

export const RunOutcomeSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal(JOB_STATUS.completed),
    failed: z.number().int(),
    failedSources: z.number().int(),
  }),
  z.object({ status: z.literal(JOB_STATUS.waiting_credits), code: z.string(), meaning: z.string() }),
  z.object({
    status: z.literal(JOB_STATUS.paused),
    reason: z.enum(PAUSE_REASONS),
    message: z.string().nullable(),
  }),
  z.object({ status: z.literal(JOB_STATUS.failed), httpStatus: z.number().int(), message: z.string() }),
  z.object({ status: z.literal(JOB_STATUS.cancelled) }),
]);

export const CreditViewSchema = z.object({
  today: z.number().int(),
  total: z.number().int(),
  /** Of those counted, how many may or may not have been charged (requests never answered). */
  possible: z.number().int(),
  byJob: z.array(z.object({ jobId: z.number().int(), credits: z.number().int() })),
  last402: z.object({ code: z.string(), meaning: z.string(), at: z.string() }).nullable(),
  balance: z.number().int().nullable(),
  estimatedRemaining: z.number().int().nullable(),
});

export const JobDefaultsSchema = JobDraftSchema.omit({ sources: true });

/**
 * What the Export dialog starts from for a job never exported with them: the authors (one a line,
 * "Given Family" or "Family, Given", then an ORCID iD if any) and the license (an SPDX id).
 */
export const CorpusDefaultsSchema = z.object({
  authors: z.array(z.string().max(300)).max(100),
  license: z.string().max(100).nullable(),
});

/** The same, checked as an export checks them: only such defaults are saved. */
const CorpusDefaultsInputSchema = z.object({
  authors: z.array(AuthorLineSchema).max(100),
  license: LicenseSchema.nullable(),
});

/** Settings' "Sync every (hours)" and "Daily credit limit" (null: none), for jobs marked Keep current. */
export const KeepCurrentSettingsSchema = z.object({
  syncEveryHours: z.number().int().min(SYNC_EVERY_HOURS.min).max(SYNC_EVERY_HOURS.max),
  dailyCreditLimit: DailyCreditLimitSchema.nullable(),
});

export const SettingsSchema = z.object({
  /** The service's address; null until set. */
  serviceUrl: z.string().nullable(),
  /** Where the service's billing page is, for the link shown with a 402; null when unknown. */
  billingUrl: z.string().nullable(),
  defaults: JobDefaultsSchema,
  corpus: CorpusDefaultsSchema.default({ authors: [], license: null }),
  keepCurrent: KeepCurrentSettingsSchema.default({
    syncEveryHours: SYNC_EVERY_HOURS.default,
    dailyCreditLimit: DAILY_CREDIT_LIMIT.default,
  }),
});

/** The service address requests go to now, and where it comes from (docs/product.md, one rule). */
export const AddressInUseSchema = z.object({
  url: z.string().nullable(),
  /** Saved in Settings; given when the app started (--base-url, TRANSCRIPT_API_BASE_URL); none. */
  from: z.enum(['settings', 'startup']).nullable(),
});

export const KeyStatusSchema = z.object({
  set: z.boolean(),
  /** Where the key is kept: the environment, encrypted on disk, or in memory for this session only. */
  storage: z.enum(['environment', 'encrypted', 'session']).nullable(),
  /** Plain words on the above, e.g. why the key is kept for this session only. */
  message: z.string(),
});

const HttpUrlSchema = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value), 'an address starting with http:// or https://');

// ---------------------------------------------------------------------------------------------
// Commands and events

const JobRef = z.object({ jobId: z.number().int().positive() });

/**
 * What the Library searches: a query in the language of src/shared/search-query.ts (its parser
 * refuses what it cannot read, a query too long included, in plain words) and optional narrowing.
 */
const LibrarySearch = z.object({
  query: z.string().max(20_000),
  /** Only the videos of this job. */
  jobId: z.number().int().positive().nullable().default(null),
  /** Only transcripts in this language or a variant of it: "zh" holds "zh-Hans" (by subtag, case ignored). */
  language: z.string().max(50).nullable().default(null),
  /** Only videos whose channel's name holds this text (case ignored). */
  channel: z.string().max(200).nullable().default(null),
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

export const commands = {
  /** Classifies each line; sends nothing. */
  validateSources: {
    input: z.object({ sources: z.array(SourceEntrySchema).max(MAX_SOURCES_PER_JOB) }),
    output: z.object({ lines: z.array(SourceLineSchema) }),
  },
  /**
   * Creates the draft's job (or finds the same one) and walks its lists, buying only list pages;
   * resolves with the number of videos and what their transcripts will cost. Starting the job
   * afterwards buys none of those pages again.
   */
  previewJob: {
    input: z.object({ draft: JobDraftSchema }),
    output: z.object({
      detail: JobDetailSchema,
      rejected: z.array(SourceLineSchema),
      /** Videos whose publication interval crosses an end of the date window (0 without one). */
      uncertainDates: z.number().int(),
    }),
  },
  /** The job with the draft's identity, or null; creates nothing and sends nothing. */
  findJob: {
    input: z.object({ draft: JobDraftSchema }),
    output: z.object({ job: JobViewSchema.nullable() }),
  },
  /** Creates the draft's job, or finds the job with the same identity; `start` queues it. */
  createJob: {
    input: z.object({ draft: JobDraftSchema, start: z.boolean() }),
    output: z.object({ job: JobViewSchema, created: z.boolean(), rejected: z.array(SourceLineSchema) }),
  },
  /** Queues a draft (or a paused job) for this process's job runner. */
  startJob: { input: JobRef, output: JobViewSchema },
  /** Runs the job in this process now and resolves when the run ends (the CLI's way). */
  runJob: {
    input: JobRef,
    output: z.object({ job: JobViewSchema, outcome: RunOutcomeSchema }),
  },
  /**
   * Stops a running job: no new request, those in flight finish and are kept (at most 10 s).
   * `force` cuts them at once (they count as possibly charged); `interrupted` records an
   * interruption (Ctrl+C) rather than the user's pause. Also stops the job's exports under way, of
   * any status: each fails with `interrupted`, its target left as it was (the CLI's Ctrl+C while the
   * ZIP is written relies on it). A job at rest is paused only if its status allows it
   * (src/shared/vocabulary.ts).
   */
  pauseJob: {
    input: JobRef.extend({ force: z.boolean().optional(), interrupted: z.boolean().optional() }),
    output: JobViewSchema,
  },
  resumeJob: { input: JobRef, output: JobViewSchema },
  /** Names the job (null: named after what it holds again). */
  renameJob: { input: JobRef.extend({ name: JobNameSchema.nullable() }), output: JobViewSchema },
  cancelJob: { input: JobRef, output: JobViewSchema },
  /**
   * Brings a finished job up to date and runs it here: channels ask the free channel/latest first
   * and walk only while new videos keep coming; playlists are walked again. Only what is new is
   * bought. Resolves with what the sync found and cost.
   */
  syncJob: {
    input: JobRef,
    output: z.object({
      job: JobViewSchema,
      outcome: RunOutcomeSchema,
      newVideos: z.number().int(),
      pages: z.number().int(),
      credits: z.number().int(),
    }),
  },
  /**
   * Marks the job Keep current, or not. A job without a playlist or a channel cannot be kept current:
   * refused (invalid_input), nothing changed.
   */
  setKeepCurrent: { input: JobRef.extend({ on: z.boolean() }), output: JobViewSchema },
  /**
   * Sets the file the job's corpus is written to after each automatic sync that completes (in the
   * formats and with the citation of its last export), or clears it (null). The desktop app accepts
   * only a path its save dialog returned for it; browser mode refuses any path (output_refused).
   */
  setAutoExport: {
    input: JobRef.extend({ destination: z.string().min(1).max(4096).nullable() }),
    output: JobViewSchema,
  },
  /**
   * One automatic sync of a job with a playlist or a channel (the desktop app's schedule, `sync --all`),
   * run here: a finished job is synced, and one the daily credit limit stopped is continued, within
   * its budget and what `dailyLimit` leaves of today's automatic spending (a limit that stops it
   * pauses it like a budget stop, with the message on the job); any other job is left as it is
   * (`skipped` says why). A sync that completes is then written to the job's auto-export file, if any.
   */
  autoSyncJob: {
    input: JobRef.extend({ dailyLimit: DailyCreditLimitSchema.nullable() }),
    output: z.object({
      job: JobViewSchema,
      /** What the sync found and cost; null when the job was not synced. */
      sync: z
        .object({
          outcome: RunOutcomeSchema,
          newVideos: z.number().int(),
          pages: z.number().int(),
          credits: z.number().int(),
        })
        .nullable(),
      /** Why the job was not synced (it has not finished, say); null when it was. */
      skipped: z.string().nullable(),
      /** The export to the job's auto-export file after the sync: where, or why it failed; null: none. */
      autoExport: z
        .discriminatedUnion('ok', [
          z.object({ ok: z.literal(true), path: z.string() }),
          z.object({ ok: z.literal(false), message: z.string() }),
        ])
        .nullable(),
    }),
  },
  /** Puts the failed videos and the lists that could not be walked back in the queue. */
  retryFailed: { input: JobRef, output: z.object({ job: JobViewSchema, reset: z.number().int() }) },
  /** Asks the service again for the videos it said it had no transcript for. */
  retryUnavailable: {
    input: JobRef,
    output: z.object({ job: JobViewSchema, reset: z.number().int() }),
  },
  deleteJob: { input: JobRef, output: z.null() },
  listJobs: { input: z.object({}), output: z.array(JobViewSchema) },
  jobDetail: { input: JobRef, output: JobDetailSchema },
  /**
   * A page of the job's videos by corpus number, filtered by status, by words of the title and by
   * source (its index in the job's sources: the videos it holds, whichever source brought them first).
   */
  listVideos: {
    input: JobRef.extend({
      offset: z.number().int().nonnegative(),
      limit: z.number().int().min(1).max(500),
      status: VideoFilterSchema,
      search: z.string().max(200),
      source: z.number().int().nonnegative().nullable().default(null),
    }),
    output: z.object({ total: z.number().int(), offset: z.number().int(), rows: z.array(VideoRowSchema) }),
  },
  /**
   * Writes the job's ZIP to `destination`, or, when it is null, to a file this process keeps for
   * download (browser mode). Progress comes as exportProgress events.
   */
  exportJob: {
    input: JobRef.extend({
      formats: z.array(ExportFormatSchema).min(1),
      destination: z.string().min(1).max(4096).nullable(),
      /**
       * Title, description, authors and license, kept with the job for its later exports; left out,
       * the job's last ones are used, else the defaults of Settings.
       */
      citation: CitationSchema.optional(),
    }),
    output: z.object({
      exportId: z.string(),
      jobId: z.number().int(),
      fileName: z.string(),
      /** Where it was written; null for a download. */
      path: z.string().nullable(),
      bytes: z.number().int(),
      complete: z.boolean(),
      /**
       * The transcripts' files copied unchanged from the previous export at `destination`, and those
       * written afresh (the tables, datasheet and checksums, always written, are in neither).
       */
      copied: z.number().int(),
      written: z.number().int(),
    }),
  },
  creditStatus: { input: z.object({}), output: CreditViewSchema },
  /** Records the balance the user read on their account; null forgets it. */
  setBalance: {
    input: z.object({ credits: z.number().int().nonnegative().nullable() }),
    output: CreditViewSchema,
  },
  getSettings: { input: z.object({}), output: SettingsSchema },
  updateSettings: {
    input: z.object({
      serviceUrl: HttpUrlSchema.nullable().optional(),
      billingUrl: HttpUrlSchema.nullable().optional(),
      defaults: JobDefaultsSchema.partial().optional(),
      corpus: CorpusDefaultsInputSchema.optional(),
      keepCurrent: KeepCurrentSettingsSchema.partial().optional(),
    }),
    output: SettingsSchema,
  },
  /** The service address in use and where it comes from. */
  addressInUse: { input: z.object({}), output: AddressInUseSchema },
  /** Whether a key is set and where it is kept; never the key. */
  keyStatus: { input: z.object({}), output: KeyStatusSchema },
  setKey: { input: z.object({ key: z.string().trim().min(1).max(512) }), output: KeyStatusSchema },
  removeKey: { input: z.object({}), output: KeyStatusSchema },
  /** Asks the service something free with the key and address set; never charges. */
  testConnection: {
    input: z.object({}),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  /**
   * Whether a run could start now: a key is set for the service address in force. Sends nothing;
   * fails with no_key or invalid_input, and the message saying what to set, when it could not.
   */
  checkService: { input: z.object({}), output: z.null() },
  /**
   * Searches every stored transcript (the Library). A query the parser refuses fails with
   * invalid_input and its message. Sends nothing.
   */
  searchTranscripts: {
    input: LibrarySearch.extend({ limit: z.number().int().min(1).max(1000).default(100) }),
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
   * language, title, time, start in seconds, link, text), all of them or the first `limit`, to
   * `destination`, or, when it is null, to a file this process keeps for download (browser mode), as
   * exportJob does. Written on a worker thread in the desktop app and browser mode, so that the app
   * answers meanwhile; searchExportProgress tells how far it has come. Cancelled (cancelSearchExport,
   * or the app closing), it fails with `interrupted` and writes nothing.
   */
  exportSearchResults: {
    input: LibrarySearch.extend({
      destination: z.string().min(1).max(4096).nullable(),
      limit: z.number().int().min(1).nullable().default(null),
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
    input: LibrarySearch,
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
} as const satisfies { [N in CommandName]: { input: z.ZodType; output: z.ZodType } };

export const events = {
  /** A job's state, counts, rate or credits changed (at most ten a second per job). */
  jobChanged: JobViewSchema,
  jobRemoved: JobRef,
  /** Some of the job's videos changed state; `changed` counts them since the last event. */
  videosChanged: z.object({ jobId: z.number().int(), changed: z.number().int() }),
  /** The service answered 402: the job waits for credits. */
  paymentRequired: z.object({
    jobId: z.number().int(),
    code: z.string(),
    /** What the code means and what to do. */
    meaning: z.string(),
    billingUrl: z.string().nullable(),
  }),
  /** A request waits before its next attempt, as the service asked or the policy says. */
  retryWait: z.object({
    jobId: z.number().int(),
    status: z.number().int(),
    waitMs: z.number().int(),
    attempt: z.number().int(),
  }),
  exportProgress: z.object({
    exportId: z.string(),
    jobId: z.number().int(),
    done: z.number().int(),
    total: z.number().int(),
  }),
  creditsChanged: CreditViewSchema,
  /** Stored transcripts are being indexed for search (after an upgrade): `done` of `total` so far. */
  libraryIndexing: z.object({ done: z.number().int(), total: z.number().int() }),
  /** How many of a search's hits exportSearchResults has written. */
  searchExportProgress: z.object({ exportId: z.string(), done: z.number().int(), total: z.number().int() }),
  /**
   * A sync run in this process has ended (not one another process ran): what it found and cost, and
   * the stop's message when it did not complete. A desktop notification names what was new.
   */
  jobSynced: z.object({
    jobId: z.number().int(),
    /** The job's title (JobView.title). */
    title: z.string(),
    /** Started by the schedule or `sync --all` rather than by the user's Sync. */
    automatic: z.boolean(),
    newVideos: z.number().int(),
    credits: z.number().int(),
    completed: z.boolean(),
    /** Why it stopped before its end (a limit, the credits, the service); null when it completed. */
    stopMessage: z.string().nullable(),
  }),
} as const satisfies { [N in EventName]: z.ZodType };

export type CommandInput<N extends CommandName> = z.input<(typeof commands)[N]['input']>;
export type CommandOutput<N extends CommandName> = z.infer<(typeof commands)[N]['output']>;
export type EventPayload<N extends EventName> = z.infer<(typeof events)[N]>;

/**
 * What a command answers on every transport: its output, or the typed error of src/shared/errors.ts
 * (errors never travel as bare text).
 */
export type Answer<T> = { ok: true; value: T } | { ok: false; error: z.infer<typeof AppErrorSchema> };

/** An answer as it arrives over a transport, before the face reads its value. */
export const AnswerSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: AppErrorSchema }),
]);

/**
 * What the Electron preload exposes: one function per command that resolves with the answer
 * envelope (errors thrown across contextBridge would lose their code), and event subscription.
 */
export type ScriptoriumBridge = {
  [N in CommandName]: (input: CommandInput<N>) => Promise<Answer<CommandOutput<N>>>;
} & {
  on<N extends EventName>(event: N, listener: (payload: EventPayload<N>) => void): () => void;
};

/** What every face gets: one typed function per command, and event subscription. */
export type ScriptoriumApi = {
  [N in CommandName]: (input: CommandInput<N>) => Promise<CommandOutput<N>>;
} & {
  on<N extends EventName>(event: N, listener: (payload: EventPayload<N>) => void): () => void;
};

export type ItemCounts = z.infer<typeof ItemCountsSchema>;
export type SourceEntry = z.infer<typeof SourceEntrySchema>;
export type SourceLine = z.infer<typeof SourceLineSchema>;
export type JobDraft = z.infer<typeof JobDraftSchema>;
export type JobView = z.infer<typeof JobViewSchema>;
export type JobDetail = z.infer<typeof JobDetailSchema>;
export type ListView = z.infer<typeof ListViewSchema>;
export type VideoRow = z.infer<typeof VideoRowSchema>;
export type SearchResults = z.infer<typeof SearchResultsSchema>;
export type SearchGroup = z.infer<typeof SearchGroupSchema>;
export type SearchHit = z.infer<typeof SearchHitSchema>;
export type TranscriptReading = z.infer<typeof TranscriptReadingSchema>;
export type RunOutcomeView = z.infer<typeof RunOutcomeSchema>;
export type CreditView = z.infer<typeof CreditViewSchema>;
export type Settings = z.infer<typeof SettingsSchema>;
export type JobDefaults = z.infer<typeof JobDefaultsSchema>;
export type KeyStatus = z.infer<typeof KeyStatusSchema>;
export type AddressInUse = z.infer<typeof AddressInUseSchema>;
export type KeepCurrentView = z.infer<typeof KeepCurrentViewSchema>;
export type KeepCurrentSettings = z.infer<typeof KeepCurrentSettingsSchema>;
