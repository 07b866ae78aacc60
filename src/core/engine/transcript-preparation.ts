import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { Clock } from '../api';
import type { Database } from '../store';
import { anyTranscriptToPrepare, type TranscriptIds } from '../store/derived-transcripts';
import { unindexedCounts } from '../store/library-index';
import { reportBackgroundFailure } from '../store/background-failure';
import {
  preparationFailure,
  PreparationLoop,
  type Derivation,
  type PreparationFailure,
  type PreparationProgress,
  type SpellOutcome,
} from './prepare-transcripts';
import type { Logger } from './types';

/**
 * The longest a stored transcript waits to be prepared while a run goes on, and so the most a search
 * lags behind the store (docs/product.md).
 */
export const PREPARATION_WAIT_MS = 1000;

/** Transcripts stored that start a spell at once, without waiting PREPARATION_WAIT_MS. */
const STORED_FOR_A_SPELL = 256;

/**
 * The worker thread that prepares transcripts, built as an entry of its own beside each face's bundle
 * (core/app/preparation-worker.ts), with the database it opens.
 */
export interface PreparationThread {
  workerFile: string;
  databaseFile: string;
  /** The better-sqlite3 addon the app loads, when not the package's own. */
  nativeBinding?: string;
}

/**
 * What the worker is told: prepare everything there is (telling its progress when `tell`: the start's
 * catching up), or stop after the batch under way.
 */
export const PreparationRequest = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('prepare'), tell: z.boolean() }),
  z.object({ kind: z.literal('stop') }),
]);
export type PreparationRequest = z.infer<typeof PreparationRequest>;

/**
 * What the worker tells: that it wrote a batch, how far it has come (when told to tell), then that
 * all is prepared, or the one line that stopped it.
 */
export const PreparationMessage = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('batch') }),
  z.object({ kind: z.literal('progress'), done: z.number().int(), total: z.number().int() }),
  z.object({ kind: z.literal('prepared') }),
  z.object({
    kind: z.literal('stopped'),
    plain: z.string().optional(),
    message: z.string(),
    stack: z.string().optional(),
  }),
]);
export type PreparationMessage = z.infer<typeof PreparationMessage>;

/** What a spell tells while it works: after each batch, and with `onProgress` how far it has come. */
interface SpellListeners {
  onBatch: () => void;
  onProgress?: ((progress: PreparationProgress) => void) | undefined;
}

/** Runs spells of preparation somewhere: on the engine's thread, or on a worker thread of their own. */
interface SpellRunner {
  spell(listeners: SpellListeners): Promise<SpellOutcome>;
  /** Nothing is left to prepare for now: let go of what waits for the next spell (its thread). */
  rest(): void;
  close(): Promise<void>;
}

export interface TranscriptPreparationOptions {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** How transcripts are derived for export; without it, they are only indexed for search. */
  derivation?: Derivation;
  /** The worker thread to prepare on; without it, on this thread, a batch per turn of the event loop. */
  thread?: PreparationThread;
  /** Transcripts per batch (tests). Default: PREPARATION_BATCH. */
  batchSize?: number;
}

/**
 * Prepares each stored transcript for search (its rows of the Library's index) and for export (what it
 * derives: export/derived-transcript.ts), after the transaction that stores it and off the fetch loop's
 * thread when a worker thread is given (prepare-transcripts.ts does the work). During a run, the
 * transcripts it stores wait until STORED_FOR_A_SPELL have gathered or PREPARATION_WAIT_MS has passed
 * on the clock since the first, and every run ends with what it stored prepared (drain), even while
 * an upgrade's whole library is being prepared. At start, catchUp() prepares what an upgrade or a
 * killed process left, telling its progress.
 *
 * A failure (a full disk, a read-only folder) is said in one line, once, and stops the work for this
 * process: the database says what is left, and the next start does it. An export never depends on
 * it: what is not derived is rendered.
 */
export class TranscriptPreparation {
  readonly #db: Database;
  readonly #derivationName: string | null;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #runner: SpellRunner;
  /** The ids of the transcripts this process has stored; and how many since the last spell started. */
  #stored: TranscriptIds | undefined;
  #storedSinceSpell = 0;
  #waiting: AbortController | undefined;
  /** The spell under way, and whether another must follow it (transcripts were stored meanwhile). */
  #spell: Promise<void> | undefined;
  #again = false;
  /** A run has ended (drain) while a spell went on: its thread rests once the spell ends. */
  #restAfterSpell = false;
  /** Whether the spell under way (or the last one) has written a batch; undefined before any. */
  #spellWrote: boolean | undefined;
  /** Those waiting for the next batch to be written, or for the spell under way to end. */
  #batchWaiters: Array<() => void> = [];
  /** The drains under way: runs that have ended, waiting for their transcripts to be prepared. */
  readonly #drains = new Set<Promise<void>>();
  /** Closing or failed: nothing more starts. */
  #stopped = false;
  #failed = false;

  constructor(options: TranscriptPreparationOptions) {
    this.#db = options.db;
    this.#derivationName = options.derivation?.name ?? null;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#runner =
      options.thread === undefined
        ? new InThisThread(options.db, options.derivation, options.batchSize, () => this.#stopped)
        : new OnWorkerThread(options.thread);
  }

  /** A transcript this process has just stored (its transaction committed). */
  stored(transcriptId: number): void {
    if (this.#stopped) return;
    this.#stored = {
      from: Math.min(this.#stored?.from ?? transcriptId, transcriptId),
      to: Math.max(this.#stored?.to ?? transcriptId, transcriptId),
    };
    this.#storedSinceSpell += 1;
    if (this.#storedSinceSpell >= STORED_FOR_A_SPELL) this.#start();
    else if (this.#waiting === undefined) this.#startLater();
  }

  /**
   * Resolves once every transcript this process stored is prepared (or the work has stopped), whatever
   * else is left: a run's end waits for its own transcripts, never for an upgrade's library.
   */
  drain(): Promise<void> {
    const draining = this.#drainStored();
    this.#drains.add(draining);
    const ended = (): void => void this.#drains.delete(draining);
    draining.then(ended, ended);
    return draining;
  }

  /**
   * Resolves once every run that has ended has what it stored prepared: a search right after a run
   * (the app shows the run's end before its transcripts are prepared) finds it all, while a search
   * during a run waits for nothing.
   */
  async drained(): Promise<void> {
    await Promise.all(this.#drains);
  }

  async #drainStored(): Promise<void> {
    const stored = this.#stored;
    if (stored === undefined) return;
    if (this.#storedSinceSpell > 0) this.#start();
    while (!this.#stopped && this.#anyLeft(stored)) {
      if (this.#spell === undefined) {
        // What a whole spell could not prepare cannot be (an unreadable body): the export says so.
        if (this.#spellWrote === false) break;
        this.#start();
      }
      await new Promise<void>((resolve) => this.#batchWaiters.push(resolve));
    }
    // A run has ended: its thread's memory is the export's until the next run stores something.
    if (this.#spell === undefined) this.#runner.rest();
    else this.#restAfterSpell = true;
  }

  /**
   * Prepares what is left from before this process (an upgrade's whole library, or what a killed
   * process stored), telling its progress; resolves when done or stopped. Starts nothing (no thread)
   * when nothing is left.
   */
  async catchUp(onProgress?: (progress: PreparationProgress) => void): Promise<void> {
    if (!this.#anyLeft()) return;
    this.#start(onProgress);
    while (this.#spell !== undefined) await this.#spell;
  }

  /** Whether every stored transcript is indexed for search (derivation may be left). */
  indexComplete(): boolean {
    try {
      const { older, recent } = unindexedCounts(this.#db);
      return older + recent === 0;
    } catch {
      return false;
    }
  }

  /** Stops after the batch under way; what is left is prepared at the next start. */
  async close(): Promise<void> {
    this.#stopped = true;
    this.#waiting?.abort();
    this.#waiting = undefined;
    await this.#runner.close();
    await this.#spell;
  }

  /** Whether anything is left to prepare among `ids` (by default, every stored transcript). */
  #anyLeft(ids?: TranscriptIds): boolean {
    try {
      return anyTranscriptToPrepare(this.#db, this.#derivationName, ids);
    } catch (error) {
      this.#failedWith(preparationFailure(error));
      return false;
    }
  }

  #startLater(): void {
    const waiting = new AbortController();
    this.#waiting = waiting;
    this.#clock.sleep(PREPARATION_WAIT_MS, waiting.signal).then(
      () => {
        if (this.#waiting === waiting) this.#start();
      },
      () => undefined,
    );
  }

  /** Starts a spell now (telling `onProgress`), or has one follow the spell under way. */
  #start(onProgress?: (progress: PreparationProgress) => void): void {
    this.#waiting?.abort();
    this.#waiting = undefined;
    if (this.#stopped) return;
    if (this.#spell !== undefined) {
      this.#again = true;
      return;
    }
    this.#storedSinceSpell = 0;
    this.#spellWrote = false;
    this.#spell = this.#runner
      .spell({ onBatch: () => this.#batchWritten(), onProgress })
      .then((outcome) => this.#ended(outcome));
  }

  #batchWritten(): void {
    if (this.#spell !== undefined) this.#spellWrote = true;
    this.#wakeWaiters();
  }

  #wakeWaiters(): void {
    const waiters = this.#batchWaiters;
    this.#batchWaiters = [];
    for (const resolve of waiters) resolve();
  }

  #ended(outcome: SpellOutcome): void {
    this.#spell = undefined;
    if (!outcome.ok) this.#failedWith(outcome.failure);
    else if (this.#again) {
      this.#again = false;
      this.#start();
    } else if (this.#restAfterSpell) {
      this.#restAfterSpell = false;
      this.#runner.rest();
    }
    this.#wakeWaiters();
  }

  /**
   * Said once (even while closing), as every background writer says it: one plain line for a full
   * disk or an unusable folder, a stack only for a bug. The database says what is left, and the next
   * start does it.
   */
  #failedWith(failure: PreparationFailure): void {
    if (!this.#failed)
      reportBackgroundFailure(
        this.#logger,
        'Preparing stored transcripts for search and export stopped; it carries on at the next start',
        errorOf(failure),
        failure.plain,
      );
    this.#failed = true;
    this.#stopped = true;
  }
}

/** Spells on the engine's own thread and connection, a batch per turn of the event loop. */
class InThisThread implements SpellRunner {
  readonly #loop: PreparationLoop;
  readonly #stopped: () => boolean;

  constructor(
    db: Database,
    derivation: Derivation | undefined,
    batchSize: number | undefined,
    stopped: () => boolean,
  ) {
    this.#loop = new PreparationLoop(db, derivation, batchSize);
    this.#stopped = stopped;
  }

  spell({ onBatch, onProgress }: SpellListeners): Promise<SpellOutcome> {
    return this.#loop.run({
      stopped: this.#stopped,
      onBatch,
      ...(onProgress !== undefined && { onProgress }),
    });
  }

  rest(): void {
    // Nothing of its own to let go of.
  }

  async close(): Promise<void> {
    // Nothing of its own to end: the loop stops between batches once told.
  }
}

/**
 * Spells on a worker thread with its own connection (core/app/preparation-worker.ts), started at the
 * first spell: the fetch loop's thread then only hears how far it has come. What goes wrong there
 * crosses the thread as a message of one line, never as a stack.
 */
class OnWorkerThread implements SpellRunner {
  readonly #thread: PreparationThread;
  #worker: Worker | undefined;
  #exited: Promise<void> = Promise.resolve();
  /** The spell under way: what its messages are told to. */
  #current: (SpellListeners & { settle: (outcome: SpellOutcome) => void }) | undefined;

  constructor(thread: PreparationThread) {
    this.#thread = thread;
  }

  spell(listeners: SpellListeners): Promise<SpellOutcome> {
    return new Promise((resolve) => {
      this.#current = { ...listeners, settle: resolve };
      const request: PreparationRequest = { kind: 'prepare', tell: listeners.onProgress !== undefined };
      this.#started().postMessage(request);
    });
  }

  /** Ends the thread (it finishes nothing, being idle); the next spell starts another. */
  rest(): void {
    if (this.#current !== undefined) return;
    this.#worker?.postMessage({ kind: 'stop' } satisfies PreparationRequest);
    this.#worker = undefined;
  }

  async close(): Promise<void> {
    this.#worker?.postMessage({ kind: 'stop' } satisfies PreparationRequest);
    await this.#exited;
  }

  #started(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const { workerFile, databaseFile, nativeBinding } = this.#thread;
    const worker = new Worker(workerFile, {
      workerData: { databaseFile, ...(nativeBinding !== undefined && { nativeBinding }) },
      // It holds one batch at a time: a small heap keeps the process's memory down.
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 },
    });
    // What a thread let go of by rest() still says is no one's concern.
    const current = (): boolean => this.#worker === worker;
    worker.on('message', (raw: unknown) => {
      if (current()) this.#heard(raw);
    });
    // Said as data, in one line, like any failure of the work itself.
    worker.on('error', (error) => {
      if (current()) this.#settle({ ok: false, failure: preparationFailure(error) });
    });
    const exited = this.#exited;
    this.#exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        if (current()) {
          this.#worker = undefined;
          this.#settle({
            ok: false,
            failure: { message: `the thread preparing them stopped (exit code ${code})` },
          });
        }
        void exited.then(() => resolve());
      }),
    );
    this.#worker = worker;
    return worker;
  }

  #heard(raw: unknown): void {
    const message = PreparationMessage.safeParse(raw);
    if (!message.success) {
      this.#settle({
        ok: false,
        failure: { message: 'the thread preparing them answered something unknown' },
      });
      return;
    }
    const { data } = message;
    if (data.kind === 'batch') this.#current?.onBatch();
    else if (data.kind === 'progress') this.#current?.onProgress?.({ done: data.done, total: data.total });
    else if (data.kind === 'prepared') this.#settle({ ok: true });
    else
      this.#settle({ ok: false, failure: { plain: data.plain, message: data.message, stack: data.stack } });
  }

  #settle(outcome: SpellOutcome): void {
    const current = this.#current;
    this.#current = undefined;
    current?.settle(outcome);
  }
}

/** The failure as an Error again, with the stack it had on its thread (logged only for a bug). */
function errorOf(failure: PreparationFailure): Error {
  const error = new Error(failure.message);
  if (failure.stack !== undefined) error.stack = failure.stack;
  return error;
}
