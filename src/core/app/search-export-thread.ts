import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { ConcordanceOptionsSchema } from '../../shared/contract';
import { ERROR_CODES } from '../../shared/errors';
import { AppError, toAppError } from './errors';
import type { SearchExportWriter } from './search-export';

/**
 * The name of the built worker (search-export-worker.ts), which both builds write beside the bundle
 * of each face (electron.vite.config.ts, vite.cli.config.ts); a face finds it beside itself.
 */
export const SEARCH_EXPORT_WORKER_FILE = 'search-export-worker.js';

/** What the worker is given: its database, and the export to write. */
export const WorkerInput = z.object({
  databaseFile: z.string(),
  /** The better-sqlite3 addon the app loads (the packaged desktop app's), when not the package's own. */
  nativeBinding: z.string().optional(),
  request: z.object({
    search: z.object({
      query: z.string(),
      jobId: z.number().int().nullish(),
      language: z.string().nullish(),
      channel: z.string().nullish(),
    }),
    limit: z.number().int().nullable(),
    concordance: ConcordanceOptionsSchema.nullable(),
  }),
  file: z.string(),
});
export type WorkerInput = z.infer<typeof WorkerInput>;

/** What the worker tells: how far it has come, then that the file is written, or the error that stopped it. */
export const WorkerMessage = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('progress'), done: z.number().int(), total: z.number().int() }),
  z.object({
    kind: z.literal('written'),
    bytes: z.number().int(),
    rows: z.number().int(),
    threadId: z.number().int(),
  }),
  z.object({ kind: z.literal('refused'), code: z.enum(ERROR_CODES), message: z.string() }),
]);
export type WorkerMessage = z.infer<typeof WorkerMessage>;

/** Where the built worker is (a face gives it to openApp), and the database it reads. */
export interface SearchExportThread {
  /** The built search-export-worker.js, beside the face's bundle. */
  workerFile: string;
  databaseFile: string;
  nativeBinding?: string;
}

/**
 * Writes each Export results on a worker thread of its own, with its own read-only connection, so
 * that the search and the reading of every matching transcript (seconds for a frequent word) never
 * hold up the thread that serves every face. Its progress comes back as messages; a cancel ends the
 * thread, and the export fails only once the thread has ended, so that nothing writes the file after
 * the caller has removed it.
 */
export function inWorkerThread(thread: SearchExportThread): SearchExportWriter {
  return (request, file, { onProgress, signal }) =>
    new Promise((resolve, reject) => {
      const input: WorkerInput = {
        databaseFile: thread.databaseFile,
        ...(thread.nativeBinding !== undefined && { nativeBinding: thread.nativeBinding }),
        request,
        file,
      };
      const worker = new Worker(thread.workerFile, { workerData: input });
      let settled = false;
      const settle = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', cancel);
        outcome();
      };
      // The thread's exit then settles: a cancel is told only once nothing can write any more.
      const cancel = (): void => void worker.terminate();
      signal.addEventListener('abort', cancel, { once: true });
      worker.on('message', (raw: unknown) => {
        const message = WorkerMessage.safeParse(raw);
        if (!message.success) {
          void worker.terminate();
          settle(() =>
            reject(toAppError(new Error('the thread writing the CSV answered something unknown'))),
          );
        } else if (message.data.kind === 'progress') {
          if (!signal.aborted) onProgress(message.data);
        } else if (message.data.kind === 'written') {
          const { bytes, rows, threadId } = message.data;
          settle(() => resolve({ bytes, rows, threadId }));
        } else {
          const { code, message: text } = message.data;
          settle(() => reject(new AppError(code, text)));
        }
      });
      worker.on('error', (error) => settle(() => reject(toAppError(error))));
      worker.on('exit', (code) =>
        settle(() =>
          reject(
            signal.aborted
              ? signal.reason
              : toAppError(new Error(`the thread writing the CSV stopped (exit code ${code})`)),
          ),
        ),
      );
    });
}
