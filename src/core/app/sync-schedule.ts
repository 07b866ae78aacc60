import type { Clock } from '../api';
import type { Logger } from '../engine';

export interface SyncScheduleDeps {
  /** The jobs marked Keep current, oldest first. */
  marked(): number[];
  /** Syncs one job automatically; resolves when it is over. A failure is logged and the round goes on. */
  sync(jobId: number): Promise<void>;
  /** The time between two rounds, in ms (Settings' "Sync every (hours)"), read again before each wait. */
  intervalMs(): number;
  /** The schedule has changed (a round started or ended, the interval changed): the jobs' next sync moved. */
  onScheduled(): void;
  clock: Clock;
  logger: Logger;
}

/**
 * Keeps the marked jobs current while the app runs (the desktop app, browser mode): a round syncs
 * each marked job, one after another, at start and then every interval, measured from the start of
 * the last round so that long syncs do not make the schedule drift. A job marked between two rounds
 * waits for the next one. Every wait is on the app's clock, so tests drive it with a fake one.
 */
export class SyncSchedule {
  readonly #deps: SyncScheduleDeps;
  readonly #loop: Promise<void>;
  #stopped = false;
  #wake: AbortController | undefined;
  /** When the round under way started, and the jobs it has still to sync. */
  #round: { startedAt: number; waiting: Set<number> } | undefined;
  #nextRoundAt: number | undefined;
  /** Jobs to sync now, between two rounds (syncSoon). */
  readonly #soon = new Set<number>();

  constructor(deps: SyncScheduleDeps) {
    this.#deps = deps;
    this.#loop = this.#run();
  }

  /**
   * When the job is synced next, in ms: the start of the round under way for one it has still to
   * sync, else the next round's. Undefined once stopped.
   */
  nextSyncAt(jobId: number): number | undefined {
    if (this.#stopped) return undefined;
    if (this.#round?.waiting.has(jobId)) return this.#round.startedAt;
    if (this.#soon.has(jobId)) return this.#deps.clock.now();
    return this.#nextRoundAt;
  }

  /**
   * Syncs these jobs now, in a round of their own (one whose sync could not run, once the key is
   * given); the next full round keeps its time.
   */
  syncSoon(jobIds: readonly number[]): void {
    if (jobIds.length === 0) return;
    for (const jobId of jobIds) this.#soon.add(jobId);
    this.#deps.onScheduled();
    this.#wake?.abort();
  }

  /** The interval may have changed: the wait for the next round is measured again. */
  reschedule(): void {
    this.#wake?.abort();
  }

  /** Starts no further sync; resolves once the loop is over (the caller stops the sync under way). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.abort();
    await this.#loop;
  }

  async #run(): Promise<void> {
    // The first round starts a tick after the app opens, so that a face that looks at its jobs and
    // subscribes to their events right after openApp sees them before the round changes them.
    await this.#deps.clock.sleep(0).catch(() => undefined);
    while (!this.#stopped) {
      const startedAt = this.#deps.clock.now();
      await this.#runRound(startedAt);
      await this.#waitForNextRound(startedAt);
    }
  }

  /** One round: each of `jobIds` (the marked jobs) synced automatically, one after another. */
  async #runRound(startedAt: number, jobIds: readonly number[] = this.#deps.marked()): Promise<void> {
    const waiting = new Set(jobIds);
    this.#round = { startedAt, waiting };
    this.#nextRoundAt = undefined;
    this.#deps.onScheduled();
    for (const jobId of [...waiting]) {
      if (this.#stopped) break;
      try {
        await this.#deps.sync(jobId);
      } catch (error) {
        this.#deps.logger.warn(
          `The automatic sync of job ${jobId} failed; the next round tries again.`,
          error,
        );
      }
      waiting.delete(jobId);
    }
    this.#round = undefined;
  }

  async #waitForNextRound(startedAt: number): Promise<void> {
    while (!this.#stopped) {
      if (this.#soon.size > 0) {
        const marked = new Set(this.#deps.marked());
        const soon = [...this.#soon].filter((jobId) => marked.has(jobId));
        this.#soon.clear();
        await this.#runRound(this.#deps.clock.now(), soon);
        continue;
      }
      const next = startedAt + this.#deps.intervalMs();
      if (this.#nextRoundAt !== next) {
        this.#nextRoundAt = next;
        this.#deps.onScheduled();
      }
      const waitMs = next - this.#deps.clock.now();
      if (waitMs <= 0) return;
      const wake = new AbortController();
      this.#wake = wake;
      await this.#deps.clock.sleep(waitMs, wake.signal).catch(() => undefined);
      this.#wake = undefined;
    }
  }
}
