import { z } from 'zod';
import type { CommandName, EventName } from './channels';

export { commandNames, eventNames, ipcChannel } from './channels';
export type { CommandName, EventName } from './channels';

/**
 * The app contract: every command a face may send and every event it may receive, with
 * schemas. Electron IPC (main/preload) and browser mode (web) are two generic transports of
 * this one object; adding a command means one entry here and one handler in core/app.ts.
 */

export const JobStatusSchema = z.enum([
  /** Created (and perhaps previewed: its lists walked) but not started. */
  'draft',
  'queued',
  'running',
  'paused',
  'waiting_credits',
  'completed',
  'failed',
  'cancelled',
]);

export const ItemCountsSchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  ok: z.number().int(),
  unavailable: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
});

export const JobViewSchema = z.object({
  id: z.number().int(),
  status: JobStatusSchema,
  sources: z.array(z.string()),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  counts: ItemCountsSchema,
  creditsSpent: z.number().int(),
  stopReason: z.string().nullable(),
});

export const CreditViewSchema = z.object({
  today: z.number().int(),
  total: z.number().int(),
  /** Of those counted, how many may or may not have been charged (requests never answered). */
  possible: z.number().int(),
  last402: z.object({ code: z.string(), meaning: z.string(), at: z.string() }).nullable(),
  balance: z.number().int().nullable(),
  estimatedRemaining: z.number().int().nullable(),
});

export const SnapshotSchema = z.object({
  jobId: z.number().int(),
  status: JobStatusSchema,
  counts: ItemCountsSchema,
  sourcesWalked: z.number().int(),
  sourcesTotal: z.number().int(),
  ratePerSecond: z.number(),
  etaSeconds: z.number().nullable(),
  creditsSpent: z.number().int(),
});

const JobRef = z.object({ jobId: z.number().int().positive() });

export const commands = {
  listJobs: { input: z.object({}), output: z.array(JobViewSchema) },
  creditStatus: { input: z.object({}), output: CreditViewSchema },
  setBalance: {
    input: z.object({ credits: z.number().int().nonnegative().nullable() }),
    output: CreditViewSchema,
  },
  pauseJob: { input: JobRef, output: z.null() },
  resumeJob: { input: JobRef, output: z.null() },
  cancelJob: { input: JobRef, output: z.null() },
  retryFailed: { input: JobRef, output: z.null() },
  deleteJob: { input: JobRef, output: z.null() },
} as const satisfies { [N in CommandName]: { input: z.ZodType; output: z.ZodType } };

export const events = {
  snapshot: SnapshotSchema,
} as const satisfies { [N in EventName]: z.ZodType };

export type CommandInput<N extends CommandName> = z.infer<(typeof commands)[N]['input']>;
export type CommandOutput<N extends CommandName> = z.infer<(typeof commands)[N]['output']>;
export type EventPayload<N extends EventName> = z.infer<(typeof events)[N]>;

/** What every face gets: one typed function per command, and event subscription. */
export type ScriptoriumApi = {
  [N in CommandName]: (input: CommandInput<N>) => Promise<CommandOutput<N>>;
} & {
  on<N extends EventName>(event: N, listener: (payload: EventPayload<N>) => void): () => void;
};

export type JobView = z.infer<typeof JobViewSchema>;
export type CreditView = z.infer<typeof CreditViewSchema>;
export type Snapshot = z.infer<typeof SnapshotSchema>;
