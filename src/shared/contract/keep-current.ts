import { z } from 'zod';
import { DAILY_CREDIT_LIMIT, SYNC_EVERY_HOURS } from '../vocabulary';
import { RunOutcomeSchema } from './runs';
import { JobRef, JobViewSchema, type CommandSchemas } from './values';

/** What all automatic syncs may spend together in a day, in credits (src/shared/vocabulary.ts). */
export const DailyCreditLimitSchema = z
  .number()
  .int()
  .min(DAILY_CREDIT_LIMIT.min)
  .max(DAILY_CREDIT_LIMIT.max);

/** Settings' "Sync every (hours)" and "Daily credit limit" (null: none), for jobs marked Keep current. */
export const KeepCurrentSettingsSchema = z.object({
  syncEveryHours: z.number().int().min(SYNC_EVERY_HOURS.min).max(SYNC_EVERY_HOURS.max),
  dailyCreditLimit: DailyCreditLimitSchema.nullable(),
});

/** Keeping jobs current by themselves: which, where each is written after a sync, and one sync. */
export const keepCurrentCommands = {
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
} as const satisfies CommandSchemas;

export type KeepCurrentSettings = z.infer<typeof KeepCurrentSettingsSchema>;
