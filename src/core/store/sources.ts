import { z } from 'zod';
import type { Database } from './database';
import {
  LIST_STATUS,
  LIST_STATUSES,
  SOURCE_KINDS,
  type ListStatus,
  type SourceKind,
  type UnwalkedListStatus,
} from '../../shared/vocabulary';
import { preparedFor, sqlLiterals } from './prepared';

/** How far a source's walk has come: a list status of shared/vocabulary.ts. */
export type WalkStatus = ListStatus;

const LIST = sqlLiterals(LIST_STATUS);

const SourceRowSchema = z
  .object({
    id: z.number().int(),
    job_id: z.number().int(),
    position: z.number().int(),
    kind: z.enum(SOURCE_KINDS),
    source_id: z.string(),
    input: z.string(),
    resolved_channel_id: z.string().nullable(),
    cursor: z.string().nullable(),
    walk_status: z.enum(LIST_STATUSES),
    pages: z.number().int(),
    videos_found: z.number().int(),
    error: z.string().nullable(),
    http_status: z.number().int().nullable(),
    error_code: z.string().nullable(),
    expected_videos: z.number().int().nullable(),
    title: z.string().nullable(),
  })
  .transform((row) => ({
    id: row.id,
    jobId: row.job_id,
    position: row.position,
    kind: row.kind,
    sourceId: row.source_id,
    input: row.input,
    resolvedChannelId: row.resolved_channel_id,
    cursor: row.cursor,
    walkStatus: row.walk_status,
    pages: row.pages,
    videosFound: row.videos_found,
    /** Why the walk failed, in plain words; with the HTTP status and service code when there was an answer. */
    error: row.error,
    httpStatus: row.http_status,
    errorCode: row.error_code,
    /** How many videos the service says the list holds, when it says so. */
    expectedVideos: row.expected_videos,
    title: row.title,
  }));
export type SourceRecord = z.output<typeof SourceRowSchema>;

export interface NewSource {
  jobId: number;
  position: number;
  kind: SourceKind;
  sourceId: string;
  input: string;
}

/** What one bought page changed: the next cursor, how many listed videos it added, whether the walk ended. */
export interface PageProgress {
  cursor: string | null;
  videos: number;
  walkStatus: WalkStatus;
  /** What the page says of the whole list; null keeps what is known. */
  expectedVideos: number | null;
  title: string | null;
}

/** Why a walk ended without its list: the HTTP status and code when the service answered. */
export interface WalkFailure {
  message: string;
  httpStatus?: number | null;
  code?: string | null;
}

const statements = preparedFor((db) => ({
  insert: db.prepare<[number, number, string, string, string]>(
    'INSERT INTO sources (job_id, position, kind, source_id, input) VALUES (?, ?, ?, ?, ?)',
  ),
  ofJob: db.prepare<[number], unknown>('SELECT * FROM sources WHERE job_id = ? ORDER BY position'),
  setResolved: db.prepare<[string, number]>('UPDATE sources SET resolved_channel_id = ? WHERE id = ?'),
  recordPage: db.prepare<[string | null, number, string, number | null, string | null, number]>(
    `UPDATE sources SET cursor = ?, pages = pages + 1, videos_found = videos_found + ?, walk_status = ?,
       expected_videos = coalesce(?, expected_videos), title = coalesce(title, ?),
       error = NULL, http_status = NULL, error_code = NULL
     WHERE id = ?`,
  ),
  setWalk: db.prepare<[string, number, number]>(
    `UPDATE sources SET walk_status = ?, videos_found = videos_found + ?, error = NULL, http_status = NULL,
       error_code = NULL WHERE id = ?`,
  ),
  failWalk: db.prepare<[string, string, number | null, string | null, number]>(
    'UPDATE sources SET walk_status = ?, error = ?, http_status = ?, error_code = ? WHERE id = ?',
  ),
  pagesOfJob: db.prepare<[number], { n: number | null }>(
    'SELECT sum(pages) AS n FROM sources WHERE job_id = ?',
  ),
  recordPageReadAgain: db.prepare<[string | null, number]>(
    'UPDATE sources SET cursor = ?, pages = pages + 1 WHERE id = ?',
  ),
  restartRead: db.prepare<[number]>('UPDATE sources SET cursor = NULL WHERE id = ?'),
  reopenFailed: db.prepare<[number]>(
    `UPDATE sources SET walk_status = ${LIST.pending}, error = NULL, http_status = NULL, error_code = NULL
     WHERE job_id = ? AND walk_status IN (${LIST.failed}, ${LIST.unavailable})`,
  ),
}));

export function insertSource(db: Database, source: NewSource): number {
  const { lastInsertRowid } = statements(db).insert.run(
    source.jobId,
    source.position,
    source.kind,
    source.sourceId,
    source.input,
  );
  return Number(lastInsertRowid);
}

export function sourcesOfJob(db: Database, jobId: number): SourceRecord[] {
  return statements(db)
    .ofJob.all(jobId)
    .map((row) => SourceRowSchema.parse(row));
}

export function setResolvedChannel(db: Database, sourceId: number, channelId: string): void {
  statements(db).setResolved.run(channelId, sourceId);
}

export function recordPage(db: Database, sourceId: number, progress: PageProgress): void {
  statements(db).recordPage.run(
    progress.cursor,
    progress.videos,
    progress.walkStatus,
    progress.expectedVideos,
    progress.title,
    sourceId,
  );
}

/** Ends (or reopens) a walk without a page: a single video listed (videos 1), a walk reopened. */
export function setWalkStatus(db: Database, sourceId: number, walkStatus: WalkStatus, videos = 0): void {
  statements(db).setWalk.run(walkStatus, videos, sourceId);
}

/** Ends a walk that could not go on: unavailable (404) or failed; its cursor stays for the next try. */
export function failWalk(
  db: Database,
  sourceId: number,
  walkStatus: UnwalkedListStatus,
  failure: WalkFailure,
): void {
  statements(db).failWalk.run(
    walkStatus,
    failure.message,
    failure.httpStatus ?? null,
    failure.code ?? null,
    sourceId,
  );
}

/** List pages the job has bought, all its lists together. */
export function pagesOfJob(db: Database, jobId: number): number {
  return statements(db).pagesOfJob.get(jobId)?.n ?? 0;
}

/** A page of a list read again (a sync's): counted, its cursor kept; the walk stays done. */
export function recordPageReadAgain(db: Database, sourceId: number, cursor: string | null): void {
  statements(db).recordPageReadAgain.run(cursor, sourceId);
}

/**
 * A sync could not read the list to its end: the next run reads it again from its start, as a sync
 * (a list read before, its cursor cleared: sync.ts `readAgainFailedSyncs`).
 */
export function restartRead(db: Database, sourceId: number): void {
  statements(db).restartRead.run(sourceId);
}

/**
 * Reopens the job's walks that could not be done (failed or unavailable); each continues from its
 * stored cursor. Returns how many.
 */
export function reopenFailedWalks(db: Database, jobId: number): number {
  return statements(db).reopenFailed.run(jobId).changes;
}
