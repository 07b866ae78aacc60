import { z } from 'zod';
import { JOB_STATUS, PAUSE_REASONS } from '../vocabulary';
import { JobRef, JobViewSchema, type CommandSchemas } from './values';

/** How a run here ended; a run another process holds is an error, never an outcome. */
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

/** Starting, running, stopping and syncing jobs, and putting their videos back in the queue. */
export const runCommands = {
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
  cancelJob: { input: JobRef, output: JobViewSchema },
  /**
   * Brings a finished job up to date and runs it here: channels ask the free channel/latest first
   * and are read again only while new videos keep coming; playlists are read again whole. Only what
   * is new is bought. Resolves with what the sync found and cost.
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
  /** Puts the failed videos and the lists that could not be walked back in the queue. */
  retryFailed: { input: JobRef, output: z.object({ job: JobViewSchema, reset: z.number().int() }) },
  /** Asks the service again for the videos it said it had no transcript for. */
  retryUnavailable: {
    input: JobRef,
    output: z.object({ job: JobViewSchema, reset: z.number().int() }),
  },
} as const satisfies CommandSchemas;

export type RunOutcomeView = z.infer<typeof RunOutcomeSchema>;
