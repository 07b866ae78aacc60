/**
 * Schema 2: a lease on each job, so that two Scriptorium processes sharing the database never run
 * (or recover) the same job. NULL owner = nobody holds it.
 */
export const jobLease = `
-- Who runs the job now: '<pid>-<random id>' of one engine (see engine/lease.ts).
ALTER TABLE jobs ADD COLUMN lease_owner TEXT;
-- When the lease lapses unless renewed, in ms since the epoch.
ALTER TABLE jobs ADD COLUMN lease_expires_at INTEGER;
`;
