import { randomUUID } from 'node:crypto';
import type { Clock } from '../api/types';
import type { Database } from '../store';
import { jobById } from '../store/jobs';
import { releaseLease, renewLease, writeLease, type Lease } from '../store/leases';

/**
 * How long a lease holds without renewal. Long enough that a busy process keeps its job; short
 * enough that a job left by a hung or vanished process is free again within half a minute.
 */
export const LEASE_MS = 30_000;

/** How often a running job renews its lease: two renewals may fail before it lapses. */
export const RENEW_EVERY_MS = 10_000;

/** A new owner id: this process's pid (so that others can see it died) and a random part per engine. */
export function newLeaseOwner(): string {
  return `${process.pid}-${randomUUID()}`;
}

/** The pid of an owner id made by newLeaseOwner; undefined for any other shape. */
function pidOf(owner: string): number | undefined {
  const match = /^(\d+)-/.exec(owner);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * Whether a process with this pid runs on this machine. Only ESRCH proves it gone; any other
 * error (EPERM: it exists but belongs to another user) counts as alive.
 */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return !(error instanceof Error && 'code' in error && error.code === 'ESRCH');
  }
}

/**
 * Whether `owner` may take a job with this lease: nobody holds it, `owner` does, it has expired,
 * or its holder's process is dead (a SIGKILLed run need not wait for the expiry).
 */
export function leaseIsFree(lease: Lease | null, owner: string, now: number): boolean {
  if (lease === null || lease.owner === owner || lease.expiresAt <= now) return true;
  const pid = pidOf(lease.owner);
  return pid !== undefined && !processIsAlive(pid);
}

export interface LeaseDeps {
  db: Database;
  clock: Clock;
  /** This engine's owner id. */
  owner: string;
}

/**
 * One engine's hold on one job while it runs it: taken in one transaction with the work that
 * needs it, renewed on a timer so that it does not lapse mid-run, released at the end.
 */
export class JobLease {
  readonly #deps: LeaseDeps;
  readonly #jobId: number;
  readonly #timer: NodeJS.Timeout;

  /**
   * Takes the job's lease if it is free (see leaseIsFree) and runs `underLease` in the same
   * immediate transaction, so that no other process can take it in between. Undefined when
   * another live process holds it.
   */
  static take(deps: LeaseDeps, jobId: number, underLease: () => void): JobLease | undefined {
    const { db, clock, owner } = deps;
    const taken = db
      .transaction(() => {
        const job = jobById(db, jobId);
        if (job === undefined || !leaseIsFree(job.lease, owner, clock.now())) return false;
        writeLease(db, jobId, { owner, expiresAt: clock.now() + LEASE_MS });
        underLease();
        return true;
      })
      .immediate();
    return taken ? new JobLease(deps, jobId) : undefined;
  }

  private constructor(deps: LeaseDeps, jobId: number) {
    this.#deps = deps;
    this.#jobId = jobId;
    // Unref'd: a lease must never keep the process alive on its own.
    this.#timer = setInterval(() => this.#renew(), RENEW_EVERY_MS).unref();
  }

  /** Stops renewing and frees the lease; call it inside the transaction that records the final status. Idempotent. */
  release(): void {
    clearInterval(this.#timer);
    releaseLease(this.#deps.db, this.#jobId, this.#deps.owner);
  }

  #renew(): void {
    const { db, clock, owner } = this.#deps;
    try {
      renewLease(db, this.#jobId, owner, clock.now() + LEASE_MS);
    } catch {
      // The database was busy beyond its timeout: the next tick tries again before the lease lapses.
    }
  }
}
