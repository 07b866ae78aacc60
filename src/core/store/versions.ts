import { z } from 'zod';
import type { Database } from './database';
import { preparedFor } from './prepared';

/**
 * Versions of a job's corpus (docs/product.md, "Corpus versions"). Version 1 is everything the job
 * collected until it first completed; each later version is what a sync or a retry added, retried or
 * changed, released when the job completes again. A run that changed nothing makes no version. What
 * is not released yet belongs to the pending version, one above the last released.
 */

/** One released version, with what it brought. */
export interface VersionRecord {
  version: number;
  releasedAt: string;
  added: number;
  retried: number;
  changed: number;
}

/** One line of changes.csv: what a version after the first did to one video. */
export interface ChangeRecord {
  version: number;
  videoId: string;
  change: 'added' | 'retried' | 'changed';
  detail: string;
}

const VersionRowSchema = z.object({
  version: z.number().int(),
  released_at: z.string(),
  added: z.number().int(),
  retried: z.number().int(),
  changed: z.number().int(),
});

const ChangeRowSchema = z.object({
  version: z.number().int(),
  video_id: z.string(),
  change: z.enum(['added', 'retried', 'changed']),
  detail: z.string(),
});

const statements = preparedFor((db) => ({
  released: db.prepare<[number], { v: number | null }>(
    'SELECT max(version) AS v FROM versions WHERE job_id = ?',
  ),
  pendingWork: db.prepare<[number, number, number, number], { n: number }>(
    `SELECT (SELECT count(*) FROM items WHERE job_id = ? AND version = ?)
          + (SELECT count(*) FROM changes WHERE job_id = ? AND version = ?) AS n`,
  ),
  release: db.prepare<[number, number, string]>(
    'INSERT INTO versions (job_id, version, released_at) VALUES (?, ?, ?)',
  ),
  // The outcome of each retry, as the version is released.
  settleRetries: db.prepare<[number, number]>(
    `UPDATE changes SET detail = detail || ' -> ' || (SELECT status FROM items WHERE id = changes.item_id)
     WHERE job_id = ? AND version = ? AND change = 'retried'`,
  ),
  recordRetries: db.prepare<[number, string, number, string, number]>(
    `INSERT INTO changes (job_id, item_id, version, change, detail, at)
     SELECT job_id, id, ?, 'retried', status || CASE WHEN code IS NULL THEN '' ELSE ' (' || code || ')' END, ?
     FROM items WHERE job_id = ? AND status = ? AND NOT EXISTS (
       SELECT 1 FROM changes c WHERE c.item_id = items.id AND c.version = ? AND c.change = 'retried')`,
  ),
  recordChange: db.prepare(
    `INSERT INTO changes (job_id, item_id, version, change, detail, at)
     SELECT job_id, id, :version, 'changed', :detail, :at FROM items WHERE job_id = :jobId AND video_id = :videoId`,
  ),
  history: db.prepare<[number], unknown>(
    `SELECT v.version, v.released_at,
       (SELECT count(*) FROM items i WHERE i.job_id = v.job_id AND i.version = v.version) AS added,
       (SELECT count(*) FROM changes c WHERE c.job_id = v.job_id AND c.version = v.version
          AND c.change = 'retried') AS retried,
       (SELECT count(*) FROM changes c WHERE c.job_id = v.job_id AND c.version = v.version
          AND c.change = 'changed') AS changed
     FROM versions v WHERE v.job_id = ? ORDER BY v.version`,
  ),
  // Version 1 added everything it holds: changes.csv starts with version 2.
  changes: db.prepare<[number, number, number, number], unknown>(
    `SELECT i.version, i.video_id, 'added' AS change, s.input AS detail, i.number, 0 AS kind, 0 AS id
       FROM items i JOIN sources s ON s.id = i.source_id WHERE i.job_id = ? AND i.version > 1
     UNION ALL
     SELECT c.version, i.video_id, c.change,
       CASE WHEN c.change = 'retried' AND NOT EXISTS (
              SELECT 1 FROM versions v WHERE v.job_id = c.job_id AND v.version = c.version)
            THEN c.detail || ' -> ' || i.status ELSE c.detail END,
       i.number, 1 AS kind, c.id
       FROM changes c JOIN items i ON i.id = c.item_id WHERE c.job_id = ?
     ORDER BY 1, 5, 6, 7 LIMIT ? OFFSET ?`,
  ),
}));

/** The job's last released version; 0 before it first completed. */
export function releasedVersion(db: Database, jobId: number): number {
  return statements(db).released.get(jobId)?.v ?? 0;
}

/** The version what the job adds, retries or changes now belongs to: the one after the last released. */
export function pendingVersion(db: Database, jobId: number): number {
  return releasedVersion(db, jobId) + 1;
}

/** Whether the pending version holds anything: new videos, retries or changes not released yet. */
export function hasPendingChanges(db: Database, jobId: number): boolean {
  const version = pendingVersion(db, jobId);
  return (statements(db).pendingWork.get(jobId, version, jobId, version)?.n ?? 0) > 0;
}

/**
 * The version of the corpus the job holds now: the last released one, or the pending one when the
 * job has not completed it (it is the version under way, marked incomplete).
 */
export function currentVersion(db: Database, jobId: number): number {
  const released = releasedVersion(db, jobId);
  return released === 0 || hasPendingChanges(db, jobId) ? released + 1 : released;
}

/**
 * Releases the pending version as the job completes, in the transaction that writes its completion:
 * the first version always, a later one only when it holds something. Returns it, or undefined.
 */
export function releaseVersion(db: Database, jobId: number, at: string): number | undefined {
  const released = releasedVersion(db, jobId);
  if (released > 0 && !hasPendingChanges(db, jobId)) return undefined;
  const version = released + 1;
  statements(db).settleRetries.run(jobId, version);
  statements(db).release.run(jobId, version, at);
  return version;
}

/**
 * Records that the job's videos of `status` are fetched again on request, before they are put back in
 * the queue, when the job has released a version: the next version says so. During the first version
 * a retry is part of collecting it.
 */
export function recordRetries(
  db: Database,
  jobId: number,
  status: 'failed' | 'unavailable',
  at: string,
): void {
  const released = releasedVersion(db, jobId);
  if (released === 0) return;
  statements(db).recordRetries.run(released + 1, at, jobId, status, released + 1);
}

/** Records that something changed, in a version after the first, for a video the job holds. */
export function recordChange(
  db: Database,
  change: { jobId: number; videoId: string; version: number; detail: string; at: string },
): void {
  statements(db).recordChange.run({
    jobId: change.jobId,
    videoId: change.videoId,
    version: change.version,
    detail: change.detail,
    at: change.at,
  });
}

/** The job's released versions, oldest first, with what each brought (version 1: all it held). */
export function versionsOf(db: Database, jobId: number): VersionRecord[] {
  return statements(db)
    .history.all(jobId)
    .map((row) => {
      const parsed = VersionRowSchema.parse(row);
      return {
        version: parsed.version,
        releasedAt: parsed.released_at,
        added: parsed.added,
        retried: parsed.retried,
        changed: parsed.changed,
      };
    });
}

/** Rows of changes.csv read per query. */
const CHANGES_PAGE = 1000;

/**
 * changes.csv's rows, by version, then by corpus number, additions first; read page by page, since an
 * open cursor would keep the connection from a job running on it meanwhile.
 */
export function* changesOf(db: Database, jobId: number): Generator<ChangeRecord, void, undefined> {
  for (let offset = 0; ; offset += CHANGES_PAGE) {
    const rows = statements(db).changes.all(jobId, jobId, CHANGES_PAGE, offset);
    for (const row of rows) {
      const parsed = ChangeRowSchema.parse(row);
      yield {
        version: parsed.version,
        videoId: parsed.video_id,
        change: parsed.change,
        detail: parsed.detail,
      };
    }
    if (rows.length < CHANGES_PAGE) return;
  }
}
