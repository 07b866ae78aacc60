import type { Database } from './database';
import type { ItemListing } from './items';
import { preparedFor } from './prepared';

/** A video's place in one of its job's sources. */
export interface NewMembership {
  jobId: number;
  videoId: string;
  sourceId: number;
  /** Its place in the list; null for a video given by itself. */
  position: number | null;
  /** When the list page was read; null for a video given by itself. */
  listedAt: string | null;
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

const statements = preparedFor((db) => ({
  insert: db.prepare(
    `INSERT OR IGNORE INTO memberships (item_id, source_id, position, listed_at)
     SELECT id, :sourceId, :position, :listedAt FROM items WHERE job_id = :jobId AND video_id = :videoId`,
  ),
  // Only an item whose source is a single video: a list's data is never replaced by another list's.
  adopt: db.prepare(
    `UPDATE items SET source_id = :sourceId, position = :position,
       title = CASE WHEN title = '' THEN :title ELSE title END,
       channel_id = :channelId, channel_title = :channelTitle, published = :published,
       duration_seconds = :durationSeconds, view_count = :viewCount, has_captions = :hasCaptions
     WHERE job_id = :jobId AND video_id = :videoId
       AND source_id IN (SELECT id FROM sources WHERE job_id = :jobId AND kind = 'video')`,
  ),
}));

/** Records that a source holds the video (once per video and source); true when it is new. */
export function addMembership(db: Database, membership: NewMembership): boolean {
  return statements(db).insert.run(membership).changes > 0;
}

/**
 * Gives a video the job had from a source of its own the data of the first list that holds it:
 * index.csv takes a video's list data from that list, never from a video given by itself. True when
 * it did; a video a list brought first keeps that list's data.
 */
export function adoptListing(db: Database, adopted: AdoptedListing): boolean {
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
    }).changes > 0
  );
}
