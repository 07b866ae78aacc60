import { z } from 'zod';
import type { ErrorCode } from '../../shared/errors';
import {
  CONCURRENCY,
  DAILY_LIMIT_STOP_CODE,
  JOB_STATUS,
  jobAllows,
  LIST_STATUS,
  STOP_REASON,
  SYNCED_SOURCE_KINDS,
  type JobAction,
  type StopReason,
} from '../../shared/vocabulary';
import {
  exportRowsOf,
  languagesOfJob,
  membershipRowsOf,
  type ExportRow,
  type MembershipRow,
} from '../store/export-rows';
import {
  countListingDates,
  failedByStatus,
  recoverFetchingItems,
  resetFailedItems,
  resetUnavailableItems,
  uncachedUnfinishedItems,
} from '../store/items';
import {
  allJobs,
  deleteJobRow,
  jobById,
  keptJobs,
  queuedJobs,
  setJobAutoExportPath,
  setJobBudget,
  setJobKeepCurrent,
  setJobSettings,
  setJobStatus,
  type JobRecord,
  type JobStatus,
} from '../store/jobs';
import { clearLease } from '../store/leases';
import { releaseClaimsOf } from '../store/claims';
import { itemCounts, skippedByFilter } from '../store/items';
import { automaticCreditsSince, creditsOfJob } from '../store/ledger';
import { finishSync, startSync, syncsOfJob, type SyncRecord } from '../store/syncs';
import { pagesOfJob, reopenFailedWalks, sourcesOfJob } from '../store/sources';
import {
  changesOf,
  recordRetries,
  releaseVersion,
  versionsOf,
  type ChangeRecord,
  type CorpusMetadata,
  type CorpusState,
  type VersionRecord,
} from '../store/versions';
import { creditStatusOf, setBalanceSetting, startOfLocalDay } from './credits';
import { TypedEmitter } from './emitter';
import { jobKey } from './identity';
import { findOrCreateJobRow, liveJobByKey, summarize } from './jobs';
import { JobLease, leaseIsFree, newLeaseOwner } from './lease';
import { LibraryIndexer } from './library-indexer';
import { completedOutcome, JobRun, unwalkedLists } from './run';
import { Selection } from './selection';
import {
  cacheLang,
  JobOptionsSchema,
  JobSettingsSchema,
  ORIGINAL_TRACK,
  parseJobSettings,
  parseJobSpec,
  type JobSettings,
} from './spec';
import type {
  CreditStatus,
  EngineDeps,
  EngineEvents,
  EstimateResult,
  JobSpec,
  JobSummary,
  Logger,
  PreviewOutcome,
  RunOutcome,
  RunSettings,
  SyncOutcome,
} from './types';

/** Thrown for a job id the database does not hold. */
export class JobNotFoundError extends Error {
  readonly code = 'job_not_found' satisfies ErrorCode;

  constructor(jobId: number) {
    super(`There is no job ${jobId}.`);
    this.name = 'JobNotFoundError';
  }
}

/** Thrown for a sync of a job that has not finished: running it again is what continues it. */
export class JobNotFinishedError extends Error {
  readonly code = 'invalid_input' satisfies ErrorCode;

  constructor(jobId: number) {
    super(`Job ${jobId} has not finished: continue it first (run it again), then bring it up to date.`);
    this.name = 'JobNotFinishedError';
  }
}

/**
 * Thrown for marking Keep current a job that has no playlist or channel (a sync would find nothing),
 * or a cancelled one (stopped for good).
 */
export class CannotKeepCurrentError extends Error {
  readonly code = 'invalid_input' satisfies ErrorCode;

  constructor(jobId: number, cancelled = false) {
    super(
      cancelled
        ? `Job ${jobId} is cancelled, so it cannot be kept current; its sources started again make a new job, which can be. Nothing was changed.`
        : `Job ${jobId} has no playlist or channel, so it cannot be kept current: only their new videos are synced. Nothing was changed.`,
    );
    this.name = 'CannotKeepCurrentError';
  }
}

/** Thrown for an operation that needs the job stopped (deleting it) while a process runs it. */
export class JobRunningError extends Error {
  readonly code = 'job_running' satisfies ErrorCode;

  constructor(jobId: number) {
    super(`Job ${jobId} is running: pause or cancel it before deleting it.`);
    this.name = 'JobRunningError';
  }
}

/** The numbers of RunSettings; the objects (signal, client, pacer) are passed through. */
const RunLimitsSchema = z.object({
  concurrency: z.number().int().min(CONCURRENCY.min).max(CONCURRENCY.max),
  budget: z.number().int().nonnegative().optional(),
});

/** What configure() changes of a job: any of its settings, and its budget (null: none). */
export type JobSettingsChange = Partial<JobSettings> & { budget?: number | null };

/**
 * The job engine: creates jobs, runs them against the Transcript Service and keeps every step
 * in the database, so that a job survives anything and never pays twice. Faces talk to it and
 * listen to its events; it knows nothing of them.
 */
export class Engine {
  readonly #deps: EngineDeps;
  readonly #emitter: TypedEmitter<EngineEvents>;
  readonly #runs = new Map<number, JobRun>();
  /** Jobs resumed while their run was still stopping: queued again once it has. */
  readonly #resumeWhenStopped = new Set<number>();
  /** Names this engine in the leases it takes, so other processes see who runs a job. */
  readonly #leaseOwner: string;
  readonly #logger: Logger;
  /** Indexes what the runs store for the Library; every run ends with what it stored indexed. */
  readonly library: LibraryIndexer;

  constructor(deps: EngineDeps) {
    this.#deps = deps;
    this.#leaseOwner = deps.leaseOwner ?? newLeaseOwner();
    this.#logger = deps.logger ?? console;
    this.library = new LibraryIndexer({ db: deps.db, clock: deps.clock, logger: this.#logger });
    this.#emitter = new TypedEmitter((event, error) =>
      this.#logger.warn(`A listener of the engine's ${event} event failed; the run goes on.`, error),
    );
  }

  /**
   * Finds the job with the same identity (to resume it) or creates it, then applies `settings` as
   * configure() does. A new job is announced once they are applied: a face that heard of it before
   * would show it for a moment without them (its name, say).
   */
  findOrCreateJob(spec: JobSpec, settings?: JobSettingsChange): { job: JobSummary; created: boolean } {
    const { jobId, created } = findOrCreateJobRow(this.#deps.db, parseJobSpec(spec), this.#now());
    if (settings !== undefined) this.configure(jobId, settings);
    if (created) this.#emitter.emit('job', { jobId, status: JOB_STATUS.draft });
    return { job: this.#summary(jobId), created };
  }

  /** The job with the spec's identity, if there is one; creates nothing. */
  findJob(spec: JobSpec): JobSummary | undefined {
    const existing = liveJobByKey(this.#deps.db, jobKey(parseJobSpec(spec)));
    return existing === undefined ? undefined : this.#summary(existing.id);
  }

  estimate(jobId: number): EstimateResult {
    const job = this.#record(jobId);
    const options = JobOptionsSchema.parse(JSON.parse(job.optionsJson));
    const unwalked = sourcesOfJob(this.#deps.db, jobId).filter(
      (source) => source.kind !== 'video' && source.walkStatus === LIST_STATUS.pending,
    ).length;
    const transcripts = uncachedUnfinishedItems(this.#deps.db, jobId, {
      requestedLang: cacheLang(options.langs[0] ?? ORIGINAL_TRACK),
      includeTimestamp: options.includeTimestamp,
      sendMetadata: options.sendMetadata,
    });
    return { pages: unwalked, transcripts, exact: unwalked === 0 };
  }

  /**
   * Runs the job until it is done or stopped, and says how it ended. A completed job returns at
   * once without a request; a cancelled one is not run; one that another live process is running
   * is left to it ('busy').
   */
  async run(jobId: number, settings: RunSettings = {}): Promise<RunOutcome> {
    const job = this.#record(jobId);
    if (job.status === JOB_STATUS.cancelled) return { status: JOB_STATUS.cancelled };
    // A completed job runs again only for the lists it could not walk (they reopen as the run starts).
    if (job.status === JOB_STATUS.completed && unwalkedLists(this.#deps.db, jobId) === 0) {
      return completedOutcome(this.#deps.db, jobId);
    }
    const outcome = await this.#execute(jobId, settings, 'full');
    if (outcome.status === 'walked') throw new Error(`job ${jobId} ran as a preview`);
    return outcome;
  }

  /**
   * Brings a finished job up to date (see sync.ts) and fetches what is new, recording the sync with
   * what it found and cost. A job that has not finished is refused: running it again continues it.
   */
  async sync(jobId: number, settings: RunSettings = {}): Promise<SyncOutcome> {
    if (!this.maySync(jobId)) throw new JobNotFinishedError(jobId);
    const { db } = this.#deps;
    const before = {
      videos: itemCounts(db, jobId).total,
      pages: pagesOfJob(db, jobId),
      credits: creditsOfJob(db, jobId),
    };
    const syncId = startSync(db, jobId, this.#now(), settings.automatic ?? false);
    const outcome = await this.#execute(jobId, settings, 'sync');
    if (outcome.status === 'walked') throw new Error(`job ${jobId} was previewed instead of synced`);
    const found = {
      newVideos: itemCounts(db, jobId).total - before.videos,
      pages: pagesOfJob(db, jobId) - before.pages,
      credits: creditsOfJob(db, jobId) - before.credits,
    };
    if (outcome.status !== 'busy') finishSync(db, syncId, { at: this.#now(), ...found });
    return { outcome, ...found };
  }

  /**
   * Whether the job can be synced now: it has finished, or the daily credit limit of automatic syncs
   * stopped its last sync (syncing it again continues that one).
   */
  maySync(jobId: number): boolean {
    const job = this.#record(jobId);
    return (
      jobAllows(job.status, 'sync') ||
      (job.status === JOB_STATUS.paused &&
        job.stopReason === STOP_REASON.budget &&
        job.stopCode === DAILY_LIMIT_STOP_CODE)
    );
  }

  /** Marks the job Keep current, or not; a job without a playlist or a channel cannot be marked. */
  setKeepCurrent(jobId: number, on: boolean): void {
    const job = this.#summary(jobId);
    if (on && !canKeepCurrent(job))
      throw new CannotKeepCurrentError(jobId, job.status === JOB_STATUS.cancelled);
    setJobKeepCurrent(this.#deps.db, jobId, on, this.#now());
  }

  /** Where the job's corpus is written after each automatic sync that completes; null: nowhere. */
  setAutoExportPath(jobId: number, path: string | null): void {
    this.#record(jobId);
    setJobAutoExportPath(this.#deps.db, jobId, path, this.#now());
  }

  /** The jobs marked Keep current, oldest first. */
  keptJobIds(): number[] {
    return keptJobs(this.#deps.db).map((job) => job.id);
  }

  /** What automatic syncs spent today (since local midnight), possibly charged credits included. */
  automaticCreditsToday(): number {
    return automaticCreditsSince(this.#deps.db, startOfLocalDay(this.#deps.clock.now()).toISOString());
  }

  /**
   * The job's syncs (oldest first), the videos each filter left out, its transcripts by language, and
   * its corpus's released versions.
   */
  history(jobId: number): {
    syncs: SyncRecord[];
    skippedByFilter: Array<{ reason: string; videos: number }>;
    languages: Record<string, number>;
    versions: VersionRecord[];
  } {
    this.#record(jobId);
    const { db } = this.#deps;
    return {
      syncs: syncsOfJob(db, jobId),
      skippedByFilter: skippedByFilter(db, jobId),
      languages: languagesOfJob(db, jobId),
      versions: versionsOf(db, jobId),
    };
  }

  /** The job's failed videos (not those a forced stop cut off), by the last HTTP status and code they had. */
  failures(jobId: number): Array<{ httpStatus: number | null; code: string | null; videos: number }> {
    this.#record(jobId);
    return failedByStatus(this.#deps.db, jobId);
  }

  /**
   * The version of the job's corpus an export of these contents writes (store/versions.ts): the last
   * one when its contents are the same, else the next, released now. Returns it with the history to
   * write and the released versions.
   */
  releaseCorpus(
    jobId: number,
    release: { contents: string | undefined; metadata: CorpusMetadata; state: CorpusState },
  ): { version: number; state: CorpusState; versions: VersionRecord[] } {
    this.#record(jobId);
    const { db } = this.#deps;
    return db
      .transaction(() => {
        const released = releaseVersion(db, jobId, { ...release, at: this.#now() });
        return { ...released, versions: versionsOf(db, jobId) };
      })
      .immediate();
  }

  /**
   * How many of the job's videos have a publication interval that crosses an end of its date window:
   * left out unless the job asks for overlap, kept if it does; 0 without a date filter.
   */
  uncertainDates(jobId: number): number {
    const options = JobOptionsSchema.parse(JSON.parse(this.#record(jobId).optionsJson));
    const filters = options.filters;
    if (filters?.publishedAfter === undefined && filters?.publishedBefore === undefined) return 0;
    const selection = new Selection(filters);
    return countListingDates(this.#deps.db, jobId, (published, listedAt) =>
      selection.uncertainDate({ published, listedAt: listedAt === null ? undefined : Date.parse(listedAt) }),
    );
  }

  /**
   * Walks the job's lists without buying any transcript, so that the user sees how many videos it
   * holds and what they will cost before starting it; the job keeps its status. A job started
   * afterwards continues from these pages instead of buying them again.
   */
  async preview(jobId: number, settings: RunSettings = {}): Promise<PreviewOutcome> {
    this.#record(jobId);
    const outcome = await this.#execute(jobId, settings, 'walk');
    return outcome.status === 'walked' ? { status: 'walked', estimate: this.estimate(jobId) } : outcome;
  }

  async #execute(
    jobId: number,
    settings: RunSettings,
    mode: 'full' | 'walk' | 'sync',
  ): Promise<RunOutcome | { status: 'walked' }> {
    const job = this.#record(jobId);
    if (this.#runs.has(jobId)) throw new Error(`Job ${jobId} is already running.`);
    const stored = parseJobSettings(job.settingsJson);
    const { concurrency, budget } = RunLimitsSchema.parse({
      concurrency: settings.concurrency ?? stored.concurrency,
      budget: settings.budget ?? job.budget ?? undefined,
    });
    const client = settings.client ?? this.#deps.client;
    if (client === undefined)
      throw new Error('Engine.run needs a client: pass one to the Engine or in RunSettings.');
    const options = JobOptionsSchema.parse(JSON.parse(job.optionsJson));
    const { db, clock } = this.#deps;
    // Items left in flight can only be a dead or lapsed holder's once the lease is ours. Walks
    // that could not be done are tried again, each from its cursor: a list is never left half read.
    const lease = JobLease.take({ db, clock, owner: this.#leaseOwner }, jobId, () => {
      recoverFetchingItems(db, jobId);
      reopenFailedWalks(db, jobId);
    });
    if (lease === undefined) {
      return {
        status: 'busy',
        message: `Job ${jobId} is being run by another Scriptorium process; wait for it to finish or stop it first.`,
      };
    }
    const claimOwner = `${this.#leaseOwner}:${jobId}`;
    try {
      const run = new JobRun({
        deps: {
          db,
          clock,
          client,
          pacer: settings.pacer ?? this.#deps.pacer,
          logger: this.#logger,
          library: this.library,
        },
        jobId,
        options,
        concurrency,
        budget,
        interrupt: settings.signal,
        force: settings.force,
        emitter: this.#emitter,
        lease,
        claimOwner,
        mode,
        automatic: settings.automatic ?? false,
        cap: settings.cap,
      });
      this.#runs.set(jobId, run);
      return await run.execute();
    } finally {
      // A search right after the run finds all it stored.
      this.library.flush();
      this.#runs.delete(jobId);
      releaseClaimsOf(db, claimOwner);
      lease.release();
      if (this.#resumeWhenStopped.delete(jobId) && jobAllows(this.#record(jobId).status, 'resume'))
        this.#setStatus(jobId, JOB_STATUS.queued);
    }
  }

  /** Records how the job is to be run and exported (see JobSettings) and the credits it may spend. */
  configure(jobId: number, settings: JobSettingsChange): void {
    const job = this.#record(jobId);
    const current = parseJobSettings(job.settingsJson);
    const next = JobSettingsSchema.parse({
      concurrency: settings.concurrency ?? current.concurrency,
      formats: settings.formats ?? current.formats,
      chunking: settings.chunking ?? current.chunking,
      exportPath: settings.exportPath === undefined ? current.exportPath : settings.exportPath,
      name: settings.name === undefined ? current.name : settings.name,
      citation: settings.citation === undefined ? current.citation : settings.citation,
    });
    const at = this.#now();
    this.#deps.db
      .transaction(() => {
        setJobSettings(this.#deps.db, jobId, JSON.stringify(next), at);
        if (settings.budget !== undefined) setJobBudget(this.#deps.db, jobId, settings.budget, at);
      })
      .immediate();
  }

  /** Jobs waiting for a runner, longest waiting first, that no live process is running. */
  queuedJobIds(): number[] {
    return queuedJobs(this.#deps.db)
      .filter((job) => !this.#runs.has(job.id) && this.#leaseIsFree(job))
      .map((job) => job.id);
  }

  /** Whether this engine is running the job now. */
  isRunning(jobId: number): boolean {
    return this.#runs.has(jobId);
  }

  /**
   * Stops a job this engine runs (requests in flight finish and are recorded), or holds a queued
   * or waiting one; any other status is left as it is (shared/vocabulary.ts's table).
   */
  pause(jobId: number, how: { interrupted?: boolean; force?: boolean } = {}): void {
    const job = this.#record(jobId);
    const run = this.#runs.get(jobId);
    const kind = how.interrupted ? STOP_REASON.interrupted : STOP_REASON.user;
    if (run !== undefined) {
      run.control.stop({ kind });
      if (how.force) run.control.abortInFlight();
    } else if (this.#atRestAllows(job, 'pause')) this.#setStatus(jobId, JOB_STATUS.paused, kind);
  }

  /**
   * Stops every run of this engine because its process is closing: requests in flight finish (at
   * most DRAIN_MS) and each job stays queued, to continue at the next start. Resolves once they
   * have stopped.
   */
  async shutdown(): Promise<void> {
    const runs = [...this.#runs.values()];
    for (const run of runs) run.control.stop({ kind: STOP_REASON.shutdown });
    await Promise.all(runs.map((run) => run.finished));
    this.library.dispose();
  }

  /** Queues a draft, or a paused, waiting, failed or cancelled job again; the next run continues it. */
  resume(jobId: number): void {
    const job = this.#record(jobId);
    if (!jobAllows(job.status, 'resume')) return;
    const run = this.#runs.get(jobId);
    if (run === undefined) this.#setStatus(jobId, JOB_STATUS.queued);
    else if (run.control.stopped) this.#resumeWhenStopped.add(jobId);
  }

  /** Stops the job for good; it is no longer kept current (docs/product.md). */
  cancel(jobId: number): void {
    const job = this.#record(jobId);
    const run = this.#runs.get(jobId);
    if (run !== undefined) run.control.stop({ kind: STOP_REASON.cancelled });
    else if (this.#atRestAllows(job, 'cancel'))
      this.#setStatus(jobId, JOB_STATUS.cancelled, STOP_REASON.cancelled);
    else return;
    if (job.keepCurrent) setJobKeepCurrent(this.#deps.db, jobId, false, this.#now());
  }

  /**
   * Puts the job's failed videos and failed walks back in the queue (a walk continues from its
   * cursor). A completed job becomes paused, ready to continue; a running one picks them up.
   * Returns how many videos and walks were reset.
   */
  retryFailed(jobId: number): number {
    return this.#requeue(jobId, (at) => {
      recordRetries(this.#deps.db, jobId, 'failed', at);
      return resetFailedItems(this.#deps.db, jobId, at) + reopenFailedWalks(this.#deps.db, jobId);
    });
  }

  /**
   * Puts the job's unavailable videos (the service had no transcript for them) back in the queue,
   * to ask the service again; as retryFailed otherwise. Returns how many were reset.
   */
  retryUnavailable(jobId: number): number {
    return this.#requeue(jobId, (at) => {
      recordRetries(this.#deps.db, jobId, 'unavailable', at);
      return resetUnavailableItems(this.#deps.db, jobId, at);
    });
  }

  /** Runs `reset` (which returns how much it put back) and readies the job to continue. */
  #requeue(jobId: number, reset: (at: string) => number): number {
    const job = this.#record(jobId);
    const { db } = this.#deps;
    const at = this.#now();
    // A completed job with work again is paused, ready to continue: its caller runs or queues it.
    const requeued = db
      .transaction(() => {
        const count = reset(at);
        if (count > 0 && job.status === JOB_STATUS.completed)
          setJobStatus(db, jobId, { status: JOB_STATUS.paused, stopReason: STOP_REASON.retry, at });
        return count;
      })
      .immediate();
    if (requeued > 0 && job.status === JOB_STATUS.completed)
      this.#emitter.emit('job', { jobId, status: JOB_STATUS.paused });
    this.#runs.get(jobId)?.reloadCounts();
    return requeued;
  }

  /** Deletes a job that is not running; its spending stays in the ledger and its transcripts in the cache. */
  deleteJob(jobId: number): void {
    const job = this.#record(jobId);
    if (this.#runs.has(jobId) || !this.#leaseIsFree(job) || !jobAllows(job.status, 'delete'))
      throw new JobRunningError(jobId);
    deleteJobRow(this.#deps.db, jobId);
  }

  /**
   * At start-up: items left in flight and jobs left running by a process that died are pending and
   * queued again, and its lease is freed. Jobs that this engine or another live
   * process is running (per their lease) are left alone.
   */
  recover(): void {
    const { db } = this.#deps;
    const at = this.#now();
    const requeued: number[] = [];
    db.transaction(() => {
      for (const job of allJobs(db)) {
        if (this.#runs.has(job.id) || !this.#leaseIsFree(job)) continue;
        recoverFetchingItems(db, job.id);
        if (job.lease !== null) clearLease(db, job.id);
        if (job.status === JOB_STATUS.running) {
          setJobStatus(db, job.id, { status: JOB_STATUS.queued, at });
          requeued.push(job.id);
        }
      }
    }).immediate();
    for (const jobId of requeued) this.#emitter.emit('job', { jobId, status: JOB_STATUS.queued });
  }

  listJobs(): JobSummary[] {
    return allJobs(this.#deps.db).map((job) => this.#summarize(job));
  }

  job(jobId: number): JobSummary | undefined {
    const job = jobById(this.#deps.db, jobId);
    return job === undefined ? undefined : this.#summarize(job);
  }

  creditStatus(): CreditStatus {
    return creditStatusOf(this.#deps.db, this.#deps.clock.now());
  }

  /** Records the balance the user read on their account; null forgets it. */
  setBalance(credits: number | null): void {
    setBalanceSetting(this.#deps.db, credits, this.#now());
  }

  /**
   * Streams the job's videos for export by corpus number, joined with their transcripts, a page of
   * rows at a time so that memory stays flat.
   */
  exportRows(jobId: number): Iterable<ExportRow> {
    this.#record(jobId);
    return { [Symbol.iterator]: () => exportRowsOf(this.#deps.db, jobId) };
  }

  /** Every source of each of the job's videos, by corpus number, page by page as exportRows. */
  exportMemberships(jobId: number): Iterable<MembershipRow> {
    this.#record(jobId);
    return { [Symbol.iterator]: () => membershipRowsOf(this.#deps.db, jobId) };
  }

  /** What each version of the job's corpus after the first, up to `through`, added, retried or changed. */
  exportChanges(jobId: number, through: number): Iterable<ChangeRecord> {
    this.#record(jobId);
    return { [Symbol.iterator]: () => changesOf(this.#deps.db, jobId, through) };
  }

  /** Adds a listener; returns a function that removes it. */
  on<K extends keyof EngineEvents>(event: K, listener: (payload: EngineEvents[K]) => void): () => void {
    return this.#emitter.on(event, listener);
  }

  off<K extends keyof EngineEvents>(event: K, listener: (payload: EngineEvents[K]) => void): void {
    this.#emitter.off(event, listener);
  }

  #record(jobId: number) {
    const job = jobById(this.#deps.db, jobId);
    if (job === undefined) throw new JobNotFoundError(jobId);
    return job;
  }

  /** False while another live process holds the job's lease. */
  #leaseIsFree(job: JobRecord): boolean {
    return leaseIsFree(job.lease, this.#leaseOwner, this.#deps.clock.now());
  }

  #summary(jobId: number): JobSummary {
    return this.#summarize(this.#record(jobId));
  }

  /** A job this engine runs is summed up from its run's live counts, not counted again in the database. */
  #summarize(job: JobRecord): JobSummary {
    return summarize(this.#deps.db, job, this.#runningIn(job), this.#runs.get(job.id)?.live());
  }

  #runningIn(job: JobRecord): JobSummary['runningIn'] {
    if (this.#runs.has(job.id)) return 'here';
    return job.status === JOB_STATUS.running && !this.#leaseIsFree(job) ? 'elsewhere' : null;
  }

  /**
   * Whether `action` may change a job that no run of this engine holds. A running job without a run
   * here is another process's (or a dead one's, which recover() queues again at the next start):
   * only its own run can stop it.
   */
  #atRestAllows(job: JobRecord, action: JobAction): boolean {
    return job.status !== JOB_STATUS.running && jobAllows(job.status, action);
  }

  #setStatus(jobId: number, status: JobStatus, stopReason?: StopReason): void {
    setJobStatus(this.#deps.db, jobId, { status, stopReason: stopReason ?? null, at: this.#now() });
    this.#emitter.emit('job', { jobId, status });
  }

  #now(): string {
    return new Date(this.#deps.clock.now()).toISOString();
  }
}

/** Whether a sync can bring the job anything new: it has a playlist or a channel, and is not cancelled. */
export function canKeepCurrent(job: Pick<JobSummary, 'sources' | 'status'>): boolean {
  return (
    job.status !== JOB_STATUS.cancelled &&
    job.sources.some((source) => (SYNCED_SOURCE_KINDS as readonly string[]).includes(source.kind))
  );
}
