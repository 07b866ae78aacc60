import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type {
  AddressInUse,
  CommandInput,
  CommandName,
  CommandOutput,
  JobDraft,
  Settings,
  SourceLine,
} from '../../shared/contract';
import { toCitation, type Citation } from '../../shared/citation';
import { checkFilters } from '../../shared/filters';
import { describeKeyRefusal } from '../../shared/errors';
import { corpusFileName } from '../../shared/job-name';
import { parseLangPreference } from '../../shared/limits';
import { checkServiceAddress } from '../../shared/service-access';
import { checkSources } from '../../shared/sources';
import { APP_NAME, APP_VERSION } from '../../shared/version';
import { JOB_STATUS, STOP_REASON } from '../../shared/vocabulary';
import { isApiError, refusesTheKey, type Pacer, type TranscriptClient } from '../api';
import type { Engine, IndexingProgress, JobSpec, JobSummary, RunOutcome, RunSettings } from '../engine';
import { writeCorpus } from '../export';
import type { Database } from '../store';
import { videoPage } from '../store/video-pages';
import { corpusInput } from './corpus';
import { AppError } from './errors';
import { exportsFolder } from './exports-folder';
import { describeFailures } from './failure-reasons';
import type { EventHub } from './events';
import { syncAutomatically, type SyncResult } from './keep-current';
import { libraryJobDraft } from './library-export';
import { libraryHandlers } from './library-handlers';
import { offlineClient } from './offline-client';
import { assertSendableKey, keyStatusFor, type KeyStore } from './keys';
import type { SearchExportWriter } from './search-export';
import type { ServiceSession } from './service';
import { readSettings, writeSettings } from './settings';
import {
  jobTitle,
  toCreditView,
  toJobDetail,
  toJobView,
  toOutcomeView,
  toSourceLines,
  type JobHere,
} from './views';

/** One handler per contract command: what every face dispatches into. */
export type AppHandlers = { [N in CommandName]: (input: CommandInput<N>) => Promise<CommandOutput<N>> };

/** What the handlers work with; built once by openApp (compose.ts). */
export interface AppContext {
  db: Database;
  engine: Engine;
  events: EventHub;
  keys: KeyStore;
  dataDir: string;
  /** The service's address in force; undefined when none is set. */
  serviceUrl(): string | undefined;
  /** The same, with where it comes from. */
  addressInUse(): AddressInUse;
  /** Opens a client on the service with the key and address in force; throws AppError when one is missing. */
  openSession(): ServiceSession;
  /** Jobs queued here are run by this process's runner, when it has one. */
  wakeRunner(): void;
  /** What this process knows of the job beyond the database: its pace, its next sync, what it waits for. */
  here(jobId: number): JobHere;
  /** Settings' "Sync every (hours)" may have changed: the schedule measures its wait again. */
  rescheduleSyncs(): void;
  /** The key or the service address changed: what waited for them runs now. */
  setupChanged(): void;
  /** Exports written for download (browser mode), by id; a ZIP unless `contentType` says otherwise. */
  downloads: Map<string, { path: string; fileName: string; contentType?: string }>;
  /** Exports under way, by job, so that an interrupt can stop them. */
  exporting: Map<number, Set<AbortController>>;
  /** Writes Export results: on a worker thread, or on this one (openApp's options choose). */
  searchExport: SearchExportWriter;
  /** Export results under way, by export id, so that the user or the app closing can cancel them. */
  searchExports: Map<string, { cancel(): void; settled: Promise<unknown> }>;
  /**
   * How far indexing stored transcripts for search has come in this process (after an upgrade): its
   * last progress, `done` equal to `total` once finished; null when there was nothing to index.
   */
  indexing: IndexingProgress | null;
}

/** A free, harmless question for testConnection: resolving a channel id needs the key and costs nothing. */
const PROBE_CHANNEL_ID = 'UCBR8-60-B28hp2BmDPdntcQ';

export function createHandlers(ctx: AppContext): AppHandlers {
  const { engine, events } = ctx;

  const summary = (jobId: number): JobSummary => {
    const job = engine.job(jobId);
    if (job === undefined) throw new AppError('job_not_found', `There is no job ${jobId}.`);
    return job;
  };
  const view = (jobId: number) => toJobView(summary(jobId), ctx.here(jobId));
  const detail = (jobId: number) =>
    toJobDetail(summary(jobId), view(jobId), engine.estimate(jobId), {
      ...engine.history(jobId),
      failures: describeFailures(engine.failures(jobId)),
    });

  /** Finds or creates the draft's job with its run settings; returns it with the lines refused. */
  const jobFor = (draft: JobDraft): { job: JobSummary; created: boolean; rejected: SourceLine[] } => {
    const { spec, rejected } = specOf(draft);
    const { job, created } = engine.findOrCreateJob(spec, {
      concurrency: draft.concurrency,
      formats: draft.formats,
      budget: draft.budget,
      ...(draft.chunking !== undefined && { chunking: draft.chunking }),
      ...(draft.name !== undefined && { name: draft.name }),
    });
    events.jobTouched(job.id);
    return { job, created, rejected };
  };

  /** Tells the faces that `reset` videos of the job are pending again. */
  const requeued = (jobId: number, reset: number) => {
    events.jobTouched(jobId);
    events.videosTouched(jobId, reset);
    return { job: view(jobId), reset };
  };

  /** Runs `work` with a fresh session on the service; the job is told about when it ends. */
  const withSession = async <T>(
    jobId: number,
    work: (settings: { client: TranscriptClient; pacer: Pacer }) => Promise<T>,
  ): Promise<T> => {
    const session = ctx.openSession();
    try {
      return await work({ client: session.client, pacer: session.pacer });
    } finally {
      events.jobTouched(jobId);
      await session.close();
    }
  };

  /** Syncs a job here and tells the faces what it found; 'busy' (another process runs it) is an error. */
  const syncHere = async (
    jobId: number,
    how: Pick<RunSettings, 'automatic' | 'cap'> = {},
  ): Promise<SyncResult> => {
    const synced = await withSession(jobId, (settings) => engine.sync(jobId, { ...settings, ...how }));
    const { outcome, newVideos, pages, credits } = synced;
    if (outcome.status === 'busy') throw new AppError('job_busy', outcome.message);
    const job = view(jobId);
    const completed = outcome.status === JOB_STATUS.completed;
    events.emit('jobSynced', {
      jobId,
      title: job.title,
      automatic: how.automatic ?? false,
      newVideos,
      credits,
      completed,
      stopMessage: completed ? null : (job.stop?.message ?? null),
    });
    return { outcome: toOutcomeView(outcome), newVideos, pages, credits };
  };

  /** Runs a job here; 'busy' (another process runs it) is an error. */
  const runHere = async (jobId: number, mode: 'run' | 'preview') => {
    const outcome = await withSession(jobId, (settings) =>
      mode === 'run' ? engine.run(jobId, settings) : engine.preview(jobId, settings),
    );
    if (outcome.status === 'busy') throw new AppError('job_busy', outcome.message);
    return outcome;
  };

  // autoSyncJob exports through the exportJob command itself.
  const handlers: AppHandlers = {
    validateSources: async ({ sources }) => ({ lines: toSourceLines(sources, checkSources(sources)) }),

    previewJob: async ({ draft }) => {
      // Nothing is made for a preview that cannot run: a missing key or address is said first.
      await ctx.openSession().close();
      const { job, created, rejected } = jobFor(draft);
      const outcome = await runHere(job.id, 'preview');
      if (outcome.status === JOB_STATUS.failed && created && summary(job.id).creditsSpent === 0) {
        // The key was refused before anything was bought: the job this preview made goes again.
        engine.deleteJob(job.id);
        events.jobRemoved(job.id);
      }
      if (outcome.status !== 'walked') throwIfStoppedForGood(outcome);
      return { detail: detail(job.id), rejected, uncertainDates: engine.uncertainDates(job.id) };
    },

    findJob: async ({ draft }) => {
      const found = engine.findJob(specOf(draft).spec);
      return { job: found === undefined ? null : view(found.id) };
    },

    createJob: async ({ draft, start }) => {
      const { job, created, rejected } = jobFor(draft);
      if (start) {
        engine.resume(job.id);
        ctx.wakeRunner();
      }
      return { job: view(job.id), created, rejected };
    },

    startJob: async ({ jobId }) => {
      engine.resume(jobId);
      ctx.wakeRunner();
      return view(jobId);
    },

    runJob: async ({ jobId }) => {
      summary(jobId);
      const outcome = await runHere(jobId, 'run');
      if (outcome.status === 'walked') throw new Error(`job ${jobId} was previewed instead of run`);
      return { job: view(jobId), outcome: toOutcomeView(outcome) };
    },

    syncJob: async ({ jobId }) => {
      const synced = await syncHere(jobId);
      return { job: view(jobId), ...synced };
    },

    setKeepCurrent: async ({ jobId, on }) => {
      engine.setKeepCurrent(jobId, on);
      events.jobTouched(jobId);
      return view(jobId);
    },

    setAutoExport: async ({ jobId, destination }) => {
      engine.setAutoExportPath(jobId, destination);
      events.jobTouched(jobId);
      return view(jobId);
    },

    autoSyncJob: async ({ jobId, dailyLimit }) =>
      syncAutomatically(
        { engine, view, sync: syncHere, exportJob: (input) => handlers.exportJob(input) },
        jobId,
        dailyLimit,
      ),

    pauseJob: async ({ jobId, force, interrupted }) => {
      engine.pause(jobId, { force: force ?? false, interrupted: interrupted ?? false });
      for (const controller of ctx.exporting.get(jobId) ?? []) controller.abort();
      return view(jobId);
    },

    renameJob: async ({ jobId, name }) => {
      summary(jobId);
      engine.configure(jobId, { name });
      events.jobTouched(jobId);
      return view(jobId);
    },

    resumeJob: async ({ jobId }) => {
      engine.resume(jobId);
      ctx.wakeRunner();
      return view(jobId);
    },

    cancelJob: async ({ jobId }) => {
      engine.cancel(jobId);
      return view(jobId);
    },

    retryFailed: async ({ jobId }) => requeued(jobId, engine.retryFailed(jobId)),

    retryUnavailable: async ({ jobId }) => requeued(jobId, engine.retryUnavailable(jobId)),

    deleteJob: async ({ jobId }) => {
      engine.deleteJob(jobId);
      events.jobRemoved(jobId);
      events.creditsTouched();
      return null;
    },

    listJobs: async () => engine.listJobs().map((job) => toJobView(job, ctx.here(job.id))),

    jobDetail: async ({ jobId }) => detail(jobId),

    listVideos: async ({ jobId, offset, limit, status, search, source }) => {
      summary(jobId);
      const page = videoPage(ctx.db, jobId, { offset, limit, status, search, source: source ?? null });
      return { total: page.total, offset, rows: page.rows };
    },

    exportJob: async ({ jobId, formats, destination, citation: given }) => {
      // Given, the citation is kept with the job for its later exports; else its last one is used.
      if (given !== undefined) {
        engine.configure(jobId, { citation: toCitation(given) });
        events.jobTouched(jobId);
      }
      const job = summary(jobId);
      const citation = job.settings.citation ?? citationFromSettings(readSettings(ctx.db));
      const exportId = randomUUID();
      const fileName = corpusFileName(job.id, citation?.title ?? jobTitle(job));
      const path = destination ?? join(exportsFolder(ctx.dataDir), `${exportId}.zip`);
      const controller = new AbortController();
      const running = ctx.exporting.get(jobId) ?? new Set();
      ctx.exporting.set(jobId, running.add(controller));
      try {
        const input = corpusInput(
          job,
          () => engine.exportRows(jobId),
          { formats, ...(citation !== undefined && { citation }) },
          { name: APP_NAME, version: APP_VERSION },
          {
            ...engine.history(jobId),
            memberships: () => engine.exportMemberships(jobId),
            changes: (through) => engine.exportChanges(jobId, through),
            release: (release) => engine.releaseCorpus(jobId, release),
          },
        );
        const result = await writeCorpus(input, path, {
          signal: controller.signal,
          onProgress: ({ done, total }) => events.emit('exportProgress', { exportId, jobId, done, total }),
        });
        if (destination === null) ctx.downloads.set(exportId, { path: result.path, fileName });
        else engine.configure(jobId, { exportPath: result.path });
        return {
          exportId,
          jobId,
          fileName,
          path: destination === null ? null : result.path,
          bytes: result.bytes,
          complete: input.manifest.complete,
          copied: result.copied,
          written: result.written,
        };
      } finally {
        running.delete(controller);
      }
    },

    ...libraryHandlers(ctx),

    createJobFromSearch: async (search) => {
      const { draft, videos, leftOut } = libraryJobDraft(ctx.db, search, readSettings(ctx.db).defaults);
      const { job } = jobFor(draft);
      // Answered from the cache: a client that sends nothing, and the job's budget of 0.
      await engine.run(job.id, { client: offlineClient() });
      events.jobTouched(job.id);
      events.videosTouched(job.id, videos);
      return { job: view(job.id), videos, leftOut };
    },

    creditStatus: async () => toCreditView(engine.creditStatus()),

    setBalance: async ({ credits }) => {
      engine.setBalance(credits);
      events.creditsTouched();
      return toCreditView(engine.creditStatus());
    },

    getSettings: async () => readSettings(ctx.db),

    updateSettings: async (change) => {
      const addressProblem = change.serviceUrl ? checkServiceAddress(change.serviceUrl) : null;
      if (addressProblem !== null)
        throw new AppError('invalid_input', `${addressProblem} Nothing was saved.`);
      const settings = writeSettings(ctx.db, change);
      if (change.keepCurrent !== undefined) ctx.rescheduleSyncs();
      if (change.serviceUrl !== undefined) ctx.setupChanged();
      return settings;
    },

    keyStatus: async () => keyStatusFor(ctx.keys, ctx.serviceUrl()),

    setKey: async ({ key }) => {
      assertSendableKey(key);
      const serviceUrl = ctx.serviceUrl();
      if (serviceUrl === undefined) {
        throw new AppError(
          'invalid_input',
          'Set the service address first (Service, then Test connection): the key is only ever sent to the address it is saved with.',
        );
      }
      ctx.keys.save(key, serviceUrl);
      ctx.setupChanged();
      return keyStatusFor(ctx.keys, serviceUrl);
    },

    removeKey: async () => ctx.keys.remove(),

    addressInUse: async () => ctx.addressInUse(),

    checkService: async () => {
      await ctx.openSession().close();
      return null;
    },

    testConnection: async () => {
      let session: ServiceSession;
      try {
        session = ctx.openSession();
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
      try {
        await session.client.channelResolve(PROBE_CHANNEL_ID, AbortSignal.timeout(15_000));
        return { ok: true, message: `Connected to ${session.host}: the service accepted the key.` };
      } catch (error) {
        return { ok: false, message: describeConnectionFailure(error) };
      } finally {
        await session.close();
      }
    },
  };
  return handlers;
}

/** The job a draft describes; throws AppError when nothing in it can run. */
function specOf(draft: JobDraft): { spec: JobSpec; rejected: SourceLine[] } {
  const langs = parseLangPreference(draft.languages);
  if (!langs.ok) throw new AppError('invalid_input', `Languages "${draft.languages}": ${langs.reason}.`);
  const filtersProblem = draft.filters === undefined ? null : checkFilters(draft.filters);
  if (filtersProblem !== null) throw new AppError('invalid_input', `${filtersProblem}.`);
  const checked = checkSources(draft.sources);
  const rejected = toSourceLines(draft.sources, checked).filter((line) => line.kind === null);
  if (checked.valid.length === 0) {
    throw new AppError(
      'invalid_input',
      `No valid source remains (${rejected.length} refused), so nothing was sent. Fix the sources and try again.`,
    );
  }
  return {
    spec: {
      sources: checked.valid.map((entry) => entry.source),
      skipped: checked.invalid.map((entry) => ({
        input: entry.input,
        reason: `${entry.where}: ${entry.reason}`,
      })),
      options: {
        langs: langs.langs,
        includeTimestamp: draft.includeTimestamp,
        sendMetadata: draft.sendMetadata,
        ...(draft.maxVideos !== null && { maxVideos: draft.maxVideos }),
        ...(draft.filters !== undefined && { filters: draft.filters }),
      },
    },
    rejected,
  };
}

/** A preview that the service stopped (credits, key, availability) is an error; one the user stopped is not. */
function throwIfStoppedForGood(outcome: Exclude<RunOutcome, { status: 'busy' }>): void {
  switch (outcome.status) {
    case JOB_STATUS.waiting_credits:
      throw new AppError('credits_ran_out', `${outcome.meaning} (${outcome.code}).`);
    case JOB_STATUS.failed:
      throw new AppError('key_refused', `${describeKeyRefusal(outcome.httpStatus)}.`);
    case JOB_STATUS.paused:
      if (outcome.reason === STOP_REASON.service) throw new AppError('service_unavailable', outcome.message);
      if (outcome.reason === STOP_REASON.budget)
        throw new AppError('budget_reached', 'The budget is spent on list pages.');
      return;
    default:
      return;
  }
}

function describeConnectionFailure(error: unknown): string {
  if (!isApiError(error)) return error instanceof Error ? error.message : String(error);
  if (refusesTheKey(error.status)) {
    return `The service refused the key (HTTP ${error.status}): check it and save it again.`;
  }
  return error.message;
}

/** The authors and license Settings gives a job never exported with its own; undefined when none. */
function citationFromSettings(settings: Settings): Citation | undefined {
  const { authors, license } = settings.corpus;
  if (authors.length === 0 && license === null) return undefined;
  return toCitation({ authors, ...(license !== null && { license }) });
}
