import { RESULT_GROUP_MS } from '../../shared/durability';
import type { Database } from '../store';

/** One result to store: what to write, and what to tell once it is written. */
export interface PendingResult {
  /** Runs inside the group's transaction. */
  write(): void;
  /** Runs after the transaction committed. */
  announce(): void;
  /** Runs instead of announce() when the transaction failed. */
  abandon?(error: unknown): void;
}

/**
 * Writes the results of a run in groups, one transaction per group rather than one per result (a
 * commit per result costs about a fifth more CPU per video: bench/RESULTS.md, "Durability"). A
 * result is announced only once its group has committed, so nothing reported is ever lost; a crash
 * loses at most the open group, whose items are still pending in the database and are fetched
 * again, exactly like requests in flight. A group closes after RESULT_GROUP_MS or at `groupSize`
 * results (the run's concurrency), so that what a crash can make the next run buy again stays within
 * twice the requests in flight: shared/durability.ts's promise.
 */
export class ResultWriter {
  readonly #onError: (error: unknown) => void;
  readonly #groupSize: number;
  /** Built once: better-sqlite3 makes a new wrapper on every db.transaction() call. */
  readonly #commit: (group: PendingResult[]) => void;
  #group: PendingResult[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** Requests sent and not answered yet (onTheWire): while there are some, a result may come to join the group. */
  #onTheWire = 0;
  /** Whether the open group holds an entry something waits on (written()). */
  #awaited = false;

  /** `onError` receives a failed commit (a full disk); the group's results are then not announced. */
  constructor(db: Database, onError: (error: unknown) => void, groupSize: number) {
    this.#onError = onError;
    this.#groupSize = groupSize;
    const write = db.transaction((group: PendingResult[]) => {
      for (const result of group) result.write();
    });
    this.#commit = (group) => write.immediate(group);
  }

  add(result: PendingResult): void {
    this.#group.push(result);
    if (this.#group.length >= this.#groupSize) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), RESULT_GROUP_MS);
  }

  /**
   * Writes `write` with the next group, and resolves with what it returned once the group has
   * committed (rejects when the commit failed): what must be on the disk before the run goes on, such
   * as a paid request about to be sent (engine/paid-requests.ts), shares the commit of the results.
   */
  written<T>(write: () => T): Promise<T> {
    return new Promise((resolve, reject) => {
      let value: T;
      this.add({ write: () => (value = write()), announce: () => resolve(value), abandon: reject });
      this.#awaited = true;
      // With no request on the wire, no result can come to share the commit: waiting would only idle.
      if (this.#onTheWire === 0) this.flush();
    });
  }

  /**
   * Sends `request` counted as on the wire until it settles. When the last one on the wire settles and
   * the open group holds an entry something waits on, the group is written once the settled request's
   * result has joined it (a turn of the event loop later).
   */
  async onTheWire<T>(request: () => Promise<T>): Promise<T> {
    this.#onTheWire += 1;
    try {
      return await request();
    } finally {
      this.#onTheWire -= 1;
      if (this.#onTheWire === 0 && this.#awaited) setImmediate(() => this.#onTheWire === 0 && this.flush());
    }
  }

  /** Writes the open group now (the run is ending, or stopping). */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const group = this.#group;
    this.#group = [];
    this.#awaited = false;
    if (group.length === 0) return;
    try {
      this.#commit(group);
    } catch (error) {
      this.#onError(error);
      for (const result of group) result.abandon?.(error);
      return;
    }
    for (const result of group) result.announce();
  }
}
