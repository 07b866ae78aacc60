import { setMaxListeners } from 'node:events';
import { STOP_REASON } from '../../shared/vocabulary';
import { asStorageError } from '../store';

/** Why a run stops before its work is done: a stop reason of shared/vocabulary.ts, with its details. */
export type StopCause =
  | { kind: 'credits'; code: string; meaning: string }
  | { kind: 'auth'; httpStatus: number; message: string }
  /** The job's budget, or (with its code and message) a cap on the run such as the daily credit limit. */
  | { kind: 'budget'; code?: string; message?: string }
  /** The service cannot be reached, keeps failing, or asked to wait longer than we will. */
  | { kind: 'service'; message: string }
  | { kind: 'interrupted' }
  | { kind: 'user' }
  /** The process is closing: the job continues at its next start. */
  | { kind: 'shutdown' }
  | { kind: 'cancelled' }
  | { kind: 'error'; error: unknown };

/** How long requests in flight may take to finish once a run is told to stop (docs/product.md's interrupt rule). */
export const DRAIN_MS = 10_000;

/** A later cause replaces an earlier one only when it ranks higher: the user's word wins. */
const RANK: Record<StopCause['kind'], number> = {
  credits: 1,
  auth: 1,
  budget: 1,
  service: 1,
  user: 2,
  interrupted: 2,
  shutdown: 2,
  error: 2,
  cancelled: 3,
};

export interface RunControlOptions {
  /** Aborted by the first interrupt (SIGINT): the run drains and stops as 'interrupted'. */
  interrupt?: AbortSignal;
  /** Aborted by a second interrupt: requests in flight are cut at once. */
  force?: AbortSignal;
  /** Longest drain before requests in flight are cut. Default DRAIN_MS. */
  drainMs?: number;
}

/**
 * The shared state of one run: whether it must stop and why, and a wake-up for loops waiting for
 * more work. Stopping drains: no new request starts and every wait ends (`stopSignal`), while the
 * requests in flight finish and are recorded, since the service may already have charged them.
 * Only an error, a forced stop or a drain that outlasts `drainMs` cuts them (`abortSignal`).
 */
export class RunControl {
  readonly #stop = new AbortController();
  readonly #abort = new AbortController();
  readonly #options: RunControlOptions;
  readonly #onInterrupt = (): void => this.stop({ kind: STOP_REASON.interrupted });
  readonly #onForce = (): void => this.abortInFlight();
  readonly #onStop: (cause: StopCause) => void;
  #drainTimer: NodeJS.Timeout | undefined;
  #cause: StopCause | undefined;
  #wake: (() => void) | undefined;

  /** `onStop` runs synchronously whenever the cause is set or replaced. */
  constructor(options: RunControlOptions, onStop: (cause: StopCause) => void) {
    this.#options = options;
    this.#onStop = onStop;
    // Every request in flight listens to these signals; concurrency decides how many there are.
    setMaxListeners(0, this.#stop.signal, this.#abort.signal);
    const { interrupt, force } = options;
    if (force?.aborted) this.abortInFlight();
    else force?.addEventListener('abort', this.#onForce, { once: true });
    if (interrupt?.aborted) this.stop({ kind: STOP_REASON.interrupted });
    else interrupt?.addEventListener('abort', this.#onInterrupt, { once: true });
  }

  /** Aborted once the run must stop: no new request, no further wait. */
  get stopSignal(): AbortSignal {
    return this.#stop.signal;
  }

  /** Aborted when requests in flight must be cut. */
  get abortSignal(): AbortSignal {
    return this.#abort.signal;
  }

  get stopped(): boolean {
    return this.#cause !== undefined;
  }

  get cause(): StopCause | undefined {
    return this.#cause;
  }

  stop(cause: StopCause): void {
    if (this.#cause !== undefined && RANK[cause.kind] <= RANK[this.#cause.kind]) return;
    const first = this.#cause === undefined;
    this.#cause = cause;
    // A bug cuts what is in flight at once. A full disk (or a folder that cannot be written) drains
    // like a pause instead: what the requests bring cannot be stored, so they are asked again by
    // the next run, as after a crash, rather than cut and left for the user as possibly charged.
    if (cause.kind === STOP_REASON.error && asStorageError(cause.error) === undefined) this.abortInFlight();
    if (first) {
      this.#stop.abort(new Error(`run stopped (${cause.kind})`));
      this.#drainTimer = setTimeout(() => this.abortInFlight(), this.#options.drainMs ?? DRAIN_MS).unref();
    }
    this.#onStop(cause);
    this.notify();
  }

  /** Cuts the requests in flight now (they may still be charged: the engine records them as such). */
  abortInFlight(): void {
    if (!this.#stop.signal.aborted) this.stop({ kind: STOP_REASON.interrupted });
    this.#abort.abort(new Error('requests in flight aborted'));
  }

  /** Resolves at the next notify() or stop(). */
  changed(): Promise<void> {
    return new Promise((resolve) => {
      const previous = this.#wake;
      this.#wake = () => {
        previous?.();
        resolve();
      };
    });
  }

  /** Something the waiting loops may care about happened (a page of new items, the walk ended). */
  notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  dispose(): void {
    clearTimeout(this.#drainTimer);
    this.#options.interrupt?.removeEventListener('abort', this.#onInterrupt);
    this.#options.force?.removeEventListener('abort', this.#onForce);
  }
}
