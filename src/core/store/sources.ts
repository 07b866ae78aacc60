import { z } from 'zod';
import type { Database } from './database';
import { preparedFor } from './prepared';

export const SOURCE_KINDS = ['video', 'playlist', 'channel', 'search'] as const;
export type SourceKindName = (typeof SOURCE_KINDS)[number];
export const WALK_STATUSES = ['pending', 'done', 'unavailable', 'failed'] as const;
export type WalkStatus = (typeof WALK_STATUSES)[number];

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
    walk_status: z.enum(WALK_STATUSES),
    pages: z.number().int(),
    videos_found: z.number().int(),
    error: z.string().nullable(),
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
    error: row.error,
  }));
export type SourceRecord = z.output<typeof SourceRowSchema>;

export interface NewSource {
  jobId: number;
  position: number;
  kind: SourceKindName;
  sourceId: string;
  input: string;
}

/** What one bought page changed: the next cursor, how many listed videos it added, whether the walk ended. */
export interface PageProgress {
  cursor: string | null;
  videos: number;
  walkStatus: WalkStatus;
}

const statements = preparedFor((db) => ({
  insert: db.prepare<[number, number, string, string, string]>(
    'INSERT INTO sources (job_id, position, kind, source_id, input) VALUES (?, ?, ?, ?, ?)',
  ),
  ofJob: db.prepare<[number], unknown>('SELECT * FROM sources WHERE job_id = ? ORDER BY position'),
  setResolved: db.prepare<[string, number]>('UPDATE sources SET resolved_channel_id = ? WHERE id = ?'),
  recordPage: db.prepare<[string | null, number, string, number]>(
    `UPDATE sources SET cursor = ?, pages = pages + 1, videos_found = videos_found + ?, walk_status = ?, error = NULL
     WHERE id = ?`,
  ),
  setWalk: db.prepare<[string, number, string | null, number]>(
    'UPDATE sources SET walk_status = ?, videos_found = videos_found + ?, error = ? WHERE id = ?',
  ),
  resetFailed: db.prepare<[number]>(
    "UPDATE sources SET walk_status = 'pending', error = NULL WHERE job_id = ? AND walk_status = 'failed'",
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
  statements(db).recordPage.run(progress.cursor, progress.videos, progress.walkStatus, sourceId);
}

/** Ends (or reopens) a walk without a page: a single video listed (videos 1), a 404, a failure. */
export function setWalkStatus(
  db: Database,
  sourceId: number,
  walkStatus: WalkStatus,
  change: { videos?: number; error?: string | null } = {},
): void {
  statements(db).setWalk.run(walkStatus, change.videos ?? 0, change.error ?? null, sourceId);
}

/** Reopens the job's failed walks; each continues from its stored cursor. */
export function resetFailedSources(db: Database, jobId: number): number {
  return statements(db).resetFailed.run(jobId).changes;
}
