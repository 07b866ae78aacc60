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
  /** The version of the job's corpus that adds it (store/versions.ts, pendingVersion). */
  version: number;
  listing?: ItemListing;
  /** Left out by a filter, or waiting for its list's size (ITEM_CODE, with `message` saying why). */
  skipped?: { code: string; message: string };
}

const AwaitingItemSchema = z
  .object({
    id: z.number().int(),
    position: z.number().int(),
    title: z.string(),
    published: z.string().nullable(),
    duration_seconds: z.number().int().nullable(),
    has_captions: z.number().int().nullable(),
    listed_at: z.string().nullable(),
  })
  .transform((row) => ({
    id: row.id,
    position: row.position,
    title: row.title,
    ...(row.published !== null && { published: row.published }),
    ...(row.listed_at !== null && { listedAt: Date.parse(row.listed_at) }),
    ...(row.duration_seconds !== null && { durationSeconds: row.duration_seconds }),
    ...(row.has_captions !== null && { hasCaptions: row.has_captions === 1 }),
  }));
export type AwaitingItem = z.output<typeof AwaitingItemSchema>;

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
       channel_id, channel_title, published, duration_seconds, view_count, has_captions, version, number)
     VALUES (:jobId, :sourceId, :position, :videoId, :title, :at, :status, :code, :message,
       :channelId, :channelTitle, :published, :durationSeconds, :viewCount, :hasCaptions, :version,
       (SELECT coalesce(max(number), 0) + 1 FROM items WHERE job_id = :jobId))`,
  ),
  awaiting: db.prepare<[number], unknown>(
    `SELECT i.id, coalesce(m.position, i.position) AS position, i.title, i.published, i.duration_seconds,
       i.has_captions, m.listed_at
     FROM items i LEFT JOIN memberships m ON m.item_id = i.id AND m.source_id = i.source_id
     WHERE i.source_id = ? AND i.status = ${ITEM.skipped} AND i.code = ${CODE.awaitingListSize} ORDER BY i.id`,
  ),
  hasAll: db.prepare<[string, number], { n: number }>(
    `SELECT count(*) AS n FROM json_each(?) j
     WHERE EXISTS (SELECT 1 FROM items i WHERE i.job_id = ? AND i.video_id = j.value)`,
  ),
  lastId: db.prepare<[number], { id: number | null }>('SELECT max(id) AS id FROM items WHERE job_id = ?'),
  shiftMemberships: db.prepare<[number, number, number]>(
    'UPDATE memberships SET position = position + ? WHERE source_id = ? AND item_id < ?',
  ),
  skippedByFilter: db.prepare<[number], { reason: string; videos: number }>(
    `SELECT message AS reason, count(*) AS videos FROM items
     WHERE job_id = ? AND status = ${ITEM.skipped} AND code = ${CODE.filteredOut} GROUP BY message ORDER BY videos DESC, message`,
  ),
  // Reads the failed rows only, usually few; those a forced stop cut off are counted apart.
  failedByStatus: db.prepare<[number], { httpStatus: number | null; code: string | null; videos: number }>(
    `SELECT http_status AS httpStatus, code, count(*) AS videos FROM items
     WHERE job_id = ? AND status = ${ITEM.failed} AND coalesce(code, '') != ${CODE.cutOff}
     GROUP BY http_status, code ORDER BY videos DESC, http_status, code`,
  ),
  select: db.prepare<[string, string | null, string | null, string, number]>(
    'UPDATE items SET status = ?, code = ?, message = ?, updated_at = ? WHERE id = ?',
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
  toPending: db.prepare<[number, string, number]>(
    `UPDATE items SET status = ${ITEM.pending}, attempts = attempts + ?, updated_at = ? WHERE id = ?`,
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
  // One lookup per id in the (job_id, video_id) index; the unary + keeps SQLite from scanning the
  // source's whole (growing) list through items_by_job_order instead.
  listedBySource: db.prepare<[string, number, number], { n: number }>(
    `SELECT count(*) AS n FROM json_each(?) j
     WHERE EXISTS (SELECT 1 FROM items i WHERE i.job_id = ? AND i.video_id = j.value AND +i.source_id = ?)`,
  ),
  publishedDates: db.prepare<[number], { published: string; listed_at: string | null }>(
    `SELECT i.published, m.listed_at FROM items i
     LEFT JOIN memberships m ON m.item_id = i.id AND m.source_id = i.source_id
     WHERE i.job_id = ? AND i.published IS NOT NULL`,
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
  });
  return result.changes > 0;
}

/** The source's items whose filters wait for its list's size, to be decided now that it is known. */
export function itemsAwaitingListSize(db: Database, sourceId: number): AwaitingItem[] {
  return statements(db)
    .awaiting.all(sourceId)
    .map((row) => AwaitingItemSchema.parse(row));
}

/** Whether the job holds every one of these videos. */
export function jobHasVideos(db: Database, jobId: number, videoIds: readonly string[]): boolean {
  return (statements(db).hasAll.get(JSON.stringify(videoIds), jobId)?.n ?? 0) === videoIds.length;
}

/** The id of the job's newest item, 0 when it has none. */
export function lastItemId(db: Database, jobId: number): number {
  return statements(db).lastId.get(jobId)?.id ?? 0;
}

/**
 * Moves the source's videos listed before `beforeItemId` down by `by` places in its memberships: a
 * channel lists its newest videos first, so videos found by a sync push the others down. The items
 * keep the position the list gave when it first numbered them, which their records carry: a sync
 * changes no earlier video's record, so exporting again copies them (issue 20).
 */
export function shiftPositions(db: Database, sourceId: number, beforeItemId: number, by: number): void {
  statements(db).shiftMemberships.run(by, sourceId, beforeItemId);
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

/** Decides an item that waited: pending (to fetch), or skipped with the filter's words. */
export function settleSelection(db: Database, itemId: number, skippedBy: string | null, at: string): void {
  statements(db).select.run(
    skippedBy === null ? ITEM_STATUS.pending : ITEM_STATUS.skipped,
    skippedBy === null ? null : ITEM_CODE.filteredOut,
    skippedBy,
    at,
    itemId,
  );
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

/** Puts an item back in the queue (the job stopped while it was in flight). */
export function returnToPending(db: Database, itemId: number, attempts: number, at: string): void {
  statements(db).toPending.run(attempts, at, itemId);
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
