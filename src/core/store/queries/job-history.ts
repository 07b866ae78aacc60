import { z } from 'zod';
import { ITEM_CODE, ITEM_STATUS } from '../../../shared/vocabulary';
import type { Database } from '../database';
import { readOnlyPreparedFor, sqlLiterals } from '../prepared';
import { languagesOfJob } from './export-rows';

/**
 * What a job has been through, as Job detail and the export's datasheet tell it: its syncs, what its
 * filters left out, its transcripts by language, its released versions, and its failed videos.
 */

const ITEM = sqlLiterals(ITEM_STATUS);
const CODE = sqlLiterals(ITEM_CODE);

/** One bringing-up-to-date of a finished job. */
export interface SyncRecord {
  at: string;
  newVideos: number;
  credits: number;
}

/** One released version, with what it brought. */
export interface VersionRecord {
  version: number;
  releasedAt: string;
  added: number;
  retried: number;
  changed: number;
  /** How many parts of what the corpus says of itself it changed. */
  metadata: number;
}

/** A job's history: its syncs (oldest first), each filter's videos left out, its languages, its versions. */
export interface JobHistory {
  syncs: SyncRecord[];
  skippedByFilter: Array<{ reason: string; videos: number }>;
  languages: Record<string, number>;
  versions: VersionRecord[];
}

const SyncRowSchema = z
  .object({ started_at: z.string(), new_videos: z.number().int(), credits: z.number().int() })
  .transform((row): SyncRecord => ({ at: row.started_at, newVideos: row.new_videos, credits: row.credits }));

const VersionRowSchema = z.object({
  version: z.number().int(),
  released_at: z.string(),
  added: z.number().int(),
  retried: z.number().int(),
  changed: z.number().int(),
  metadata: z.number().int(),
});

const statements = readOnlyPreparedFor((db) => ({
  syncs: db.prepare<[number], unknown>(
    'SELECT started_at, new_videos, credits FROM syncs WHERE job_id = ? AND finished_at IS NOT NULL ORDER BY id',
  ),
  // Each list's own reason (a video two lists left out for the same reason counts once under it).
  skippedByFilter: db.prepare<[number], { reason: string; videos: number }>(
    `SELECT m.skip_reason AS reason, count(DISTINCT i.id) AS videos FROM items i
     JOIN memberships m ON m.item_id = i.id AND m.skip_code = ${CODE.filteredOut}
     WHERE i.job_id = ? AND i.status = ${ITEM.skipped} AND i.code = ${CODE.filteredOut}
     GROUP BY m.skip_reason ORDER BY videos DESC, reason`,
  ),
  // Reads the failed rows only, usually few; those a forced stop cut off are counted apart.
  failedByStatus: db.prepare<[number], { httpStatus: number | null; code: string | null; videos: number }>(
    `SELECT http_status AS httpStatus, code, count(*) AS videos FROM items
     WHERE job_id = ? AND status = ${ITEM.failed} AND coalesce(code, '') != ${CODE.cutOff}
     GROUP BY http_status, code ORDER BY videos DESC, http_status, code`,
  ),
  services: db.prepare<[number], { address: string; api_version: string }>(
    'SELECT address, api_version FROM job_services WHERE job_id = ? ORDER BY first_used_at, address',
  ),
  history: db.prepare<[number], unknown>(
    `SELECT v.version, v.released_at,
       (SELECT count(*) FROM items i WHERE i.job_id = v.job_id AND i.version = v.version) AS added,
       (SELECT count(*) FROM changes c WHERE c.job_id = v.job_id AND c.version = v.version
          AND c.change = 'retried') AS retried,
       (SELECT count(*) FROM changes c WHERE c.job_id = v.job_id AND c.version = v.version
          AND c.change = 'changed') AS changed,
       (SELECT count(*) FROM changes c WHERE c.job_id = v.job_id AND c.version = v.version
          AND c.change = 'metadata') AS metadata
     FROM versions v WHERE v.job_id = ? ORDER BY v.version`,
  ),
}));

/** The job's syncs, the videos each filter left out, its transcripts by language, and its released versions. */
export function jobHistory(db: Database, jobId: number): JobHistory {
  return {
    syncs: syncsOfJob(db, jobId),
    skippedByFilter: skippedByFilter(db, jobId),
    languages: languagesOfJob(db, jobId),
    versions: versionsOf(db, jobId),
  };
}

/** The job's finished syncs, oldest first. */
export function syncsOfJob(db: Database, jobId: number): SyncRecord[] {
  return statements(db)
    .syncs.all(jobId)
    .map((row) => SyncRowSchema.parse(row));
}

/** How many videos each filter left out, most first. */
export function skippedByFilter(db: Database, jobId: number): Array<{ reason: string; videos: number }> {
  return statements(db).skippedByFilter.all(jobId);
}

/** The job's failed videos (not those a forced stop cut off), by the last HTTP status and code they had. */
export function failedByStatus(
  db: Database,
  jobId: number,
): Array<{ httpStatus: number | null; code: string | null; videos: number }> {
  return statements(db).failedByStatus.all(jobId);
}

/** The service's addresses the job's runs used, with their API version, first used first. */
export function servicesOfJob(db: Database, jobId: number): Array<{ address: string; apiVersion: string }> {
  return statements(db)
    .services.all(jobId)
    .map((row) => ({ address: row.address, apiVersion: row.api_version }));
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
        metadata: parsed.metadata,
      };
    });
}
