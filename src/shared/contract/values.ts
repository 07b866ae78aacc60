import { z } from 'zod';
import type { CommandName } from '../channels';
import { FiltersSchema } from '../filters';
import { MAX_LANGUAGE_LIST_CHARS, MAX_SOURCE_LINE_CHARS, MAX_SOURCES_PER_JOB } from '../limits';
import {
  CHUNK_SECONDS,
  CONCURRENCY,
  EXPORT_FORMATS,
  ITEM_STATUSES,
  JOB_STATUSES,
  LIST_STATUSES,
  SOURCE_KINDS,
  STOP_REASONS,
  VIDEO_FILTERS,
} from '../vocabulary';

/**
 * The shapes the commands of several domains share: a job as the user drafts it, and as every
 * command shows it (its view, its detail, its videos).
 */

/** What each domain's file of the contract gives: schemas for some of the commands, by name. */
export type CommandSchemas = { [N in CommandName]?: { input: z.ZodType; output: z.ZodType } };

/** The job a command is about. */
export const JobRef = z.object({ jobId: z.number().int().positive() });

/** src/shared/vocabulary.ts says what each status means. */
export const JobStatusSchema = z.enum(JOB_STATUSES);

/** What a ZIP corpus holds: files per transcript (txt, json, srt, vtt) and passages (chunks.jsonl). */
export const ExportFormatSchema = z.enum(EXPORT_FORMATS);

/** A video's state in a job (src/shared/vocabulary.ts); 'fetching' has a request in flight. */
export const VideoStatusSchema = z.enum(ITEM_STATUSES);

export const SourceKindSchema = z.enum(SOURCE_KINDS);

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
  /** Credits the job may spend in all its runs; null for no limit; left out, a job found keeps its own. */
  budget: z.number().int().nonnegative().nullable().optional(),
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

/** A job's Keep current state, as the Jobs and Job detail screens show it. */
export const KeepCurrentViewSchema = z.object({
  /** Whether it can be kept current: it has a playlist or a channel. */
  available: z.boolean(),
  /** Marked Keep current: the desktop app syncs it at start and every "Sync every (hours)"; so does `sync --all`. */
  marked: z.boolean(),
  /** When its last automatic sync started; null: never. */
  lastSyncAt: z.string().nullable(),
  /**
   * When this process syncs it next; null when it is not marked, when nothing here syncs it (the
   * CLI), or when its sync waits for a key or an address (syncProblem), which runs it at once.
   */
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
  /**
   * Its corpus's released versions, oldest first; `writable`: its release kept what it is written
   * from, so that exportJob's `version` writes it again byte for byte.
   */
  versions: z.array(z.object({ version: z.number().int(), releasedAt: z.string(), writable: z.boolean() })),
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

export type ItemCounts = z.infer<typeof ItemCountsSchema>;
export type SourceEntry = z.infer<typeof SourceEntrySchema>;
export type SourceLine = z.infer<typeof SourceLineSchema>;
export type JobDraft = z.infer<typeof JobDraftSchema>;
export type JobView = z.infer<typeof JobViewSchema>;
export type JobDetail = z.infer<typeof JobDetailSchema>;
export type ListView = z.infer<typeof ListViewSchema>;
export type VideoRow = z.infer<typeof VideoRowSchema>;
export type KeepCurrentView = z.infer<typeof KeepCurrentViewSchema>;
