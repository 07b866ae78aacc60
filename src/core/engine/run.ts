import {
  isFinalItemStatus,
  isUnwalkedList,
  ITEM_STATUS,
  JOB_STATUS,
  LIST_STATUS,
  STOP_REASON,
} from '../../shared/vocabulary';
import type { Clock, TranscriptClient } from '../api/types';
import { asStorageError, type Database } from '../store';
import { BackgroundCheckpoints } from '../store/checkpoints';
import { creditsOfJob, possibleCreditsOfJob } from '../store/ledger';
import { itemCounts, resetFailedItemsById } from '../store/items';
import { jobById, setJobBudget, setJobStatus, type JobStatusChange } from '../store/jobs';
import { sourcesOfJob } from '../store/sources';
import { CreditBudget } from './budget';
import { recordLast402 } from './credits';
import type { TypedEmitter } from './emitter';
import { fetchItems } from './fetch';
import { countsView, snapshotOf, type LiveCounts } from './jobs';
import type { JobLease } from './lease';
import type { TranscriptPreparation } from './transcript-preparation';
import { SlidingRate } from './rate';
import type { RunContext, RunFact } from './run-context';
import { RunControl, type StopCause } from './run-control';
import { ResultWriter } from './result-writer';
import { ServiceHealth } from './service-health';
import { Throttle } from './throttle';
import type {
  EngineEvents,
  ItemCountsView,
  JobOptions,
  Logger,
  RequestPacer,
  RunOutcome,
  SpendingCap,
} from './types';
import { walkListsOn } from './sync-run';

/** What one run works with: the engine's database and clock, and this run's client and pacer. */
export interface RunDeps {
  db: Database;
  clock: Clock;
  client: TranscriptClient;
  pacer: RequestPacer | undefined;
  /** Where the run tells what it cannot throw (its checkpoint thread failing). */
  logger: Logger;
  preparation: TranscriptPreparation;
}

/**
 * How a run reads the job's lists, pass after pass, while the fetch loop buys the videos they bring.
 * Each kind of run names its own: the first run of a job, and every run that continues one, walks
 * on each list from its stored cursor (sync-run.ts `walkListsOn`); a sync run reads a finished job's lists
 * again on its first pass (sync-run.ts). A run makes another pass only when failed videos were put
 * back meanwhile.
 */
export type ReadLists = (ctx: RunContext, pass: number) => Promise<unknown>;

/** How a preview ended when nothing stopped it: every list walked. */
export interface Walked {
  status: 'walked';
}

export interface JobRunOptions {
  deps: RunDeps;
  jobId: number;
  options: JobOptions;
  /** Default 4. */
  concurrency: number;
  budget: number | undefined;
  /** The first interrupt drains the run; `force` cuts the requests in flight. */
  interrupt: AbortSignal | undefined;
  force: AbortSignal | undefined;
  emitter: TypedEmitter<EngineEvents>;
  /** Names this run in transcript claims. */
  claimOwner: string;
  /** Taken by the engine before the run; released here with a completing status, by the engine otherwise. */
  lease: JobLease;
  /** An automatic sync's run: its credits are marked in the ledger for the daily credit limit. */
  automatic: boolean;
  /** A limit on this run's spending besides the job's budget (see SpendingCap). */
  cap: SpendingCap | undefined;
}

/**
 * Where a job waits when the disk stops its run (a full disk, a folder that cannot be written): a
 * first run's job queued, for a runner's next try or the next start; a sync's paused, so that the
 * next sync continues it, reading its lists again (syncAllowed).
 */
export type StorageStopStatus = typeof JOB_STATUS.queued | typeof JOB_STATUS.paused;

/** The job status and stop fields that record each cause. */
function stopRecord(
  cause: StopCause,
  budget: number | undefined,
  storageStop: StorageStopStatus,
): Omit<JobStatusChange, 'at'> {
  switch (cause.kind) {
    case STOP_REASON.credits:
      return {
        status: JOB_STATUS.waiting_credits,
        stopReason: STOP_REASON.credits,
        stopCode: cause.code,
        stopMessage: cause.meaning,
      };
    case STOP_REASON.auth:
      return {
        status: JOB_STATUS.failed,
        stopReason: STOP_REASON.auth,
        stopCode: String(cause.httpStatus),
        stopMessage: cause.message,
      };
    case STOP_REASON.budget:
      return {
        status: JOB_STATUS.paused,
        stopReason: STOP_REASON.budget,
        stopCode: cause.code ?? null,
        stopMessage: cause.message ?? `the budget of ${budget ?? 0} credits is spent`,
      };
    case STOP_REASON.service:
      return { status: JOB_STATUS.paused, stopReason: STOP_REASON.service, stopMessage: cause.message };
    case STOP_REASON.interrupted:
    case STOP_REASON.user:
      return { status: JOB_STATUS.paused, stopReason: cause.kind };
    case STOP_REASON.shutdown:
      return { status: JOB_STATUS.queued };
    case STOP_REASON.cancelled:
      return { status: JOB_STATUS.cancelled, stopReason: STOP_REASON.cancelled };
    case STOP_REASON.error: {
      // A full disk or a folder that cannot be written is not the job's failure, and says why in
      // plain words; the job waits to continue once the store can be written again.
      const storage = asStorageError(cause.error);
      if (storage !== undefined) {
        return {
          status: storageStop,
          stopReason: STOP_REASON.error,
          stopCode: storage.code,
          stopMessage: storage.message,
        };
      }
      return {
        status: JOB_STATUS.failed,
        stopReason: STOP_REASON.error,
        stopMessage: cause.error instanceof Error ? cause.error.message : String(cause.error),
      };
    }
  }
}

function outcomeOf(cause: Exclude<StopCause, { kind: 'error' }>): RunOutcome {
  switch (cause.kind) {
    case STOP_REASON.credits:
      return { status: JOB_STATUS.waiting_credits, code: cause.code, meaning: cause.meaning };
    case STOP_REASON.auth:
      return {
        status: JOB_STATUS.failed,
        reason: STOP_REASON.auth,
        httpStatus: cause.httpStatus,
        message: cause.message,
      };
    case STOP_REASON.budget:
    case STOP_REASON.interrupted:
    case STOP_REASON.user:
    case STOP_REASON.shutdown:
      return { status: JOB_STATUS.paused, reason: cause.kind };
    case STOP_REASON.service:
      return { status: JOB_STATUS.paused, reason: STOP_REASON.service, message: cause.message };
    case STOP_REASON.cancelled:
      return { status: JOB_STATUS.cancelled };
  }
}

/** The outcome of a job with nothing left to do. */
export function completedOutcome(db: Database, jobId: number): RunOutcome {
  return {
    status: JOB_STATUS.completed,
    failed: itemCounts(db, jobId).failed,
    failedSources: unwalkedLists(db, jobId),
  };
}

/** The job's lists that could not be walked (failed, or unavailable: a 404): the next run tries them again. */
export function unwalkedLists(db: Database, jobId: number): number {
  return sourcesOfJob(db, jobId).filter((source) => isUnwalkedList(source.walkStatus)).length;
}

function hasWorkLeft(db: Database, jobId: number): boolean {
  const counts = itemCounts(db, jobId);
  return (
    counts.pending + counts.fetching > 0 ||
    sourcesOfJob(db, jobId).some((source) => source.walkStatus === LIST_STATUS.pending)
  );
}

/**
 * One run of one job: the reading of its lists and the fetch loop side by side until the work is done
 * or a cause stops them (execute), or its lists walked alone (preview). Every status change is written
 * to the database when it happens.
 */
export class JobRun {
  readonly control: RunControl;
  /** Settles when execute() is over, however it ended. */
  readonly finished: Promise<void>;
  readonly #markFinished: () => void;
  readonly #deps: RunDeps;
  readonly #options: JobRunOptions;
  readonly #rate: SlidingRate;
  readonly #throttle: Throttle;
  /** Facts reported so far; a pass that adds none has nothing more to do. */
  #progress = 0;
  /**
   * The job's counts, read once and then kept up to date from the run's own facts (`interrupted`
   * changes only as a run stops, and is read again from the database once it has).
   */
  #counts: ItemCountsView = {
    total: 0,
    pending: 0,
    ok: 0,
    unavailable: 0,
    failed: 0,
    skipped: 0,
    interrupted: 0,
  };
  #creditsSpent = 0;
  #creditsPossible = 0;
  /** Whether the service answers: a run it fails throughout stops as the service's, not as done. */
  readonly #health = new ServiceHealth();
  /** A preview (preview()): it buys no transcript and leaves the job's status as it was. */
  #preview = false;
  /** Where the job waits when the disk stops this run (execute). */
  #storageStop: StorageStopStatus = JOB_STATUS.queued;

  constructor(options: JobRunOptions) {
    let markFinished = (): void => undefined;
    this.finished = new Promise((resolve) => (markFinished = resolve));
    this.#markFinished = markFinished;
    this.#options = options;
    this.#deps = options.deps;
    this.#rate = new SlidingRate(options.deps.clock);
    this.#throttle = new Throttle(() => this.#emitSnapshot(), { clock: options.deps.clock });
    this.control = new RunControl({ interrupt: options.interrupt, force: options.force }, (cause) =>
      this.#recordStop(cause),
    );
  }

  /** Whether this run only walks the job's lists (a preview), leaving its status as it is. */
  get walksOnly(): boolean {
    return this.#preview;
  }

  /**
   * Runs the job, its lists read by `readLists`, until it is done or stopped; a stop by the disk
   * leaves the job `storageStop`.
   */
  execute(readLists: ReadLists, storageStop: StorageStopStatus = JOB_STATUS.queued): Promise<RunOutcome> {
    this.#storageStop = storageStop;
    return this.#drive(
      (ctx) => this.#readAndFetch(ctx, readLists),
      () => this.#finish(),
    );
  }

  /** Walks the job's lists without buying a transcript, until every list is walked ('walked') or it is stopped. */
  preview(): Promise<RunOutcome | Walked> {
    this.#preview = true;
    return this.#drive(
      async (ctx) => {
        await walkListsOn(ctx).catch((error: unknown) =>
          this.control.stop({ kind: STOP_REASON.error, error }),
        );
        ctx.writer.flush(); // a page's request never sent, dropped from the ledger (paid-requests.ts)
      },
      () => this.#finishWalk(),
    );
  }

  /** Does the run's work, then says how it ended with `end`; the run's timers end with it. */
  async #drive<Outcome>(work: (ctx: RunContext) => Promise<void>, end: () => Outcome): Promise<Outcome> {
    const { db } = this.#deps;
    const { jobId } = this.#options;
    // Counted before anyone hears of the run: a face shown the running job sees its counts, not zeros.
    this.reloadCounts();
    if (!this.control.stopped && !this.#preview) {
      const at = this.#now();
      db.transaction(() => {
        setJobBudget(db, jobId, this.#options.budget ?? null, at);
        setJobStatus(db, jobId, { status: JOB_STATUS.running, at });
      }).immediate();
      this.#options.emitter.emit('job', { jobId, status: JOB_STATUS.running });
    }
    this.#throttle.poke();
    try {
      await this.#work(work);
      return end();
    } finally {
      this.#throttle.flush();
      this.#throttle.dispose();
      this.control.dispose();
      this.#markFinished();
    }
  }

  async #work(work: (ctx: RunContext) => Promise<void>): Promise<void> {
    // The run's writes are copied from the WAL into the database on a thread of their own.
    const checkpoints = BackgroundCheckpoints.start(this.#deps.db, this.#deps.logger);
    try {
      await work(this.#context());
    } finally {
      await checkpoints?.stop();
    }
    const down = this.control.stopped ? undefined : this.#health.failedEverything();
    if (down !== undefined) this.control.stop({ kind: STOP_REASON.service, message: down });
    if (this.control.cause?.kind === STOP_REASON.service) this.#requeueServiceFailures();
  }

  /**
   * The videos the service failed with a server error in the streak that stopped the run failed only
   * because it was down: they go back to the queue, for the next run of the same command.
   */
  #requeueServiceFailures(): void {
    const ids = this.#health.requeued();
    if (ids.length === 0) return;
    const { db } = this.#deps;
    db.transaction(() => resetFailedItemsById(db, this.#options.jobId, ids, this.#now())).immediate();
    this.reloadCounts();
    this.#throttle.poke();
  }

  /** Reads the lists and fetches, pass after pass, while a pass makes progress and work is left. */
  async #readAndFetch(ctx: RunContext, readLists: ReadLists): Promise<void> {
    // A second pass only happens when failed items were reset for retry during the run.
    for (let pass = 0; !this.control.stopped; pass++) {
      const progressBefore = this.#progress;
      let listsRead = false;
      const reading = readLists(ctx, pass)
        .catch((error: unknown) => this.control.stop({ kind: STOP_REASON.error, error }))
        .finally(() => {
          listsRead = true;
          this.control.notify();
        });
      const fetching = fetchItems(ctx, () => listsRead).catch((error: unknown) =>
        this.control.stop({ kind: STOP_REASON.error, error }),
      );
      await Promise.all([reading, fetching]);
      ctx.writer.flush(); // what the reading of the lists wrote after the fetch's last group
      if (this.#progress === progressBefore || !hasWorkLeft(this.#deps.db, this.#options.jobId)) return;
    }
  }

  #finishWalk(): RunOutcome | Walked {
    const stopped = this.#stopOutcome();
    if (stopped !== undefined) return stopped;
    this.#options.lease.release();
    return { status: 'walked' };
  }

  #finish(): RunOutcome {
    const { jobId } = this.#options;
    const stopped = this.#stopOutcome();
    if (stopped !== undefined) return stopped;
    if (hasWorkLeft(this.#deps.db, jobId)) {
      this.#writeFinalStatus({ status: JOB_STATUS.queued });
      throw new Error(`Job ${jobId} stopped with work left and no reason; run it again to continue.`);
    }
    const finishedAt = this.#now();
    this.#writeFinalStatus({ status: JOB_STATUS.completed, finishedAt });
    return completedOutcome(this.#deps.db, jobId);
  }

  /** How the run ended when a cause stopped it; an unexpected error is thrown. Undefined when none did. */
  #stopOutcome(): RunOutcome | undefined {
    const cause = this.control.cause;
    if (cause?.kind === STOP_REASON.error) throw cause.error;
    return cause === undefined ? undefined : outcomeOf(cause);
  }

  #context(): RunContext {
    const { db, client, clock, pacer, preparation } = this.#deps;
    const { jobId, options, concurrency, claimOwner } = this.#options;
    const emit: RunContext['emit'] = (event, payload) => {
      this.#count(event, payload);
      this.#options.emitter.emit(event, payload);
      if (event !== 'credit' && event !== 'wait') this.#progress++;
      if (event === 'item' && 'status' in payload && payload.status !== ITEM_STATUS.fetching)
        this.#rate.record();
      this.#throttle.poke();
    };
    return {
      db,
      client,
      clock,
      pacer,
      jobId,
      options,
      concurrency,
      claimOwner,
      control: this.control,
      budget: new CreditBudget(this.#options.budget, creditsOfJob(db, jobId), this.#options.cap),
      automatic: this.#options.automatic,
      health: this.#health,
      preparation,
      writer: new ResultWriter(
        db,
        (error) => this.control.stop({ kind: STOP_REASON.error, error }),
        concurrency,
      ),
      call: {
        stop: this.control.stopSignal,
        abort: this.control.abortSignal,
        onRetry: (notice) => emit('wait', { jobId, ...notice }),
      },
      now: () => this.#now(),
      emit,
    };
  }

  /** Writes the stop at once, so that a crash right after still leaves the right status. */
  #recordStop(cause: StopCause): void {
    const { db } = this.#deps;
    db.transaction(() => {
      this.#writeStatus(stopRecord(cause, this.#options.budget, this.#storageStop));
      if (cause.kind === STOP_REASON.credits) {
        recordLast402(db, { code: cause.code, meaning: cause.meaning, at: this.#now() });
      }
    }).immediate();
  }

  /**
   * The status the run ends with and the lease's release, together: no other process sees one without
   * the other. (The corpus's versions are released by exports, store/versions.ts.)
   */
  #writeFinalStatus(change: Omit<JobStatusChange, 'at'>): void {
    this.#deps.db
      .transaction(() => {
        this.#writeStatus(change);
        this.#options.lease.release();
      })
      .immediate();
  }

  #writeStatus(change: Omit<JobStatusChange, 'at'>): void {
    const { jobId } = this.#options;
    // A preview records why it stopped, but the job stays what it was (a draft is not started).
    const status = this.#preview ? (jobById(this.#deps.db, jobId)?.status ?? change.status) : change.status;
    setJobStatus(this.#deps.db, jobId, { ...change, status, at: this.#now() });
    this.#options.emitter.emit('job', { jobId, status });
  }

  /** The counts and credits of the job as this run knows them (see reloadCounts). */
  live(): LiveCounts {
    return {
      counts: { ...this.#counts },
      creditsSpent: this.#creditsSpent,
      creditsPossible: this.#creditsPossible,
    };
  }

  /** Reads the counts again from the database: at the start, and when another hand changed the items. */
  reloadCounts(): void {
    const { db } = this.#deps;
    const { jobId } = this.#options;
    this.#counts = countsView(itemCounts(db, jobId));
    this.#creditsSpent = creditsOfJob(db, jobId);
    this.#creditsPossible = possibleCreditsOfJob(db, jobId);
  }

  /** Keeps the counts up to date from the facts this run reports. */
  #count<K extends RunFact>(event: K, payload: EngineEvents[K]): void {
    if (event === 'item') {
      const { status } = payload as EngineEvents['item'];
      if (isFinalItemStatus(status)) {
        this.#counts.pending -= 1;
        this.#counts[status] += 1;
      }
    } else if (event === 'page') {
      const { added, skipped, settled } = payload as EngineEvents['page'];
      this.#counts.total += added + skipped;
      this.#counts.pending += added + settled;
      this.#counts.skipped += skipped - settled;
    } else if (event === 'credit') {
      this.#creditsSpent += 1;
      if ((payload as EngineEvents['credit']).possible) this.#creditsPossible += 1;
    }
  }

  #emitSnapshot(): void {
    if (!this.#options.emitter.hasListeners('snapshot')) return;
    const job = jobById(this.#deps.db, this.#options.jobId);
    if (job !== undefined)
      this.#options.emitter.emit(
        'snapshot',
        snapshotOf(this.#deps.db, job, this.live(), this.#rate.perSecond()),
      );
  }

  #now(): string {
    return new Date(this.#deps.clock.now()).toISOString();
  }
}
