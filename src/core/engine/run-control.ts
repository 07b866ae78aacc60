import { setMaxListeners } from 'node:events';

/** Why a run stops before its work is done. */
export type StopCause =
  | { kind: 'credits'; code: string; meaning: string }
  | { kind: 'auth'; httpStatus: number; message: string }
  | { kind: 'budget' }
  | { kind: 'interrupted' }
  | { kind: 'user' }
  | { kind: 'cancelled' }
  | { kind: 'error'; error: unknown };

/**
 * Causes that abort requests in flight (their items go back to pending): an interrupt must
 * end the process within moments. The others let them finish and be recorded, since the
 * service may already have charged for them: a user's pause must not make the next run pay twice.
 */
const ABORTING: ReadonlySet<StopCause['kind']> = new Set(['interrupted', 'cancelled', 'error']);

/** A later cause replaces an earlier one only when it ranks higher: the user's word wins. */
const RANK: Record<StopCause['kind'], number> = {
  credits: 1,
  auth: 1,
  budget: 1,
  user: 2,
  interrupted: 2,
  error: 2,
  cancelled: 3,
};

/**
 * The shared state of one run: whether it must stop and why, the signal that aborts requests
 * in flight, and a wake-up for loops waiting for more work.
 */
export class RunControl {
  readonly #controller = new AbortController();
  readonly #external: AbortSignal | undefined;
  readonly #onExternalAbort = (): void => this.stop({ kind: 'interrupted' });
  readonly #onStop: (cause: StopCause) => void;
  #cause: StopCause | undefined;
  #wake: (() => void) | undefined;

  /** `onStop` runs synchronously whenever the cause is set or replaced. */
  constructor(external: AbortSignal | undefined, onStop: (cause: StopCause) => void) {
    this.#external = external;
    this.#onStop = onStop;
    // Every request in flight listens to this signal; concurrency decides how many there are.
    setMaxListeners(0, this.#controller.signal);
    if (external?.aborted) this.stop({ kind: 'interrupted' });
    else external?.addEventListener('abort', this.#onExternalAbort, { once: true });
  }

  /** Aborts the requests in flight when the run is interrupted, paused or cancelled. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get stopped(): boolean {
    return this.#cause !== undefined;
  }

  get cause(): StopCause | undefined {
    return this.#cause;
  }

  stop(cause: StopCause): void {
    if (this.#cause !== undefined && RANK[cause.kind] <= RANK[this.#cause.kind]) return;
    this.#cause = cause;
    if (ABORTING.has(cause.kind)) this.#controller.abort(new Error(`run stopped (${cause.kind})`));
    this.#onStop(cause);
    this.notify();
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
    this.#external?.removeEventListener('abort', this.#onExternalAbort);
  }
}
