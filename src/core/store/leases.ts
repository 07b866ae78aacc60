import type { Database } from './database';
import { preparedFor } from './prepared';

/** Who holds a job's lease and until when (ms since the epoch). */
export interface Lease {
  owner: string;
  expiresAt: number;
}

const statements = preparedFor((db) => ({
  write: db.prepare<[string, number, number]>(
    'UPDATE jobs SET lease_owner = ?, lease_expires_at = ? WHERE id = ?',
  ),
  renew: db.prepare<[number, number, string]>(
    'UPDATE jobs SET lease_expires_at = ? WHERE id = ? AND lease_owner = ?',
  ),
  release: db.prepare<[number, string]>(
    'UPDATE jobs SET lease_owner = NULL, lease_expires_at = NULL WHERE id = ? AND lease_owner = ?',
  ),
  clear: db.prepare<[number]>('UPDATE jobs SET lease_owner = NULL, lease_expires_at = NULL WHERE id = ?'),
}));

/** Gives the job's lease to `lease.owner`, whoever held it; the caller has checked that it may. */
export function writeLease(db: Database, jobId: number, lease: Lease): void {
  statements(db).write.run(lease.owner, lease.expiresAt, jobId);
}

/** Moves the expiry of a lease `owner` still holds; a lease taken over meanwhile stays with its new holder. */
export function renewLease(db: Database, jobId: number, owner: string, expiresAt: number): void {
  statements(db).renew.run(expiresAt, jobId, owner);
}

/** Frees the job's lease if `owner` holds it; a lease taken over by someone else is left to them. */
export function releaseLease(db: Database, jobId: number, owner: string): void {
  statements(db).release.run(jobId, owner);
}

/** Frees the job's lease whoever holds it: for a lease its holder left behind (expired or dead). */
export function clearLease(db: Database, jobId: number): void {
  statements(db).clear.run(jobId);
}
