import { z } from 'zod';
import { MAX_SOURCES_PER_JOB } from '../limits';
import {
  JobDetailSchema,
  JobDraftSchema,
  JobNameSchema,
  JobRef,
  JobViewSchema,
  SourceEntrySchema,
  SourceLineSchema,
  VideoFilterSchema,
  VideoRowSchema,
  type CommandSchemas,
} from './values';

/** Making, finding, naming, deleting and showing jobs and their videos. */
export const jobCommands = {
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
  /**
   * Creates the draft's job, or finds the job with the same identity; `start` queues it. `started`
   * says what Start did: 'new' a job never started before (made now, or only previewed), 'continued'
   * one that had stopped, 'unchanged' one already queued or running, or finished (null without
   * `start`).
   */
  createJob: {
    input: z.object({
      draft: JobDraftSchema,
      start: z.boolean(),
      /**
       * Where the caller will write the job's ZIP (the CLI's --out), remembered with the job for
       * `jobs` to show in the command that continues it; nothing is ever written there by the app.
       */
      exportPath: z.string().min(1).max(4096).optional(),
    }),
    output: z.object({
      job: JobViewSchema,
      created: z.boolean(),
      started: z.enum(['new', 'continued', 'unchanged']).nullable(),
      rejected: z.array(SourceLineSchema),
    }),
  },
  /** Names the job (null: named after what it holds again). */
  renameJob: { input: JobRef.extend({ name: JobNameSchema.nullable() }), output: JobViewSchema },
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
} as const satisfies CommandSchemas;
