import { z } from 'zod';
import type { Database } from './database';
import { preparedFor } from './prepared';
import { ITEM_COLUMNS, ITEM_TABLES } from './queries/export-rows';
import type { SyncRecord } from './queries/job-history';

/**
 * Versions of a job's corpus (docs/product.md, "Corpus versions and citation"). A version is what an
 * export wrote (migration 011-export-versions): the export that finds the corpus's contents differ
 * from the last version's releases the next one, at its own time; one that finds them equal writes
 * that version again, with its history as it was. What the job adds, retries or changes meanwhile
 * belongs to the pending version, one above the last released.
 */

/** What a corpus says of itself (title, authors, license, formats…), each part as a person reads it. */
export type CorpusMetadata = Readonly<Record<string, string>>;

/** The job's history as a version gives it: every export of that version writes it again. */
export interface CorpusState {
  finishedAt: string;
  creditsSpent: number;
  creditsPossible: number;
  syncs: SyncRecord[];
}

/** What an export asks to release: its contents' fingerprint (undefined: not known), and what to keep. */
export interface Release {
  contents: string | undefined;
  metadata: CorpusMetadata;
  state: CorpusState;
  /**
   * What the export is written from besides the job's rows, as text (core/app/version-inputs.ts): kept
   * with the version, with its rows as they are now, so that it can be written again.
   */
  inputs: string;
  at: string;
}

/** The version an export writes: its number, and the history to write with it. */
export interface ReleasedVersion {
  version: number;
  state: CorpusState;
}

export const CorpusStateSchema = z.object({
  finishedAt: z.string(),
  creditsSpent: z.number(),
  creditsPossible: z.number(),
  syncs: z.array(z.object({ at: z.string(), newVideos: z.number(), credits: z.number() })),
});

const LastVersionSchema = z.object({
  version: z.number().int(),
  contents: z.string().nullable(),
  metadata: z.string().nullable(),
  state: z.string().nullable(),
});

/** A retry's detail says the video's status (and code) before it: "unavailable (not_found)". */
const STATUS_AND_CODE = `status || CASE WHEN code IS NULL THEN '' ELSE ' (' || code || ')' END`;

const statements = preparedFor((db) => ({
  released: db.prepare<[number], { v: number | null }>(
    'SELECT max(version) AS v FROM versions WHERE job_id = ?',
  ),
  last: db.prepare<[number], unknown>(
    `SELECT version, contents, metadata, state FROM versions WHERE job_id = ?
     ORDER BY version DESC LIMIT 1`,
  ),
  release: db.prepare(
    `INSERT INTO versions (job_id, version, released_at, contents, metadata, state, inputs)
     VALUES (:jobId, :version, :at, :contents, :metadata, :state, :inputs)`,
  ),
  // Each video's row as the export reads it, when it differs from the last one kept.
  keepVideos: db.prepare<{ jobId: number; version: number }>(
    `INSERT INTO version_videos (item_id, version, job_id, number, row)
     SELECT now.item_id, :version, :jobId, now.number, now.row FROM (
       SELECT i.id AS item_id, i.number,
         json_object(${ITEM_COLUMNS.map(([name, expression]) => `'${name}', ${expression}`).join(', ')}) AS row
       FROM ${ITEM_TABLES} WHERE i.job_id = :jobId
     ) now
     WHERE now.row IS NOT (SELECT v.row FROM version_videos v WHERE v.item_id = now.item_id
                           ORDER BY v.version DESC LIMIT 1)`,
  ),
  // Each list's place of each video, when it differs from the last one kept.
  keepPlaces: db.prepare<{ jobId: number; version: number }>(
    `INSERT INTO version_memberships (item_id, source_id, version, job_id, position, listed_at)
     SELECT m.item_id, m.source_id, :version, :jobId, m.position, m.listed_at
     FROM items i JOIN memberships m ON m.item_id = i.id
     WHERE i.job_id = :jobId AND NOT EXISTS (
       SELECT 1 FROM version_memberships k
       WHERE k.item_id = m.item_id AND k.source_id = m.source_id
         AND k.version = (SELECT max(x.version) FROM version_memberships x
                          WHERE x.item_id = m.item_id AND x.source_id = m.source_id)
         AND k.position IS m.position AND k.listed_at IS m.listed_at)`,
  ),
  // A retry that left its video as it was changed nothing: the version does not list it.
  dropIdleRetries: db.prepare<[number, number]>(
    `DELETE FROM changes WHERE job_id = ? AND version = ? AND change = 'retried'
       AND detail = (SELECT ${STATUS_AND_CODE} FROM items WHERE id = changes.item_id)`,
  ),
  // The outcome of each retry, as the version is released.
  settleRetries: db.prepare<[number, number]>(
    `UPDATE changes SET detail = detail || ' -> ' || (SELECT status FROM items WHERE id = changes.item_id)
     WHERE job_id = ? AND version = ? AND change = 'retried'`,
  ),
  recordMetadata: db.prepare<[number, number, string, string]>(
    `INSERT INTO changes (job_id, item_id, version, change, detail, at) VALUES (?, NULL, ?, 'metadata', ?, ?)`,
  ),
  recordRetries: db.prepare<[number, string, number, string, number]>(
    `INSERT INTO changes (job_id, item_id, version, change, detail, at)
     SELECT job_id, id, ?, 'retried', ${STATUS_AND_CODE}, ?
     FROM items WHERE job_id = ? AND status = ? AND NOT EXISTS (
       SELECT 1 FROM changes c WHERE c.item_id = items.id AND c.version = ? AND c.change = 'retried')`,
  ),
  recordChange: db.prepare(
    `INSERT INTO changes (job_id, item_id, version, change, detail, at)
     SELECT job_id, id, :version, 'changed', :detail, :at FROM items WHERE job_id = :jobId AND video_id = :videoId`,
  ),
}));

/** The job's last released version; 0 before its first export. */
export function releasedVersion(db: Database, jobId: number): number {
  return statements(db).released.get(jobId)?.v ?? 0;
}

/** The version what the job adds, retries or changes now belongs to: the one after the last released. */
export function pendingVersion(db: Database, jobId: number): number {
  return releasedVersion(db, jobId) + 1;
}

/**
 * The version an export of these contents writes, in one transaction the caller opens: the last one,
 * with the history it was released with, when its contents are the same; else the next, released
 * now with `release`'s history, what of the corpus's metadata changed, the outcome of its retries (a
 * retry that left its video as it was is not among them), and what it is written from (its inputs,
 * and its rows as they are now), so that it can be written again.
 */
export function releaseVersion(db: Database, jobId: number, release: Release): ReleasedVersion {
  const last = lastVersion(db, jobId);
  if (last?.state !== undefined && release.contents !== undefined && last.contents === release.contents) {
    return { version: last.version, state: last.state };
  }
  const version = (last?.version ?? 0) + 1;
  const prepared = statements(db);
  prepared.dropIdleRetries.run(jobId, version);
  prepared.settleRetries.run(jobId, version);
  if (last?.metadata !== undefined) {
    for (const detail of metadataChanges(last.metadata, release.metadata))
      prepared.recordMetadata.run(jobId, version, detail, release.at);
  }
  prepared.release.run({
    jobId,
    version,
    at: release.at,
    contents: release.contents ?? null,
    metadata: JSON.stringify(release.metadata),
    state: JSON.stringify(release.state),
    inputs: release.inputs,
  });
  // Kept as the version is released, added to and never changed: a later sync, retry or change of a
  // listing rewrites the job's rows, not these.
  prepared.keepVideos.run({ jobId, version });
  prepared.keepPlaces.run({ jobId, version });
  return { version, state: release.state };
}

function lastVersion(
  db: Database,
  jobId: number,
): { version: number; contents: string | null; metadata?: CorpusMetadata; state?: CorpusState } | undefined {
  const row = statements(db).last.get(jobId);
  if (row === undefined) return undefined;
  const parsed = LastVersionSchema.parse(row);
  return {
    version: parsed.version,
    contents: parsed.contents,
    ...(parsed.metadata !== null && {
      metadata: z.record(z.string(), z.string()).parse(JSON.parse(parsed.metadata)),
    }),
    ...(parsed.state !== null && { state: CorpusStateSchema.parse(JSON.parse(parsed.state)) }),
  };
}

/** A part of the metadata as changes.csv shows it: a text of several lines on one, a long one by its beginning. */
function shown(value: string | undefined): string {
  if (value === undefined || value === '') return 'none';
  const line = value.replace(/\s+/g, ' ').trim();
  const cut = line.length > SHOWN_CHARS ? `${line.slice(0, SHOWN_CHARS)}…` : line;
  return cut === value ? value : `"${cut}"`;
}

/** Characters of a metadata part shown in changes.csv. */
const SHOWN_CHARS = 60;

/** What changed between two versions' metadata, a line per part: "license: CC-BY-4.0 -> ODbL-1.0". */
export function metadataChanges(before: CorpusMetadata, after: CorpusMetadata): string[] {
  const parts = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  return parts
    .filter((part) => (before[part] ?? '') !== (after[part] ?? ''))
    .map((part) => `${part}: ${shown(before[part])} -> ${shown(after[part])}`);
}

/**
 * Records that the job's videos of `status` are fetched again on request, before they are put back in
 * the queue, when the job has released a version: the next version says so. Before the first export
 * a retry is part of collecting the first version.
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
