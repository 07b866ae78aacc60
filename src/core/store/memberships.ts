import { z } from 'zod';
import type { Database } from './database';
import type { ItemListing } from './items';
import { ITEM_CODE, ITEM_STATUS, SOURCE_KIND } from '../../shared/vocabulary';
import { preparedFor, sqlLiterals } from './prepared';

const ITEM = sqlLiterals(ITEM_STATUS);
const CODE = sqlLiterals(ITEM_CODE);
const KIND = sqlLiterals(SOURCE_KIND);

/** Why a list leaves a video out: ITEM_CODE (a filter, or waiting for the list's size) and words. */
export interface ListVerdict {
  code: string;
  message: string;
}

/** A list's verdict while it cannot tell: positions counted from its end, its size unknown yet. */
export const AWAITING_LIST_SIZE: ListVerdict = {
  code: ITEM_CODE.awaitingListSize,
  message: 'waits for the size of its list',
};

/** A video's place in one of its job's sources. */
export interface NewMembership {
  jobId: number;
  videoId: string;
  sourceId: number;
  /** Its place in the list; null for a video given by itself. */
  position: number | null;
  /** When the list page was read; null for a video given by itself. */
  listedAt: string | null;
  /** This list's selection leaves the video out (absent: it takes it). */
  skipped?: ListVerdict | undefined;
}

/** What a list says of a video the job had from a source of its own (given by itself). */
export interface AdoptedListing {
  jobId: number;
  videoId: string;
  sourceId: number;
  position: number;
  title: string;
  listing: ItemListing;
}

/** A video whose selection in one list waits for the list's size, with what that list said of it. */
const AwaitingMemberSchema = z
  .object({
    item_id: z.number().int(),
    position: z.number().int(),
    title: z.string(),
    published: z.string().nullable(),
    duration_seconds: z.number().int().nullable(),
    has_captions: z.number().int().nullable(),
    listed_at: z.string().nullable(),
  })
  .transform((row) => ({
    itemId: row.item_id,
    position: row.position,
    title: row.title,
    ...(row.published !== null && { published: row.published }),
    // The date words were read when the item was first listed.
    ...(row.listed_at !== null && { listedAt: Date.parse(row.listed_at) }),
    ...(row.duration_seconds !== null && { durationSeconds: row.duration_seconds }),
    ...(row.has_captions !== null && { hasCaptions: row.has_captions === 1 }),
  }));
export type AwaitingMember = z.output<typeof AwaitingMemberSchema>;

/** Each list's verdict on a video, in the job's order of sources. */
interface StoredVerdict {
  input: string;
  skip_code: string | null;
  skip_reason: string | null;
}

const statements = preparedFor((db) => ({
  insert: db.prepare(
    `INSERT OR IGNORE INTO memberships (item_id, source_id, position, listed_at, skip_code, skip_reason)
     SELECT id, :sourceId, :position, :listedAt, :skipCode, :skipReason
     FROM items WHERE job_id = :jobId AND video_id = :videoId`,
  ),
  // Only an item whose source is a single video: a list's data is never replaced by another list's.
  // Nor once a released version holds the video: its files and records stay as they were written.
  adopt: db.prepare(
    `UPDATE items SET source_id = :sourceId, position = :position,
       title = CASE WHEN title = '' THEN :title ELSE title END,
       channel_id = :channelId, channel_title = :channelTitle, published = :published,
       duration_seconds = :durationSeconds, view_count = :viewCount, has_captions = :hasCaptions,
       listed_at = :listedAt
     WHERE job_id = :jobId AND video_id = :videoId
       AND source_id IN (SELECT id FROM sources WHERE job_id = :jobId AND kind = ${KIND.video})
       AND version > (SELECT coalesce(max(v.version), 0) FROM versions v WHERE v.job_id = :jobId)`,
  ),
  itemOf: db.prepare<[number, string], { id: number }>(
    'SELECT id FROM items WHERE job_id = ? AND video_id = ?',
  ),
  awaiting: db.prepare<[number], unknown>(
    `SELECT m.item_id, m.position, i.title, i.published, i.duration_seconds, i.has_captions, i.listed_at
     FROM memberships m JOIN items i ON i.id = m.item_id
     WHERE m.source_id = ? AND m.skip_code = ${CODE.awaitingListSize} AND m.position IS NOT NULL
     ORDER BY m.item_id`,
  ),
  setVerdict: db.prepare<[string | null, string | null, number, number]>(
    'UPDATE memberships SET skip_code = ?, skip_reason = ? WHERE item_id = ? AND source_id = ?',
  ),
  verdicts: db.prepare<[number], StoredVerdict>(
    `SELECT s.input, m.skip_code, m.skip_reason FROM memberships m JOIN sources s ON s.id = m.source_id
     WHERE m.item_id = ? ORDER BY s.position`,
  ),
  // Only a video not fetched yet, and not taken already: a list never takes back what another took.
  judge: db.prepare<[string, string | null, string | null, string, number]>(
    `UPDATE items SET status = ?, code = ?, message = ?, updated_at = ? WHERE id = ? AND status = ${ITEM.skipped}`,
  ),
}));

/** Records that a source holds the video (once per video and source); true when it is new. */
export function addMembership(db: Database, membership: NewMembership): boolean {
  return (
    statements(db).insert.run({
      jobId: membership.jobId,
      videoId: membership.videoId,
      sourceId: membership.sourceId,
      position: membership.position,
      listedAt: membership.listedAt,
      skipCode: membership.skipped?.code ?? null,
      skipReason: membership.skipped?.message ?? null,
    }).changes > 0
  );
}

/**
 * Gives a video the job had from a source of its own the data of the first list that holds it:
 * index.csv takes a video's list data from that list, never from a video given by itself. True when
 * it did; a video a list brought first keeps that list's data, and so does one a released version
 * holds (a later version renames no file and leaves its records as they were).
 */
export function adoptListing(db: Database, adopted: AdoptedListing & { listedAt: string }): boolean {
  const { listing } = adopted;
  return (
    statements(db).adopt.run({
      jobId: adopted.jobId,
      videoId: adopted.videoId,
      sourceId: adopted.sourceId,
      position: adopted.position,
      title: adopted.title,
      channelId: listing.channelId ?? null,
      channelTitle: listing.channelTitle ?? null,
      published: listing.published ?? null,
      durationSeconds: listing.durationSeconds ?? null,
      viewCount: listing.viewCount ?? null,
      hasCaptions: listing.hasCaptions === undefined ? null : Number(listing.hasCaptions),
      listedAt: adopted.listedAt,
    }).changes > 0
  );
}

/** The list's videos whose selection waits for its size, to be decided once it is known. */
export function awaitingInList(db: Database, sourceId: number): AwaitingMember[] {
  return statements(db)
    .awaiting.all(sourceId)
    .map((row) => AwaitingMemberSchema.parse(row));
}

/** Decides a list's verdict on a video that waited for its size: null when the list takes it. */
export function setListVerdict(
  db: Database,
  membership: { itemId: number; sourceId: number },
  skipped: ListVerdict | null,
): void {
  statements(db).setVerdict.run(
    skipped?.code ?? null,
    skipped?.message ?? null,
    membership.itemId,
    membership.sourceId,
  );
}

/**
 * Judges a video not fetched yet by every list that holds it: taken (pending) when some list takes
 * it, else skipped, waiting while a list waits for its size, otherwise with each list's reason (the
 * reason alone when one list holds it). Returns true when it is taken now and was skipped before.
 */
export function judgeByEveryList(
  db: Database,
  item: { jobId: number; videoId: string } | { itemId: number },
  at: string,
): boolean {
  const s = statements(db);
  const itemId = 'itemId' in item ? item.itemId : s.itemOf.get(item.jobId, item.videoId)?.id;
  if (itemId === undefined) return false;
  const verdicts = s.verdicts.all(itemId);
  if (verdicts.some((verdict) => verdict.skip_code === null)) {
    return s.judge.run(ITEM_STATUS.pending, null, null, at, itemId).changes > 0;
  }
  if (verdicts.some((verdict) => verdict.skip_code === ITEM_CODE.awaitingListSize)) {
    s.judge.run(ITEM_STATUS.skipped, AWAITING_LIST_SIZE.code, AWAITING_LIST_SIZE.message, at, itemId);
    return false;
  }
  const reasons =
    verdicts.length === 1
      ? (verdicts[0]?.skip_reason ?? '')
      : verdicts.map((verdict) => `in ${verdict.input}: ${verdict.skip_reason ?? ''}`).join('; ');
  s.judge.run(ITEM_STATUS.skipped, ITEM_CODE.filteredOut, reasons, at, itemId);
  return false;
}
