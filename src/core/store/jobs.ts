import { z } from 'zod';
import type { Database } from './database';
import {
  JOB_STATUS,
  JOB_STATUSES,
  STOP_REASONS,
  type JobStatus,
  type StopReason,
} from '../../shared/vocabulary';
import type { Lease } from './leases';
import { preparedFor, sqlLiterals } from './prepared';

export type { JobStatus };

const JOB = sqlLiterals(JOB_STATUS);

const JobRowSchema = z
  .object({
    id: z.number().int(),
    key: z.string(),
    status: z.enum(JOB_STATUSES),
    options: z.string(),
    sources: z.string(),
    skipped: z.string(),
    budget: z.number().int().nullable(),
    stop_reason: z.enum(STOP_REASONS).nullable(),
    stop_code: z.string().nullable(),
    stop_message: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    finished_at: z.string().nullable(),
    lease_owner: z.string().nullable(),
    lease_expires_at: z.number().int().nullable(),
    settings: z.string(),
    keep_current: z.number().int(),
    auto_export_path: z.string().nullable(),
  })
  .transform((row) => ({
    id: row.id,
    key: row.key,
    status: row.status,
    /** JSON text, parsed by the engine. */
    optionsJson: row.options,
    sourcesJson: row.sources,
    skippedJson: row.skipped,
    /** How to run the job (JSON), parsed by the engine. */
    settingsJson: row.settings,
    budget: row.budget,
    stopReason: row.stop_reason,
    stopCode: row.stop_code,
    stopMessage: row.stop_message,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
    /** Null when no engine holds the job (a lease is written with both fields). */
    lease:
      row.lease_owner === null || row.lease_expires_at === null
        ? null
        : ({ owner: row.lease_owner, expiresAt: row.lease_expires_at } satisfies Lease),
    /** Marked Keep current: synced automatically. */
    keepCurrent: row.keep_current === 1,
    /** Where its corpus is written after each automatic sync; null: nowhere. */
    autoExportPath: row.auto_export_path,
  }));
export type JobRecord = z.output<typeof JobRowSchema>;

export interface NewJob {
  key: string;
  optionsJson: string;
  sourcesJson: string;
  skippedJson: string;
  at: string;
}

/** A job's new status; every field left out is cleared. */
export interface JobStatusChange {
  status: JobStatus;
  stopReason?: StopReason | null;
  stopCode?: string | null;
  stopMessage?: string | null;
  finishedAt?: string | null;
  at: string;
}

const statements = preparedFor((db) => ({
  insert: db.prepare<[string, string, string, string, string, string]>(
    `INSERT INTO jobs (key, status, options, sources, skipped, created_at, updated_at)
     VALUES (?, ${JOB.draft}, ?, ?, ?, ?, ?)`,
  ),
  setSettings: db.prepare<[string, string, number]>(
    'UPDATE jobs SET settings = ?, updated_at = ? WHERE id = ?',
  ),
  queued: db.prepare<[], unknown>(`SELECT * FROM jobs WHERE status = ${JOB.queued} ORDER BY updated_at, id`),
  byId: db.prepare<[number], unknown>('SELECT * FROM jobs WHERE id = ?'),
  byKey: db.prepare<[string], unknown>('SELECT * FROM jobs WHERE key = ?'),
  all: db.prepare<[], unknown>('SELECT * FROM jobs ORDER BY id'),
  setStatus: db.prepare<[string, string | null, string | null, string | null, string | null, string, number]>(
    `UPDATE jobs SET status = ?, stop_reason = ?, stop_code = ?, stop_message = ?, finished_at = ?, updated_at = ?
     WHERE id = ?`,
  ),
  setBudget: db.prepare<[number | null, string, number]>(
    'UPDATE jobs SET budget = ?, updated_at = ? WHERE id = ?',
  ),
  remove: db.prepare<[number]>('DELETE FROM jobs WHERE id = ?'),
  setKeepCurrent: db.prepare<[number, string, number]>(
    'UPDATE jobs SET keep_current = ?, updated_at = ? WHERE id = ?',
  ),
  setAutoExportPath: db.prepare<[string | null, string, number]>(
    'UPDATE jobs SET auto_export_path = ?, updated_at = ? WHERE id = ?',
  ),
  kept: db.prepare<[], unknown>('SELECT * FROM jobs WHERE keep_current = 1 ORDER BY id'),
  retireKey: db.prepare<[number]>(`UPDATE jobs SET key = 'retired:' || id || ':' || key WHERE id = ?`),
}));

function parseJob(row: unknown): JobRecord | undefined {
  return row === undefined ? undefined : JobRowSchema.parse(row);
}

export function insertJob(db: Database, job: NewJob): number {
  const { lastInsertRowid } = statements(db).insert.run(
    job.key,
    job.optionsJson,
    job.sourcesJson,
    job.skippedJson,
    job.at,
    job.at,
  );
  return Number(lastInsertRowid);
}

export function jobById(db: Database, id: number): JobRecord | undefined {
  return parseJob(statements(db).byId.get(id));
}

export function jobByKey(db: Database, key: string): JobRecord | undefined {
  return parseJob(statements(db).byKey.get(key));
}

export function allJobs(db: Database): JobRecord[] {
  return statements(db)
    .all.all()
    .map((row) => JobRowSchema.parse(row));
}

export function setJobStatus(db: Database, id: number, change: JobStatusChange): void {
  statements(db).setStatus.run(
    change.status,
    change.stopReason ?? null,
    change.stopCode ?? null,
    change.stopMessage ?? null,
    change.finishedAt ?? null,
    change.at,
    id,
  );
}

/** Jobs waiting for a runner, longest waiting first. */
export function queuedJobs(db: Database): JobRecord[] {
  return statements(db)
    .queued.all()
    .map((row) => JobRowSchema.parse(row));
}

export function setJobSettings(db: Database, id: number, settingsJson: string, at: string): void {
  statements(db).setSettings.run(settingsJson, at, id);
}

export function setJobBudget(db: Database, id: number, budget: number | null, at: string): void {
  statements(db).setBudget.run(budget, at, id);
}

/** Deletes the job with its sources and items; its ledger rows stay, detached. */
export function deleteJobRow(db: Database, id: number): boolean {
  return statements(db).remove.run(id).changes > 0;
}

export function setJobKeepCurrent(db: Database, id: number, on: boolean, at: string): void {
  statements(db).setKeepCurrent.run(Number(on), at, id);
}

export function setJobAutoExportPath(db: Database, id: number, path: string | null, at: string): void {
  statements(db).setAutoExportPath.run(path, at, id);
}

/** The jobs marked Keep current, oldest first. */
export function keptJobs(db: Database): JobRecord[] {
  return statements(db)
    .kept.all()
    .map((row) => JobRowSchema.parse(row));
}

/**
 * Gives up the job's identity, so that its sources and options make a new job (a cancelled job's,
 * asked for again): the key is kept, prefixed, for whoever reads the row.
 */
export function retireJobKey(db: Database, id: number): void {
  statements(db).retireKey.run(id);
}
