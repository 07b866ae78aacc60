import type { AppError } from './errors';

/**
 * The jobs this process (the desktop app, browser mode) could not run or sync automatically, and
 * why, in the words the user reads on the job. A queued job that cannot start for want of a key or
 * a service address stays queued and waits here rather than being paused: it runs once the user
 * gives what is missing (docs/product.md, "a running job continues at the next start"), as does an
 * automatic sync that could not run. Kept in memory: at the next start, the runner and the schedule
 * try again anyway.
 */
/** Why an automatic sync could not run; `waitsForSetup` when it runs once a key or an address is given. */
export interface SyncProblem {
  why: string;
  waitsForSetup: boolean;
}

export class SetupWaits {
  /** Queued jobs that cannot start yet: what is missing. */
  readonly #runs = new Map<number, string>();
  /** Kept jobs whose last automatic sync here could not run: why, and whether it waits for a key or an address. */
  readonly #syncs = new Map<number, SyncProblem>();

  /** What a queued job waits for before it can start here; null when nothing. */
  runWaitingFor(jobId: number): string | null {
    return this.#runs.get(jobId) ?? null;
  }

  /** Why the job's last automatic sync here could not run; null when it ran. */
  syncProblem(jobId: number): SyncProblem | null {
    return this.#syncs.get(jobId) ?? null;
  }

  runWaits(jobId: number, missing: string): void {
    this.#runs.set(jobId, missing);
  }

  syncFailed(jobId: number, problem: SyncProblem): void {
    this.#syncs.set(jobId, problem);
  }

  syncRan(jobId: number): void {
    this.#syncs.delete(jobId);
  }

  /**
   * The key or the service address changed: every wait ends. Returns the jobs that waited, those
   * to start and those to sync, for the caller to take up now.
   */
  release(): { runs: number[]; syncs: number[] } {
    const released = { runs: [...this.#runs.keys()], syncs: [...this.#syncs.keys()] };
    this.#runs.clear();
    this.#syncs.clear();
    return released;
  }
}

/** Whether a failure is one the user fixes in Settings (no key, no or a bad service address). */
export function needsSetup(failure: AppError): boolean {
  return failure.code === 'no_key' || failure.code === 'invalid_input';
}
