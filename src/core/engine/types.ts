import type { Source } from '../../shared/sources';
import type { Clock, Endpoint, RetryNotice, TranscriptClient } from '../api/types';
import type { Database, ItemStatus, JobStatus, WalkStatus } from '../store';
import type { Filters } from '../../shared/filters';
import type { PauseReason, StopReason } from '../../shared/vocabulary';
import type { JobSettings } from './spec';

export type { JobStatus, ItemStatus, WalkStatus };
export type { ExportRow } from '../store';

export interface JobOptions {
  /** Language preference, tried in order for each video; ORIGINAL_TRACK = no lang parameter. Default [DEFAULT_LANGUAGES]. */
  langs: string[];
  includeTimestamp: boolean;
  sendMetadata: boolean;
  /** Most videos taken from each playlist, channel or search. Default: all. */
  maxVideos?: number;
  /** Selection filters, applied to what list pages say before anything is bought. Default: none. */
  filters?: Filters;
}

export interface JobSpec {
  sources: Source[];
  /** Inputs the user gave that were not valid sources, kept for the manifest. */
  skipped: Array<{ input: string; reason: string }>;
  options: JobOptions;
}

export interface RunSettings {
  /** Transcript requests in flight at once. Default: CONCURRENCY.default. */
  concurrency?: number;
  /** Credits this job may spend in total, over all its runs. Default: no limit. */
  budget?: number;
  /**
   * Aborting it (the first SIGINT) stops the run: no new request, requests in flight finish and are
   * recorded (at most DRAIN_MS), and the job is paused with reason 'interrupted'.
   */
  signal?: AbortSignal;
  /** Aborting it (a second SIGINT) cuts the requests in flight at once; they count as possibly charged. */
  force?: AbortSignal;
  /** The client for this run (e.g. built with this run's key). Default: the engine's. */
  client?: TranscriptClient;
  /** The pacer for this run. Default: the engine's, else none. */
  pacer?: RequestPacer;
  /**
   * The service the client talks to (its address, never holding the key, and API version), recorded
   * with the job for its corpus's provenance. Default: none recorded (a client that sends nothing).
   */
  service?: { address: string; apiVersion: string };
  /**
   * An automatic sync's run (the desktop app's schedule, `sync --all`): its credits are marked in the
   * ledger, where the daily credit limit counts them, and its sync is recorded as automatic.
   */
  automatic?: boolean;
  /** A limit on this run's spending besides the job's budget, not kept with the job. */
  cap?: SpendingCap;
}

/**
 * At most `credits` more for this run (the daily credit limit's remainder, say). Reaching it stops the
 * run as the budget does, the job paused with `code` and `message` as the reason's details.
 */
export interface SpendingCap {
  credits: number;
  code: string;
  message: string;
}

export type RunOutcome =
  /** `failed` counts videos that failed; `failedSources` lists that could not be walked. */
  | { status: 'completed'; failed: number; failedSources: number }
  | { status: 'waiting_credits'; code: string; meaning: string }
  /** 'shutdown': the process that ran it is closing; the job stays queued for the next start. */
  | { status: 'paused'; reason: Exclude<PauseReason, 'service'> }
  /** The service cannot be reached, keeps failing, or asked to wait longer than we will. */
  | { status: 'paused'; reason: 'service'; message: string }
  | { status: 'failed'; reason: 'auth'; httpStatus: number; message: string }
  | { status: 'cancelled' }
  /** Another live Scriptorium process holds the job's lease; nothing was done. */
  | { status: 'busy'; message: string };

/** How a preview ended: its lists walked, with what the job will cost; or how the walk was stopped. */
export type PreviewOutcome = { status: 'walked'; estimate: EstimateResult } | RunOutcome;

/** How a sync ended, with what it found and what it cost (list pages and new transcripts). */
export interface SyncOutcome {
  outcome: RunOutcome;
  newVideos: number;
  pages: number;
  credits: number;
}

/** Anything that spaces requests out, such as src/core/api's Pacer. */
export interface RequestPacer {
  wait(signal?: AbortSignal): Promise<void>;
}

/** Where the engine reports what it cannot throw (a listener that failed). */
export interface Logger {
  warn(message: string, error?: unknown): void;
}

export interface EngineDeps {
  db: Database;
  /** Default: console. */
  logger?: Logger;
  /** The default client of every run; a run may bring its own (RunSettings.client) instead. */
  client?: TranscriptClient;
  clock: Clock;
  /** Awaited before every request; feed it the client's onRateLimit. Default: no pacing. */
  pacer?: RequestPacer;
  /**
   * Names this engine in job leases: '<pid>-<anything>', the pid telling other processes
   * whether the holder is alive. Default: this process's pid and a random UUID.
   */
  leaseOwner?: string;
}

/** Item counts as faces show them: pending includes items with a request in flight. */
export interface ItemCountsView {
  total: number;
  pending: number;
  ok: number;
  unavailable: number;
  failed: number;
  skipped: number;
  /** Of the failed, those a forced stop cut off after they were sent (possibly charged). */
  interrupted: number;
}

export interface SourceProgress {
  id: number;
  position: number;
  kind: Source['kind'];
  sourceId: string;
  input: string;
  resolvedChannelId: string | null;
  walkStatus: WalkStatus;
  pages: number;
  videosFound: number;
  /** How many videos the service says the list holds, when it says so. */
  expectedVideos: number | null;
  title: string | null;
  /** Why the walk could not be done (failed or unavailable), with the HTTP status and service code. */
  error: string | null;
  httpStatus: number | null;
  errorCode: string | null;
}

export interface JobSummary {
  id: number;
  status: JobStatus;
  options: JobOptions;
  /** How it is to be run and exported. */
  settings: JobSettings;
  /** Whether a process runs it now: this engine ('here') or another live one ('elsewhere'). */
  runningIn: 'here' | 'elsewhere' | null;
  sources: Source[];
  skipped: Array<{ input: string; reason: string }>;
  /** The credits it may spend in all; null for no limit. */
  budget: number | null;
  /** Why the job stopped (shared/vocabulary.ts); null when it did not. */
  stopReason: StopReason | null;
  /** The 402 code, or the refused HTTP status for 'auth'. */
  stopCode: string | null;
  /** Plain-language explanation of the stop. */
  stopMessage: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  counts: ItemCountsView;
  /** Credits spent by the job, possibly charged ones included. */
  creditsSpent: number;
  /** How many of them may or may not have been charged (requests sent and never answered). */
  creditsPossible: number;
  walks: SourceProgress[];
  keepCurrent: {
    /** Marked Keep current: synced automatically. */
    marked: boolean;
    /** Where its corpus is written after each automatic sync that completes; null: nowhere. */
    autoExportPath: string | null;
    /** When its last automatic sync started; null: never. */
    lastSyncAt: string | null;
  };
}

/** Throttled progress of a running job: at most ten a second, whatever the throughput. */
export interface JobSnapshot {
  jobId: number;
  status: JobStatus;
  counts: ItemCountsView;
  sourcesWalked: number;
  sourcesTotal: number;
  ratePerSecond: number;
  etaSeconds: number | null;
  creditsSpent: number;
}

export interface CreditStatus {
  byJob: Record<number, number>;
  /** Credits spent since local midnight. */
  today: number;
  total: number;
  /** How many of the credits counted (today, total, by job) may or may not have been charged. */
  possible: number;
  last402?: { code: string; meaning: string; at: string };
  /** The balance the user last entered. */
  balance?: number;
  /** That balance minus the credits spent since it was entered. */
  estimatedRemaining?: number;
}

export interface EngineEvents {
  item: { jobId: number; itemId: number; videoId: string; status: ItemStatus };
  /**
   * `videos` listed by the page; of those new to the job (not listed by another source), `added` to
   * fetch and `skipped` by a filter; `settled`: videos that waited for the list's size, now to fetch.
   */
  page: { jobId: number; sourceId: number; videos: number; added: number; skipped: number; settled: number };
  job: { jobId: number; status: JobStatus };
  /** One credit spent; `possible` when the request may or may not have been charged. */
  credit: { jobId: number; endpoint: Endpoint; possible: boolean };
  /** A request waits before its next attempt (a 429, 408 or 502), as the service asked or the policy says. */
  wait: { jobId: number } & RetryNotice;
  snapshot: JobSnapshot;
}

export interface EstimateResult {
  /** List pages still to buy: at least one per list source not fully walked. */
  pages: number;
  /** Unfinished videos whose first-choice transcript is not in the cache (at most one credit each). */
  transcripts: number;
  /** True when every list source is walked, so `pages` is exactly 0. */
  exact: boolean;
}
