import { JOB_STATUS, jobAllows, STOP_REASON, type JobAction, type StopReason } from '../../shared/vocabulary';
import { recoverFetchingItems, resetFailedItems, resetUnavailableItems } from '../store/items';
import {
  allJobs,
  deleteJobRow,
  jobById,
  queuedJobs,
  setJobBudget,
  setJobKeepCurrent,
  setJobSettings,
  setJobStatus,
  type JobRecord,
  type JobStatus,
} from '../store/jobs';
import { clearLease } from '../store/leases';
import { releaseClaimsOf } from '../store/claims';
import { recordJobService } from '../store/job-services';
import { versionsOf, type VersionRecord } from '../store/queries/job-history';
import { reopenFailedWalks } from '../store/sources';
import { recordRetries, releaseVersion, type CorpusMetadata, type CorpusState } from '../store/versions';
import { TypedEmitter } from './emitter';
import { JobNotFinishedError, JobNotFoundError, JobRunningError } from './errors';
import { jobKey } from './identity';
import { estimateOf, findOrCreateJobRow, liveJobByKey, summarize, uncertainDatesOf } from './jobs';
import { syncAllowed } from './keep-current';
import { JobLease, leaseIsFree, newLeaseOwner } from './lease';
import { TranscriptPreparation } from './transcript-preparation';
import { completedOutcome, JobRun, unwalkedLists } from './run';
import {
  changedJobSettings,
  JobOptionsSchema,
  parseJobSettings,
  parseJobSpec,
  runLimitsOf,
  type JobSettingsChange,
} from './spec';
import { syncRun, walkListsOn } from './sync-run';
import type {
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

/** A run stopped by Ctrl+C or by its process closing: its caller is leaving, and waits for nothing more. */
function interrupted(run: JobRun): boolean {
  const kind = run.control.cause?.kind;
  return kind === STOP_REASON.interrupted || kind === STOP_REASON.shutdown;
}

/** A run another live Scriptorium process holds the job's lease for: nothing was done. */
type Busy = Extract<RunOutcome, { status: 'busy' }>;

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
  /**
   * Prepares what the runs store, for search and for export (transcript-preparation.ts); every run
   * that was not interrupted ends with what it stored prepared.
   */
  readonly preparation: TranscriptPreparation;

  constructor(deps: EngineDeps) {
    this.#deps = deps;
    this.#leaseOwner = deps.leaseOwner ?? newLeaseOwner();
    this.#logger = deps.logger ?? console;
    this.preparation = new TranscriptPreparation({
      db: deps.db,
      clock: deps.clock,
      logger: this.#logger,
      ...(deps.derivation !== undefined && { derivation: deps.derivation }),
      ...(deps.preparationThread !== undefined && { thread: deps.preparationThread }),
    });
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

  /** What running the job will still cost: list pages (at least) and transcripts (at most). */
  estimate(jobId: number): EstimateResult {
    return estimateOf(this.#deps.db, this.#record(jobId));
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
    // The first run of a job, and every run that continues it, walks its lists from their cursors.
    return this.#execute(jobId, settings, (run) => run.execute(walkListsOn));
  }

  /**
   * A sync run (sync-run.ts): brings a finished job up to date and fetches what is new, recording the
   * sync with what it found and cost. A job that has not finished is refused: running it again
   * continues it.
   */
  async sync(jobId: number, settings: RunSettings = {}): Promise<SyncOutcome> {
    if (!syncAllowed(this.#record(jobId))) throw new JobNotFinishedError(jobId);
    const sync = { jobId, automatic: settings.automatic ?? false, now: () => this.#now() };
    // A sync the disk stops waits paused, so that the next sync, not a first run, continues it.
    return syncRun(this.#deps.db, sync, (readLists) =>
      this.#execute(jobId, settings, (run) => run.execute(readLists, JOB_STATUS.paused)),
    );
  }

  /**
   * The version of the job's corpus an export of these contents writes (store/versions.ts): the last
   * one when its contents are the same, else the next, released now. Returns it with the history to
   * write and the released versions.
   */
  releaseCorpus(
    jobId: number,
    release: { contents: string | undefined; metadata: CorpusMetadata; state: CorpusState; inputs: string },
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

  /** How many of the job's videos have a publication date uncertain for its date window (see uncertainDatesOf). */
  uncertainDates(jobId: number): number {
    return uncertainDatesOf(this.#deps.db, this.#record(jobId));
  }

  /**
   * Walks the job's lists without buying any transcript, so that the user sees how many videos it
   * holds and what they will cost before starting it; the job keeps its status. A job started
   * afterwards continues from these pages instead of buying them again.
   */
  async preview(jobId: number, settings: RunSettings = {}): Promise<PreviewOutcome> {
    this.#record(jobId);
    // Its own run (or another preview) reads its lists already: nothing to walk twice.
    if (this.#runs.has(jobId))
      return { status: 'busy', message: `Job ${jobId} is running already: it reads its lists itself.` };
    const outcome = await this.#execute(jobId, settings, (run) => run.preview());
    return outcome.status === 'walked' ? { status: 'walked', estimate: this.estimate(jobId) } : outcome;
  }

  /**
   * Takes the job's lease and runs `drive` on a run of it (which says what kind of run it is: execute
   * with the way it reads the lists, or preview); 'busy' when another live process holds the lease.
   * However the run ends, its claims and lease are released; then, unless it was interrupted or the
   * process is closing, what it stored is prepared before this resolves (a search or an export right
   * after finds it all).
   */
  async #execute<Outcome>(
    jobId: number,
    settings: RunSettings,
    drive: (run: JobRun) => Promise<Outcome>,
  ): Promise<Outcome | Busy> {
    const job = this.#record(jobId);
    if (this.#runs.has(jobId)) throw new Error(`Job ${jobId} is already running.`);
    const { concurrency, budget } = runLimitsOf(job, settings);
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
    let run: JobRun | undefined;
    let outcome: Outcome;
    if (settings.service !== undefined) {
      recordJobService(db, { jobId, ...settings.service, at: this.#now() });
    }
    try {
      run = new JobRun({
        deps: {
          db,
          clock,
          client,
          pacer: settings.pacer ?? this.#deps.pacer,
          logger: this.#logger,
          preparation: this.preparation,
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
        automatic: settings.automatic ?? false,
        cap: settings.cap,
      });
      this.#runs.set(jobId, run);
      outcome = await drive(run);
    } finally {
      this.#runs.delete(jobId);
      releaseClaimsOf(db, claimOwner);
      lease.release();
      if (this.#resumeWhenStopped.delete(jobId) && jobAllows(this.#record(jobId).status, 'resume'))
        this.#setStatus(jobId, JOB_STATUS.queued);
    }
    // Once the run is over (nothing can stop it now), what it stored is prepared.
    if (!interrupted(run)) await this.preparation.drain();
    return outcome;
  }

  /** Records how the job is to be run and exported (see JobSettings) and the credits it may spend. */
  configure(jobId: number, settings: JobSettingsChange): void {
    const next = changedJobSettings(parseJobSettings(this.#record(jobId).settingsJson), settings);
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
    await this.preparation.close();
  }

  /**
   * Queues a draft, or a paused, waiting or failed job again; the next run continues it. A preview
   * walking the job's lists does not hold it back: the walk keeps the status it finds, so the job
   * is queued now and a runner takes it once the walk is over.
   */
  resume(jobId: number): void {
    const job = this.#record(jobId);
    if (!jobAllows(job.status, 'resume')) return;
    const run = this.#runs.get(jobId);
    if (run === undefined || run.walksOnly) this.#setStatus(jobId, JOB_STATUS.queued);
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

  /** Adds a listener; returns a function that removes it. */
  on<K extends keyof EngineEvents>(event: K, listener: (payload: EngineEvents[K]) => void): () => void {
    return this.#emitter.on(event, listener);
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
