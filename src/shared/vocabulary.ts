/**
 * The words and numbers the layers share, each defined once, as data: a job's statuses and the
 * actions each allows, why a job stopped, the statuses of videos, lists and corpora, the kinds of
 * source, the original track, and a job's limits and defaults. The store, the engine, the export,
 * the contract's schemas, the CLI and the renderer read them from here, and eslint/vocabulary.js
 * reports a status, a reason, a source kind or the original track spelled out anywhere else in src/. Code names a value through its object (`JOB_STATUS.completed`), so that a
 * word that changes here changes everywhere. Free of packages, so that the renderer and the
 * sandboxed preload can load it.
 */
/** `{ a: 'a', b: 'b' }` from `['a', 'b']`: each value under its own name. */
function named<const T extends string>(values: readonly T[]): { readonly [K in T]: K } {
  return Object.freeze(Object.fromEntries(values.map((value) => [value, value]))) as { readonly [K in T]: K };
}

// ---------------------------------------------------------------------------------------------
// Jobs

export const JOB_STATUSES = [
  /** Created (and perhaps previewed: its lists walked) but not started. */
  'draft',
  /** Waiting for a job runner (the desktop app, browser mode) or the next start. */
  'queued',
  /** A process runs it now (its lease says which). */
  'running',
  /** Stopped before its end: by the user, an interruption, its budget, the service or a missing setting. */
  'paused',
  /** The service answered 402: it continues once the account has credits again. */
  'waiting_credits',
  /** Every list walked and every video answered (some perhaps failed or unavailable). */
  'completed',
  /** The key was refused, or an unexpected error stopped it. */
  'failed',
  /**
   * The user cancelled it: stopped for good, what it bought kept (and exportable). The same sources and
   * options asked for again make a new job, which reuses its transcripts at no cost.
   */
  'cancelled',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_STATUS = named(JOB_STATUSES);

/** How every face words a job's status ("Job 3 is waiting for credits"; the window capitalizes it). */
export const JOB_STATUS_WORDS: { readonly [S in JobStatus]: string } = {
  draft: 'not started',
  queued: 'queued',
  running: 'running',
  paused: 'paused',
  waiting_credits: 'waiting for credits',
  completed: 'completed',
  failed: 'stopped',
  cancelled: 'cancelled',
};

/**
 * What the user may do with a job, by its status. Retry failed is not here: it depends on the job's
 * counts (failed videos, lists not walked), not on its status.
 */
export const JOB_ACTIONS = [
  /** Stop a running job (requests in flight finish), or hold a queued or waiting one. */
  'pause',
  /** Queue it again (a draft is started); the next run continues where it stopped. */
  'resume',
  'cancel',
  /** Look for what is new in a finished job's playlists and channels. */
  'sync',
  'delete',
] as const;
export type JobAction = (typeof JOB_ACTIONS)[number];

/**
 * The one table of which action each status allows, read by the engine (which refuses the rest)
 * and by the renderer (which offers only these buttons). A failed job is not paused: it is not
 * running and will not run by itself, and pausing it would only replace why it failed (the refused
 * key) with "you paused it". A cancelled job is stopped for good: nothing resumes it (docs/product.md).
 * Only the process that runs a job can pause or cancel it while it runs.
 */
const ALLOWED_ACTIONS: { readonly [S in JobStatus]: readonly JobAction[] } = {
  draft: ['resume', 'cancel', 'delete'],
  queued: ['pause', 'cancel', 'delete'],
  running: ['pause', 'cancel'],
  paused: ['resume', 'cancel', 'delete'],
  waiting_credits: ['pause', 'resume', 'cancel', 'delete'],
  completed: ['sync', 'delete'],
  failed: ['resume', 'cancel', 'delete'],
  cancelled: ['delete'],
};

export function jobAllows(status: JobStatus, action: JobAction): boolean {
  return ALLOWED_ACTIONS[status].includes(action);
}

// ---------------------------------------------------------------------------------------------
// Why a job stopped

/** Why a job stopped before its end, kept with it (with a code and a message where it has them). */
export const STOP_REASONS = [
  /** The service answered 402 (its code is kept): the job waits for credits. */
  'credits',
  /** The service refused the key (401, 403, or 431 for a key too long to read; the status is kept). */
  'auth',
  /** The job has spent the credits it was given. */
  'budget',
  /** The service cannot be reached, keeps failing, or asked to wait longer than Scriptorium will. */
  'service',
  /** The user paused it. */
  'user',
  /** Ctrl+C, SIGTERM or a forced stop interrupted it. */
  'interrupted',
  /** The process that ran it is closing: it stays queued, to continue at the next start (never stored). */
  'shutdown',
  /** The user cancelled it. */
  'cancelled',
  /** An unexpected error stopped it (its message is kept). */
  'error',
  /** It could not start: no key, or no service address (a job runner holds it, with what to do). */
  'setup',
  /** It had finished, and Retry failed queued its failed videos again. */
  'retry',
] as const;
export type StopReason = (typeof STOP_REASONS)[number];
export const STOP_REASON = named(STOP_REASONS);

/** Why a run can end paused, as its outcome says: the job is paused for it, or queued for 'shutdown'. */
export const PAUSE_REASONS = [
  STOP_REASON.budget,
  STOP_REASON.interrupted,
  STOP_REASON.user,
  STOP_REASON.service,
  STOP_REASON.shutdown,
] as const satisfies readonly StopReason[];
export type PauseReason = (typeof PAUSE_REASONS)[number];

// ---------------------------------------------------------------------------------------------
// Sources

/** What a line of a job's sources names (shared/sources.ts reads each line as one of them). */
export const SOURCE_KINDS = [
  /** One video, by its ID or URL. */
  'video',
  /** A playlist's videos, read page by page. */
  'playlist',
  /** A channel's uploads, by its @handle, URL or UC id. */
  'channel',
  /** The videos a search on the service finds. */
  'search',
] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
export const SOURCE_KIND = named(SOURCE_KINDS);

/** The kinds of source a sync brings up to date: a job can be kept current only with one of them. */
export const SYNCED_SOURCE_KINDS = [
  SOURCE_KIND.playlist,
  SOURCE_KIND.channel,
] as const satisfies readonly SourceKind[];
export type SyncedSourceKind = (typeof SYNCED_SOURCE_KINDS)[number];

export function isSyncedSourceKind(kind: string): kind is SyncedSourceKind {
  return (SYNCED_SOURCE_KINDS as readonly string[]).includes(kind);
}

/**
 * The `--lang` entry that means "the video's original track", i.e. no `lang` parameter at all; a
 * corpus names the language asked for so too.
 */
export const ORIGINAL_TRACK = 'orig';

// ---------------------------------------------------------------------------------------------
// Videos and lists

/** A video's state in a job. */
export const ITEM_STATUSES = [
  /** Still to fetch. */
  'pending',
  /** Its request is in flight. */
  'fetching',
  /** Its transcript is stored. */
  'ok',
  /** The service has no transcript for it (404): asked again only on request. */
  'unavailable',
  /** Its request failed (retried where the request policy allows), or was cut off (possibly charged): sent again only on request. */
  'failed',
  /** Left out by a selection filter, never charged. */
  'skipped',
] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
export const ITEM_STATUS = named(ITEM_STATUSES);

/** Where a video's fetch ends. */
export const FINAL_ITEM_STATUSES = [
  ITEM_STATUS.ok,
  ITEM_STATUS.unavailable,
  ITEM_STATUS.failed,
] as const satisfies readonly ItemStatus[];
export type FinalItemStatus = (typeof FINAL_ITEM_STATUSES)[number];

export function isFinalItemStatus(status: ItemStatus): status is FinalItemStatus {
  return (FINAL_ITEM_STATUSES as readonly ItemStatus[]).includes(status);
}

/**
 * What a corpus says of each video (index.csv's `status`, manifest.json's counts): its status in the
 * job, a video in flight counted as pending (docs/product.md, "ZIP layout").
 */
export const CORPUS_STATUSES = [
  ITEM_STATUS.ok,
  ITEM_STATUS.unavailable,
  ITEM_STATUS.failed,
  ITEM_STATUS.skipped,
  ITEM_STATUS.pending,
] as const satisfies readonly ItemStatus[];
export type CorpusStatus = (typeof CORPUS_STATUSES)[number];

export function corpusStatusOf(status: ItemStatus): CorpusStatus {
  return status === ITEM_STATUS.fetching ? ITEM_STATUS.pending : status;
}

/** Which of a job's videos a face lists: all, or those of one status (pending includes those in flight). */
export const VIDEO_FILTERS = [
  'all',
  ITEM_STATUS.pending,
  ITEM_STATUS.ok,
  ITEM_STATUS.unavailable,
  ITEM_STATUS.failed,
  ITEM_STATUS.skipped,
] as const;
export type VideoFilter = (typeof VIDEO_FILTERS)[number];

/** The codes Scriptorium gives a video itself; the service's own codes are kept as they come. */
export const ITEM_CODE = {
  /** Skipped: a selection filter left it out (the filter's words are its message). */
  filteredOut: 'filter',
  /** Skipped for now: its filters wait for its list's size (positions counted from the end). */
  awaitingListSize: 'awaiting_list_size',
  /** Failed: a forced stop cut its request off after it was sent (possibly charged). */
  cutOff: 'interrupted',
} as const;

/** How far the walk of a playlist, channel or search has come. */
export const LIST_STATUSES = [
  /** Pages are still to be read (from its cursor). */
  'pending',
  /** Every page is read. */
  'done',
  /** The service said it does not exist (404). */
  'unavailable',
  /** A page could not be read; the next run reads it again from the cursor. */
  'failed',
] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];
export const LIST_STATUS = named(LIST_STATUSES);

/** Lists that could not be walked (counted in the manifest, listed in errors.csv); the next run tries again. */
export const UNWALKED_LIST_STATUSES = [
  LIST_STATUS.unavailable,
  LIST_STATUS.failed,
] as const satisfies readonly ListStatus[];
export type UnwalkedListStatus = (typeof UNWALKED_LIST_STATUSES)[number];

export function isUnwalkedList(status: ListStatus): status is UnwalkedListStatus {
  return (UNWALKED_LIST_STATUSES as readonly ListStatus[]).includes(status);
}

// ---------------------------------------------------------------------------------------------
// A job's limits and defaults: the CLI's options, the window's forms, the contract's schemas, the
// engine's stored settings and the export all take them from here.

/** Transcript requests in flight at once. */
export const CONCURRENCY = { min: 1, max: 64, default: 4 } as const;

/** The longest span of a passage of chunks.jsonl, in seconds; its overlap is at least 0 and shorter. */
export const CHUNK_SECONDS = { min: 5, max: 3600 } as const;

/** How chunks.jsonl cuts transcripts when a job does not say. */
export const DEFAULT_CHUNKING = { targetSeconds: 60, overlapSeconds: 10 } as const;

/** What a ZIP corpus can hold, in the order its entries appear: a file per transcript, and passages. */
export const EXPORT_FORMATS = ['txt', 'json', 'srt', 'vtt', 'chunks'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The formats written as a file per transcript, one folder each. */
export const FILE_FORMATS = ['txt', 'json', 'srt', 'vtt'] as const satisfies readonly ExportFormat[];
export type FileFormat = (typeof FILE_FORMATS)[number];

/** The formats that need the segments' times: none of them can be written with --no-timestamps. */
export const TIMED_FORMATS = ['srt', 'vtt', 'chunks'] as const satisfies readonly ExportFormat[];

export function needsTimestamps(format: ExportFormat): boolean {
  return (TIMED_FORMATS as readonly ExportFormat[]).includes(format);
}

/** What an export writes unless asked otherwise: every file format (chunks on request), or those without times. */
export function defaultFormats(includeTimestamp = true): FileFormat[] {
  return FILE_FORMATS.filter((format) => includeTimestamp || !needsTimestamps(format));
}

/** The languages a job asks for unless told: the video's original track. */
export const DEFAULT_LANGUAGES = ORIGINAL_TRACK;

// ---------------------------------------------------------------------------------------------
// Keeping jobs current: Settings' "Sync every (hours)" and "Daily credit limit", the CLI's
// --daily-limit, the contract's schemas and the scheduler take their bounds and defaults from here.

/** How often the desktop app syncs the jobs marked Keep current while it runs, in whole hours. */
export const SYNC_EVERY_HOURS = { min: 1, max: 24 * 30, default: 24 } as const;

/**
 * What all automatic syncs may spend together in a day (from local midnight), in credits; no limit
 * unless one is set.
 */
export const DAILY_CREDIT_LIMIT = { min: 1, max: 1_000_000, default: null } as const;

/**
 * The code a budget stop carries when the daily credit limit of automatic syncs stopped it rather
 * than the job's own budget (JobView.stop.code): the next automatic sync continues such a job.
 */
export const DAILY_LIMIT_STOP_CODE = 'daily_limit';
