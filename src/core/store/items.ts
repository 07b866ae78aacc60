import { z } from 'zod';
import type { Database } from './database';
import {
  ITEM_CODE,
  ITEM_STATUS,
  ITEM_STATUSES,
  type FinalItemStatus,
  type ItemStatus,
} from '../../shared/vocabulary';
import { preparedFor, sqlLiterals } from './prepared';

export type { FinalItemStatus, ItemStatus };

const ITEM = sqlLiterals(ITEM_STATUS);
const CODE = sqlLiterals(ITEM_CODE);

const PendingItemSchema = z
  .object({ id: z.number().int(), video_id: z.string() })
  .transform((row) => ({ id: row.id, videoId: row.video_id }));
export type PendingItem = z.output<typeof PendingItemSchema>;

/** What a list page said of a video, as stored. */
export interface ItemListing {
  channelId?: string | undefined;
  channelTitle?: string | undefined;
  published?: string | undefined;
  durationSeconds?: number | undefined;
  viewCount?: number | undefined;
  hasCaptions?: boolean | undefined;
}

export interface NewItem {
  jobId: number;
  sourceId: number;
  position: number;
  videoId: string;
  title: string;
  at: string;
  /** When the list page that numbers it was read; absent for a video given by itself. */
  listedAt?: string;
  /** The version of the job's corpus that adds it (store/versions.ts, pendingVersion). */
  version: number;
  listing?: ItemListing;
  /** Left out by a filter, or waiting for its list's size (ITEM_CODE, with `message` saying why). */
  skipped?: { code: string; message: string };
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
  /** Of the failed, those whose request a forced stop cut off after it was sent (ITEM_CODE.cutOff). */
  interrupted: number;
}

const CountRowSchema = z.object({ status: z.enum(ITEM_STATUSES), n: z.number().int() });

const statements = preparedFor((db) => ({
  // The corpus number is the job's next one, read from the index items_by_job_number; a video the
  // job has already is ignored, and takes no number.
  insert: db.prepare(
    `INSERT OR IGNORE INTO items (job_id, source_id, position, video_id, title, updated_at, status, code, message,
       channel_id, channel_title, published, duration_seconds, view_count, has_captions, listed_at, version, number)
     VALUES (:jobId, :sourceId, :position, :videoId, :title, :at, :status, :code, :message,
       :channelId, :channelTitle, :published, :durationSeconds, :viewCount, :hasCaptions, :listedAt, :version,
       (SELECT coalesce(max(number), 0) + 1 FROM items WHERE job_id = :jobId))`,
  ),
  pendingAfter: db.prepare<[number, number, number], unknown>(
    `SELECT id, video_id FROM items WHERE job_id = ? AND status = ${ITEM.pending} AND id > ? ORDER BY id LIMIT ?`,
  ),
  finish: db.prepare<
    [string, number, number | null, string | null, string | null, number | null, string, number]
  >(
    `UPDATE items SET status = ?, attempts = attempts + ?, http_status = ?, code = ?, message = ?, transcript_id = ?,
       updated_at = ?
     WHERE id = ?`,
  ),
  recoverJob: db.prepare<[number]>(
    `UPDATE items SET status = ${ITEM.pending} WHERE job_id = ? AND status = ${ITEM.fetching}`,
  ),
  recoverAll: db.prepare<[]>(`UPDATE items SET status = ${ITEM.pending} WHERE status = ${ITEM.fetching}`),
  // Answered from the index items_by_job_status alone, without reading a row.
  counts: db.prepare<[number], unknown>(
    'SELECT status, count(*) AS n FROM items WHERE job_id = ? GROUP BY status',
  ),
  // Reads the failed rows only, usually few.
  interrupted: db.prepare<[number], { n: number }>(
    `SELECT count(*) AS n FROM items WHERE job_id = ? AND status = ${ITEM.failed} AND code = ${CODE.cutOff}`,
  ),
  resetStatus: db.prepare<[string, number, ItemStatus]>(
    `UPDATE items SET status = ${ITEM.pending}, http_status = NULL, code = NULL, message = NULL, updated_at = ?
     WHERE job_id = ? AND status = ?`,
  ),
  resetFailedIds: db.prepare<[string, number, string]>(
    `UPDATE items SET status = ${ITEM.pending}, http_status = NULL, code = NULL, message = NULL, updated_at = ?
     WHERE job_id = ? AND status = ${ITEM.failed} AND id IN (SELECT value FROM json_each(?))`,
  ),
  // One lookup per id in the (job_id, video_id) index; the unary + keeps SQLite from scanning the
  // source's whole (growing) list through items_by_job_order instead.
  listedBySource: db.prepare<[string, number, number], { n: number }>(
    `SELECT count(*) AS n FROM json_each(?) j
     WHERE EXISTS (SELECT 1 FROM items i WHERE i.job_id = ? AND i.video_id = j.value AND +i.source_id = ?)`,
  ),
  publishedDates: db.prepare<[number], { published: string; listed_at: string | null }>(
    'SELECT published, listed_at FROM items WHERE job_id = ? AND published IS NOT NULL',
  ),
  uncached: db.prepare<[number, string, number, number], { n: number }>(
    `SELECT count(*) AS n FROM items i
     WHERE i.job_id = ? AND i.status IN (${ITEM.pending}, ${ITEM.fetching}) AND NOT EXISTS (
       SELECT 1 FROM transcripts t WHERE t.video_id = i.video_id AND t.requested_lang = ?
         AND t.include_timestamp = ? AND t.send_metadata = ?)`,
  ),
}));

/**
 * Adds a video to the job unless the job already has it (from another source); true when added. A
 * video added takes the job's next corpus number, which it keeps for good.
 */
export function insertItem(db: Database, item: NewItem): boolean {
  const listing = item.listing ?? {};
  const result = statements(db).insert.run({
    jobId: item.jobId,
    version: item.version,
    sourceId: item.sourceId,
    position: item.position,
    videoId: item.videoId,
    title: item.title,
    at: item.at,
    status: item.skipped === undefined ? ITEM_STATUS.pending : ITEM_STATUS.skipped,
    code: item.skipped?.code ?? null,
    message: item.skipped?.message ?? null,
    channelId: listing.channelId ?? null,
    channelTitle: listing.channelTitle ?? null,
    published: listing.published ?? null,
    durationSeconds: listing.durationSeconds ?? null,
    viewCount: listing.viewCount ?? null,
    hasCaptions: listing.hasCaptions === undefined ? null : Number(listing.hasCaptions),
    listedAt: item.listedAt ?? null,
  });
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

/** Items left in flight by a process that died are pending again; all jobs when jobId is omitted. */
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
    interrupted: 0,
  };
  for (const row of statements(db).counts.all(jobId)) {
    const { status, n } = CountRowSchema.parse(row);
    counts[status] = n;
    counts.total += n;
  }
  if (counts.failed > 0) counts.interrupted = statements(db).interrupted.get(jobId)?.n ?? 0;
  return counts;
}

export function resetFailedItems(db: Database, jobId: number, at: string): number {
  return statements(db).resetStatus.run(at, jobId, ITEM_STATUS.failed).changes;
}

/** Of the job's failed videos, those with these item ids, pending again; returns how many. */
export function resetFailedItemsById(
  db: Database,
  jobId: number,
  ids: readonly number[],
  at: string,
): number {
  return statements(db).resetFailedIds.run(at, jobId, JSON.stringify(ids)).changes;
}

/** The job's videos the service had no transcript for, pending again (asked for by the user). */
export function resetUnavailableItems(db: Database, jobId: number, at: string): number {
  return statements(db).resetStatus.run(at, jobId, ITEM_STATUS.unavailable).changes;
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

/**
 * Counts the job's videos whose listing date `test` finds uncertain, read in one synchronous pass (no
 * other statement can run on the connection meanwhile, and none needs to).
 */
export function countListingDates(
  db: Database,
  jobId: number,
  test: (published: string, listedAt: string | null) => boolean,
): number {
  let count = 0;
  for (const row of statements(db).publishedDates.iterate(jobId)) {
    if (test(row.published, row.listed_at)) count += 1;
  }
  return count;
}
