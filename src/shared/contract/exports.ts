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
       * Title, description, authors and license, kept with the job for its later exports. A part
       * left out keeps the job's last one (else the default of Settings); null clears it (authors: []).
       */
      citation: CitationSchema.optional(),
      /**
       * A released version to write again, byte for byte as it was released (its own citation and
       * formats; `citation` is refused with it); left out, the corpus as the job is now.
       */
      version: z.number().int().positive().optional(),
    }),
    output: z.object({
      exportId: z.string(),
      jobId: z.number().int(),
      fileName: z.string(),
      /** Where it was written; null for a download. */
      path: z.string().nullable(),
      bytes: z.number().int(),
      /** Whether the job had run to its end (the manifest's job_finished): false, the ZIP holds what was bought so far. */
      jobFinished: z.boolean(),
      /**
       * The transcripts' files copied unchanged from the previous export at `destination`, and those
       * written afresh (the tables, datasheet and checksums, always written, are in neither).
       */
      copied: z.number().int(),
      written: z.number().int(),
      /**
       * What the corpus carries now that it did not before, one plain line per part of the citation
       * that this export changed ("License: CC0-1.0 (before: CC-BY-4.0)"); empty when none did.
       */
      citationChanges: z.array(z.string()),
    }),
  },
} as const satisfies CommandSchemas;
