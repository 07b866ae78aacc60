import { z } from 'zod';
import type { EventName } from '../channels';
import { CreditViewSchema } from './credits';
import { UpdateStatusSchema } from './updates';
import { JobRef, JobViewSchema } from './values';

/** Every event a face may receive, with its payload's schema. */
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
  /** What the desktop app knows of a newer release changed (a check, a download's progress). */
  updateChanged: UpdateStatusSchema,
} as const satisfies { [N in EventName]: z.ZodType };
