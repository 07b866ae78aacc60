import { z } from 'zod';
import { CitationSchema } from '../citation';
import { ExportFormatSchema, JobRef, type CommandSchemas } from './values';

/** Writing a job's corpus. */
export const exportCommands = {
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
} as const satisfies CommandSchemas;
