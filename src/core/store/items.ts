import { z } from 'zod';
import type { Database } from './database';
import { preparedFor } from './prepared';

export const ITEM_STATUSES = ['pending', 'fetching', 'ok', 'unavailable', 'failed', 'skipped'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
/** Where an item's fetch ended. */
export type FinalItemStatus = 'ok' | 'unavailable' | 'failed';

const PendingItemSchema = z
  .object({ id: z.number().int(), video_id: z.string() })
  .transform((row) => ({ id: row.id, videoId: row.video_id }));
export type PendingItem = z.output<typeof PendingItemSchema>;

export interface NewItem {
  jobId: number;
  sourceId: number;
  position: number;
  videoId: string;
  title: string;
  at: string;
}

export interface ItemResult {
  status: FinalItemStatus;
  /** HTTP attempts spent on this try, added to the item's total. */
  attempts: number;
  httpStatus?: number | null;
  code?: string | null;
  message?: string | null;
  transcriptId?: number | null;
  at: string;
}

export interface ItemCounts {
  total: number;
  pending: number;
  fetching: number;
  ok: number;
  unavailable: number;
  failed: number;
  skipped: number;
}

const CountRowSchema = z.object({ status: z.enum(ITEM_STATUSES), n: z.number().int() });

const statements = preparedFor((db) => ({
  insert: db.prepare<[number, number, number, string, string, string]>(
    `INSERT OR IGNORE INTO items (job_id, source_id, position, video_id, title, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ),
  pendingAfter: db.prepare<[number, number, number], unknown>(
    `SELECT id, video_id FROM items WHERE job_id = ? AND status = 'pending' AND id > ? ORDER BY id LIMIT ?`,
  ),
  markFetching: db.prepare<[string, number]>(
    "UPDATE items SET status = 'fetching', updated_at = ? WHERE id = ? AND status = 'pending'",
  ),
  finish: db.prepare<
    [string, number, number | null, string | null, string | null, number | null, string, number]
  >(
    `UPDATE items SET status = ?, attempts = attempts + ?, http_status = ?, code = ?, message = ?, transcript_id = ?,
       updated_at = ?
     WHERE id = ?`,
  ),
  toPending: db.prepare<[number, string, number]>(
    "UPDATE items SET status = 'pending', attempts = attempts + ?, updated_at = ? WHERE id = ?",
  ),
  recoverJob: db.prepare<[number]>(
    "UPDATE items SET status = 'pending' WHERE job_id = ? AND status = 'fetching'",
  ),
  recoverAll: db.prepare<[]>("UPDATE items SET status = 'pending' WHERE status = 'fetching'"),
  counts: db.prepare<[number], unknown>(
    'SELECT status, count(*) AS n FROM items WHERE job_id = ? GROUP BY status',
  ),
  resetFailed: db.prepare<[string, number]>(
    `UPDATE items SET status = 'pending', http_status = NULL, code = NULL, message = NULL, updated_at = ?
     WHERE job_id = ? AND status = 'failed'`,
  ),
  // One lookup per id in the (job_id, video_id) index; the unary + keeps SQLite from scanning the
  // source's whole (growing) list through items_by_job_order instead.
  listedBySource: db.prepare<[string, number, number], { n: number }>(
    `SELECT count(*) AS n FROM json_each(?) j
     WHERE EXISTS (SELECT 1 FROM items i WHERE i.job_id = ? AND i.video_id = j.value AND +i.source_id = ?)`,
  ),
  uncached: db.prepare<[number, string, number, number], { n: number }>(
    `SELECT count(*) AS n FROM items i
     WHERE i.job_id = ? AND i.status IN ('pending', 'fetching') AND NOT EXISTS (
       SELECT 1 FROM transcripts t WHERE t.video_id = i.video_id AND t.requested_lang = ?
         AND t.include_timestamp = ? AND t.send_metadata = ?)`,
  ),
}));

/** Adds a video to the job unless the job already has it (from another source); true when added. */
export function insertItem(db: Database, item: NewItem): boolean {
  const result = statements(db).insert.run(
    item.jobId,
    item.sourceId,
    item.position,
    item.videoId,
    item.title,
    item.at,
  );
  return result.changes > 0;
}

/** The next `limit` pending items of the job with an id above `afterId`, in id order. */
export function pendingItemsAfter(
  db: Database,
  jobId: number,
  afterId: number,
  limit: number,
): PendingItem[] {
  return statements(db)
    .pendingAfter.all(jobId, afterId, limit)
    .map((row) => PendingItemSchema.parse(row));
}

/** Marks the item as having a request in flight, so that a crash leaves a visible trace. */
export function markFetching(db: Database, itemId: number, at: string): void {
  statements(db).markFetching.run(at, itemId);
}

export function finishItem(db: Database, itemId: number, result: ItemResult): void {
  statements(db).finish.run(
    result.status,
    result.attempts,
    result.httpStatus ?? null,
    result.code ?? null,
    result.message ?? null,
    result.transcriptId ?? null,
    result.at,
    itemId,
  );
}

/** Puts an item back in the queue (the job stopped while it was in flight). */
export function returnToPending(db: Database, itemId: number, attempts: number, at: string): void {
  statements(db).toPending.run(attempts, at, itemId);
}

/** Items left 'fetching' by a process that died go back to 'pending'; all jobs when jobId is omitted. */
export function recoverFetchingItems(db: Database, jobId?: number): number {
  const s = statements(db);
  return (jobId === undefined ? s.recoverAll.run() : s.recoverJob.run(jobId)).changes;
}

export function itemCounts(db: Database, jobId: number): ItemCounts {
  const counts: ItemCounts = {
    total: 0,
    pending: 0,
    fetching: 0,
    ok: 0,
    unavailable: 0,
    failed: 0,
    skipped: 0,
  };
  for (const row of statements(db).counts.all(jobId)) {
    const { status, n } = CountRowSchema.parse(row);
    counts[status] = n;
    counts.total += n;
  }
  return counts;
}

export function resetFailedItems(db: Database, jobId: number, at: string): number {
  return statements(db).resetFailed.run(at, jobId).changes;
}

/** How many of `videoIds` the source has listed already (a page that repeats them is a pagination loop). */
export function countListedBySource(
  db: Database,
  jobId: number,
  sourceId: number,
  videoIds: readonly string[],
): number {
  return statements(db).listedBySource.get(JSON.stringify(videoIds), jobId, sourceId)?.n ?? 0;
}

/** Unfinished items whose transcript for (requestedLang, flags) is not in the cache. */
export function uncachedUnfinishedItems(
  db: Database,
  jobId: number,
  cacheKey: { requestedLang: string; includeTimestamp: boolean; sendMetadata: boolean },
): number {
  const row = statements(db).uncached.get(
    jobId,
    cacheKey.requestedLang,
    Number(cacheKey.includeTimestamp),
    Number(cacheKey.sendMetadata),
  );
  return row?.n ?? 0;
}
