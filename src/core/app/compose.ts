import { rmSync } from 'node:fs';
import { join } from 'node:path';
import PQueue from 'p-queue';
import type { AddressInUse, EventName, EventPayload } from '../../shared/contract';
import { CONCURRENCY } from '../../shared/vocabulary';
import { realClock, type Clock } from '../api';
import {
  CreditLedger,
  Engine,
  KeepCurrent,
  UserSettings,
  type IndexingProgress,
  type Logger,
} from '../engine';
import {
  DATABASE_FILE,
  openDatabase,
  reportBackgroundFailure,
  storageFailure,
  type Database,
} from '../store';
import { plainWords, toAppError } from './errors';
import { EventHub } from './events';
import { exportsFolder } from './exports-folder';
import { forwardEngineFacts, watchOtherProcesses } from './facts-to-events';
import { createHandlers, type AppContext, type AppHandlers } from './handlers';
import { JobRunner } from './job-runner';
import type { KeyStore } from './keys';
import { inThisThread } from './search-export';
import { inWorkerThread } from './search-export-thread';
import { openSession } from './service';
import { SyncSchedule } from './sync-schedule';
import { SetupWaits, needsSetup } from './setup-waits';
import { NO_UPDATES, type Updates } from './updates';
import { toCreditView, toJobView, type JobHere, type JobPace } from './views';

export type Subscribe = <N extends EventName>(
  event: N,
  listener: (payload: EventPayload<N>) => void,
) => () => void;

export interface AppOptions {
  /** Holds the database; every face uses the same folder, so all see the same jobs. */
  dataDir: string;
  /** Where this face keeps the API key. */
  keys: KeyStore;
  /** The service's address given to this process (a flag, an environment variable). */
  serviceUrl?: string;
  /**
   * Whether an address saved in Settings is used (the desktop app, browser mode): once saved, it is
   * the one in use, and `serviceUrl` only until then. The CLI's address comes only from its flag and
   * environment (docs/product.md).
   */
  addressFromSettings?: boolean;
  /** How a user sets the service's address in this face, for the message when none is set. */
  missingServiceUrlHint?: string;
  /**
   * How a user gives a usable key in this face, after the key store's words for a missing one
   * (default: 'Enter it in Settings.'); '' when those words say it (the CLI's TRANSCRIPT_API_KEY).
   */
  missingKeyHint?: string;
  /** Run queued jobs in this process (the desktop app, browser mode); the CLI runs its own. */
  runner?: boolean;
  /**
   * Sync the jobs marked Keep current at start and then every "Sync every (hours)" while the app
   * runs, within Settings' "Daily credit limit" (the desktop app, browser mode).
   */
  keepCurrent?: boolean;
  /** Notice what other processes write to the database, to show it live. */
  watch?: boolean;
  /** Default: the real clock. */
  clock?: Clock;
  /** Per-request timeout in ms for the service client. Default 30 000. */
  requestTimeoutMs?: number;
  /** Default: console. */
  logger?: Logger;
  /**
   * Hears how far indexing the stored transcripts not indexed yet has come: after an upgrade that
   * indexes the library again, or after a process was killed before indexing what it stored. At
   * the start, then a batch at a time while the app runs.
   */
  onIndexing?: (progress: IndexingProgress) => void;
  /** The better-sqlite3 addon to load (the desktop app's build for Electron); default: the package's own. */
  nativeBinding?: string;
  /**
   * Opens the database (default: the store's openDatabase). The disk is injected as the clock is:
   * a test keeps the connection it opens, to fill its disk or make its folder read-only meanwhile.
   */
  openDatabase?: typeof openDatabase;
  /**
   * The built search-export-worker.js beside the face's bundle (SEARCH_EXPORT_WORKER_FILE): Export
   * results then runs on a worker thread, so that this thread keeps serving the faces (the desktop
   * app, browser mode). Without it, it runs on this thread, a few transcripts per turn of the event
   * loop: the one-shot CLI, and the sources under test, where no built worker exists.
   */
  searchExportWorker?: string;
  /**
   * The app's updater (the desktop app's, src/main/updates), which the updates commands answer
   * from; without it they say this copy does not update itself.
   */
  updates?: Updates;
}

/** The application: the contract's handlers and events over one database; what every face holds. */
export interface ScriptoriumApp {
  handlers: AppHandlers;
  on: Subscribe;
  /**
   * A file written for download (exportJob or exportSearchResults without a destination), for browser
   * mode to serve; a ZIP unless `contentType` says otherwise.
   */
  download(exportId: string): { path: string; fileName: string; contentType?: string } | undefined;
  /**
   * Settles when every stored transcript is indexed for search, or the app closed first (the rest
   * is indexed at the next start). At once, unless an upgrade or a killed process left some.
   */
  libraryIndexed: Promise<void>;
  /** Stops taking jobs, lets a running one drain (it continues at the next start), closes the database. */
  close(): Promise<void>;
}

const HOUR_MS = 60 * 60_000;

/** Enough keep-alive connections for the most requests a job may have in flight, and its list pages. */
const CONNECTIONS = CONCURRENCY.max + 2;

/** What the app's parts share while it runs: started with it, read by the context's hooks. */
interface Running {
  paces: Map<number, JobPace>;
  waits: SetupWaits;
  runner?: JobRunner;
  schedule?: SyncSchedule;
  /** Set by close(): no new turn starts. */
  closing: boolean;
}

/** The database with the engine and the services beside it (DESIGN.md, "Who reads and who writes"). */
interface Core {
  db: Database;
  engine: Engine;
  keepCurrent: KeepCurrent;
  ledger: CreditLedger;
  settings: UserSettings;
}

/** Opens the database, recovers what a stopped process left, and wires the engine to the faces. */
export function openApp(options: AppOptions): ScriptoriumApp {
  const clock = options.clock ?? realClock;
  const logger = options.logger ?? console;
  const core = openCore(options, clock, logger);
  const running: Running = { paces: new Map(), waits: new SetupWaits(), closing: false };
  const ctx = appContext(options, core, running, clock, logger);
  const handlers = createHandlers(ctx);

  forwardEngineFacts(core.engine, ctx.events, running.paces, () => core.settings.read().billingUrl);
  const stopUpdateEvents = ctx.updates.onChange((status) => ctx.events.emit('updateChanged', status));
  const watcher = options.watch
    ? watchOtherProcesses(ctx, clock, running.paces, () => running.runner?.wake())
    : undefined;
  // The runner's jobs and the schedule's syncs take turns: one job at a time runs here (DESIGN.md).
  const turns = new PQueue({ concurrency: 1 });
  const inTurn = (work: () => Promise<void>): Promise<void> =>
    turns.add(async () => {
      if (!running.closing) await work();
    });
  if (options.runner) running.runner = startRunner(ctx, handlers, running, inTurn, { clock, logger });
  if (options.keepCurrent)
    running.schedule = startSchedule(ctx, handlers, running, inTurn, { clock, logger });
  const libraryIndexed = indexLibrary(ctx, running, options.onIndexing);

  return {
    handlers,
    on: (event, listener) => ctx.events.on(event, listener),
    download: (exportId) => ctx.downloads.get(exportId),
    libraryIndexed,
    async close() {
      running.closing = true;
      // Cancelled at once, before any wait: an Export results still writing leaves no file.
      const searchExports = [...ctx.searchExports.values()].map((underWay) => {
        underWay.cancel();
        return underWay.settled;
      });
      watcher?.stop();
      const stopped = Promise.all([running.runner?.stop(), running.schedule?.stop()]);
      await core.engine.shutdown();
      await stopped;
      for (const controllers of ctx.exporting.values())
        for (const controller of controllers) controller.abort();
      await Promise.all(searchExports);
      stopUpdateEvents();
      ctx.events.dispose();
      core.db.close();
    },
  };
}

/** The database, recovered, with the engine and the services beside it; a locked database is said plainly. */
function openCore(options: AppOptions, clock: Clock, logger: Logger): Core {
  const open = options.openDatabase ?? openDatabase;
  const db = open(join(options.dataDir, DATABASE_FILE), { nativeBinding: options.nativeBinding });
  const engine = new Engine({ db, clock, logger });
  try {
    engine.recover();
  } catch (error) {
    // The first write: another program may hold the database locked.
    db.close();
    throw storageFailure(error, options.dataDir) ?? error;
  }
  // Downloads live as long as the process that offered them.
  rmSync(exportsFolder(options.dataDir), { recursive: true, force: true });
  return {
    db,
    engine,
    keepCurrent: new KeepCurrent({ db, clock }),
    ledger: new CreditLedger({ db, clock }),
    settings: new UserSettings({ db }),
  };
}

/** The context every domain's handlers share, its hooks reaching the parts `running` holds. */
function appContext(
  options: AppOptions,
  core: Core,
  running: Running,
  clock: Clock,
  logger: Logger,
): AppContext {
  const { engine } = core;
  const { waits } = running;
  const here = (jobId: number): JobHere => {
    const at = running.schedule?.nextSyncAt(jobId);
    return {
      pace: running.paces.get(jobId) ?? { ratePerSecond: 0, etaSeconds: null },
      nextSyncAt: at === undefined ? null : new Date(at).toISOString(),
      waitingFor: waits.runWaitingFor(jobId),
      syncProblem: waits.syncProblem(jobId),
    };
  };
  const events = new EventHub({
    clock,
    logger,
    jobView: (jobId) => {
      const job = engine.job(jobId);
      return job === undefined ? undefined : toJobView(job, here(jobId));
    },
    credits: () => toCreditView(core.ledger.status()),
  });
  const addressInUse = (): AddressInUse => {
    const saved = options.addressFromSettings ? core.settings.read().serviceUrl : null;
    if (saved !== null) return { url: saved, from: 'settings' };
    return options.serviceUrl === undefined
      ? { url: null, from: null }
      : { url: options.serviceUrl, from: 'startup' };
  };
  const serviceUrl = (): string | undefined => addressInUse().url ?? undefined;
  return {
    ...core,
    events,
    keys: options.keys,
    dataDir: options.dataDir,
    serviceUrl,
    addressInUse,
    openSession: () =>
      openSession({
        keys: options.keys,
        serviceUrl: serviceUrl(),
        missingServiceUrlHint: options.missingServiceUrlHint ?? 'enter it in Settings.',
        missingKeyHint: options.missingKeyHint ?? 'Enter it in Settings.',
        clock,
        ...(options.requestTimeoutMs !== undefined && { requestTimeoutMs: options.requestTimeoutMs }),
        connections: CONNECTIONS,
      }),
    wakeRunner: () => running.runner?.wake(),
    here,
    rescheduleSyncs: () => running.schedule?.reschedule(),
    setupChanged: () => {
      // What waited for a key or an address runs now: the runner takes the jobs, the schedule the syncs.
      const released = waits.release();
      for (const jobId of [...released.runs, ...released.syncs]) events.jobTouched(jobId);
      running.runner?.wake();
      running.schedule?.syncSoon(released.syncs);
    },
    downloads: new Map(),
    exporting: new Map(),
    searchExport:
      options.searchExportWorker === undefined
        ? inThisThread(core.db)
        : inWorkerThread({
            workerFile: options.searchExportWorker,
            databaseFile: core.db.name,
            ...(options.nativeBinding !== undefined && { nativeBinding: options.nativeBinding }),
          }),
    searchExports: new Map(),
    updates: options.updates ?? NO_UPDATES,
    indexing: null,
  };
}

type InTurn = (work: () => Promise<void>) => Promise<void>;

/** Runs the jobs queued here, one at a time, in turn with the automatic syncs. */
function startRunner(
  ctx: AppContext,
  handlers: AppHandlers,
  running: Running,
  inTurn: InTurn,
  { clock, logger }: { clock: Clock; logger: Logger },
): JobRunner {
  const { waits } = running;
  return new JobRunner({
    // A job waiting for a key or an address is tried again once the user gives it (setupChanged).
    queued: () => ctx.engine.queuedJobIds().filter((jobId) => waits.runWaitingFor(jobId) === null),
    logger,
    clock,
    run: (jobId) =>
      inTurn(async () => {
        try {
          await handlers.runJob({ jobId });
        } catch (error) {
          const failure = toAppError(error);
          if (needsSetup(failure)) {
            // It stays queued, to run as soon as it can: it says what it waits for.
            waits.runWaits(jobId, failure.message);
            ctx.events.jobTouched(jobId);
          } else if (failure.code !== 'job_busy') throw error;
        }
      }),
  });
}

/** Syncs the jobs marked Keep current at start, then every "Sync every (hours)", in turn with the runner. */
function startSchedule(
  ctx: AppContext,
  handlers: AppHandlers,
  running: Running,
  inTurn: InTurn,
  { clock, logger }: { clock: Clock; logger: Logger },
): SyncSchedule {
  const { waits } = running;
  return new SyncSchedule({
    marked: () => ctx.keepCurrent.keptJobIds(),
    sync: (jobId) =>
      inTurn(async () => {
        const { dailyCreditLimit } = ctx.settings.read().keepCurrent;
        try {
          const result = await handlers.autoSyncJob({ jobId, dailyLimit: dailyCreditLimit });
          waits.syncRan(jobId);
          if (result.autoExport?.ok === false)
            logger.warn(
              `Job ${jobId} was synced, but its automatic export failed: ${result.autoExport.message}`,
            );
        } catch (error) {
          // Said on the job and in one line; a stack trace only for a bug.
          const failure = toAppError(error);
          waits.syncFailed(jobId, { why: failure.message, waitsForSetup: needsSetup(failure) });
          const what = `The automatic sync of job ${jobId} could not run`;
          reportBackgroundFailure(logger, what, error, plainWords(error));
        } finally {
          ctx.events.jobTouched(jobId);
        }
      }),
    intervalMs: () => ctx.settings.read().keepCurrent.syncEveryHours * HOUR_MS,
    onScheduled: () => ctx.keepCurrent.keptJobIds().forEach((jobId) => ctx.events.jobTouched(jobId)),
    clock,
    logger,
  });
}

/** Indexes for search the stored transcripts not indexed yet; settles when done, or when the app closes. */
function indexLibrary(
  ctx: AppContext,
  running: Running,
  onIndexing: AppOptions['onIndexing'],
): Promise<void> {
  return ctx.engine.library
    .catchUp({
      stopped: () => running.closing,
      onProgress: (progress) => {
        ctx.indexing = progress;
        ctx.events.emit('libraryIndexing', progress);
        onIndexing?.(progress);
      },
    })
    .finally(() => {
      // Stopped or failed before the end: the next start carries on, and says so then.
      if (ctx.indexing !== null && ctx.indexing.done < ctx.indexing.total) ctx.indexing = null;
    });
}
