import { join } from 'node:path';
import type {
  CommandInput,
  CommandName,
  CommandOutput,
  CreditView,
  EventName,
  EventPayload,
  JobView,
} from '../shared/contract';
import { APP_NAME, APP_VERSION, USER_AGENT } from '../shared/version';
import { createClient, Pacer, realClock, type Clock } from './api';
import {
  Engine,
  type CreditStatus,
  type EngineEvents,
  type JobSpec,
  type JobSummary,
  type RunOutcome,
  type RunSettings,
} from './engine';
import { corpusInput, type CorpusOptions } from './export-mapping';
import { writeCorpus, type ExportOptions, type ExportResult } from './export';
import { DATABASE_FILE, openDatabase } from './store';

/** One handler per contract command: what every face dispatches into. */
export type AppHandlers = { [N in CommandName]: (input: CommandInput<N>) => Promise<CommandOutput<N>> };

export type Subscribe = <N extends EventName>(
  event: N,
  listener: (payload: EventPayload<N>) => void,
) => () => void;

/** Where and as whom to reach the Transcript Service. */
export interface Connection {
  baseUrl: string;
  apiKey: string;
}

export interface AppOptions {
  /** Holds the database; both faces use the same folder so they see the same jobs. */
  dataDir: string;
  /** Default: the real clock. */
  clock?: Clock;
  /** Per-request timeout in ms for the service client. Default 30 000. */
  requestTimeoutMs?: number;
}

/**
 * The application service: the contract's handlers and the few operations the CLI needs,
 * implemented over the store, the engine and the export. Faces call only this.
 */
export interface ScriptoriumApp {
  handlers: AppHandlers;
  on: Subscribe;
  findOrCreateJob(spec: JobSpec): { job: JobSummary; created: boolean };
  estimate(jobId: number): ReturnType<Engine['estimate']>;
  runJob(jobId: number, connection: Connection, settings?: RunSettings): Promise<RunOutcome>;
  retryFailed(jobId: number): void;
  exportJob(
    jobId: number,
    outPath: string,
    options: CorpusOptions,
    exportOptions?: ExportOptions,
  ): Promise<ExportResult>;
  /** Waits between attempts of a request, as they happen. */
  onWait(listener: (wait: EngineEvents['wait']) => void): () => void;
  job(jobId: number): JobSummary | undefined;
  listJobs(): JobSummary[];
  creditStatus(): CreditStatus;
  close(): void;
}

export function openApp(options: AppOptions): ScriptoriumApp {
  const clock = options.clock ?? realClock;
  const db = openDatabase(join(options.dataDir, DATABASE_FILE));
  const engine = new Engine({ db, clock });
  engine.recover();

  // Contract events are engine events with the same payloads (Snapshot is the engine's JobSnapshot).
  const on: Subscribe = (event, listener) =>
    engine.on(event, listener as (payload: EngineEvents[typeof event]) => void);

  const requireJob = (jobId: number): JobSummary => {
    const job = engine.job(jobId);
    if (!job) throw new Error(`There is no job ${jobId}.`);
    return job;
  };

  const handlers: AppHandlers = {
    listJobs: async () => engine.listJobs().map(toJobView),
    creditStatus: async () => toCreditView(engine.creditStatus()),
    setBalance: async ({ credits }) => {
      engine.setBalance(credits);
      return toCreditView(engine.creditStatus());
    },
    // Each operation throws JobNotFoundError ("There is no job N.") for an unknown id.
    pauseJob: async ({ jobId }) => {
      engine.pause(jobId);
      return null;
    },
    resumeJob: async ({ jobId }) => {
      engine.resume(jobId);
      return null;
    },
    cancelJob: async ({ jobId }) => {
      engine.cancel(jobId);
      return null;
    },
    retryFailed: async ({ jobId }) => {
      engine.retryFailed(jobId);
      return null;
    },
    deleteJob: async ({ jobId }) => {
      engine.deleteJob(jobId);
      return null;
    },
  };

  return {
    handlers,
    on,
    findOrCreateJob: (spec) => engine.findOrCreateJob(spec),
    estimate: (jobId) => engine.estimate(jobId),
    async runJob(jobId, connection, settings = {}) {
      const pacer = new Pacer({ clock });
      const client = createClient({
        baseUrl: connection.baseUrl,
        apiKey: connection.apiKey,
        userAgent: USER_AGENT,
        clock,
        ...(options.requestTimeoutMs !== undefined && { timeoutMs: options.requestTimeoutMs }),
        connections: Math.max(4, settings.concurrency ?? 4),
        onRateLimit: (signal) => pacer.observe(signal),
      });
      try {
        return await engine.run(jobId, { ...settings, client, pacer });
      } finally {
        await client.close();
      }
    },
    retryFailed: (jobId) => engine.retryFailed(jobId),
    exportJob: (jobId, outPath, corpusOptions, exportOptions) =>
      writeCorpus(
        corpusInput(requireJob(jobId), () => engine.exportRows(jobId), corpusOptions, {
          name: APP_NAME,
          version: APP_VERSION,
        }),
        outPath,
        exportOptions,
      ),
    onWait: (listener) => engine.on('wait', listener),
    job: (jobId) => engine.job(jobId),
    listJobs: () => engine.listJobs(),
    creditStatus: () => engine.creditStatus(),
    close: () => db.close(),
  };
}

function toJobView(job: JobSummary): JobView {
  return {
    id: job.id,
    status: job.status,
    sources: job.sources.map((source) => source.input),
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
    counts: job.counts,
    creditsSpent: job.creditsSpent,
    stopReason: job.stopMessage ?? job.stopReason,
  };
}

function toCreditView(status: CreditStatus): CreditView {
  return {
    today: status.today,
    total: status.total,
    possible: status.possible,
    last402: status.last402 ?? null,
    balance: status.balance ?? null,
    estimatedRemaining: status.estimatedRemaining ?? null,
  };
}
