import type { Database } from './database';
import { preparedFor } from './prepared';

/**
 * Where the latest read of each list puts its videos (docs/product.md, "Keeping a job current"). A
 * membership's position and listed_at always come from one read of its list: reading a list again
 * (a sync) moves each video it finds to its place now, and places the ones it did not reach.
 */

/** A video an earlier read of the list named: the position that read gave it. */
export interface KnownPlace {
  previous: number | null;
}

/** What a read of a list again found, to place the list's videos it did not reach. */
export interface ReadAgain {
  /** The videos (IDs) whose place this read gave. */
  reached: ReadonlySet<string>;
  /** How many videos the read went through, from the list's start. */
  count: number;
  /** It read the list to its end: a video it did not find is no longer in the list. */
  whole: boolean;
  /**
   * How far the videos it found last moved since their earlier read (a channel's new uploads push
   * the rest down by as many places); the videos further down moved as far.
   */
  shift: number;
  /** When it read the page that told that. */
  at: string;
}

const statements = preparedFor((db) => ({
  known: db.prepare<[number, number, string], { item_id: number; position: number | null }>(
    `SELECT m.item_id, m.position FROM items i JOIN memberships m ON m.item_id = i.id AND m.source_id = ?
     WHERE i.job_id = ? AND i.video_id = ?`,
  ),
  // A read that finds a video where it was keeps the time of the read that put it there: the
  // position and its listed_at stay a pair, and a read that moves nothing changes no byte of the
  // corpus (so no version is minted for it). SQLite reads `position` here as it was before the update.
  move: db.prepare<{ position: number | null; at: string; itemId: number; sourceId: number }>(
    `UPDATE memberships
     SET listed_at = CASE WHEN position IS :position THEN listed_at ELSE :at END, position = :position
     WHERE item_id = :itemId AND source_id = :sourceId`,
  ),
  placed: db.prepare<[number], { item_id: number; video_id: string; position: number }>(
    `SELECT m.item_id, i.video_id, m.position FROM memberships m JOIN items i ON i.id = m.item_id
     WHERE m.source_id = ? AND m.position IS NOT NULL ORDER BY m.position, m.item_id`,
  ),
  cut: db.prepare<[number, string]>('INSERT OR IGNORE INTO list_cuts (source_id, video_id) VALUES (?, ?)'),
  wasCut: db.prepare<[number, string], { n: number }>(
    'SELECT count(*) AS n FROM list_cuts WHERE source_id = ? AND video_id = ?',
  ),
  // One lookup per id in the (job_id, video_id) index, then the membership's primary key.
  named: db.prepare<{ ids: string; sourceId: number; jobId: number }, { n: number }>(
    `SELECT count(*) AS n FROM json_each(:ids) j
     WHERE EXISTS (
         SELECT 1 FROM items i JOIN memberships m ON m.item_id = i.id AND m.source_id = :sourceId
         WHERE i.job_id = :jobId AND i.video_id = j.value)
       OR EXISTS (SELECT 1 FROM list_cuts c WHERE c.source_id = :sourceId AND c.video_id = j.value)`,
  ),
}));

/**
 * Moves a video an earlier read of the list named to where this read finds it, with this read's
 * time when its place changed; undefined when no earlier read of the list named it.
 */
export function moveInList(
  db: Database,
  place: { jobId: number; videoId: string; sourceId: number; position: number; listedAt: string },
): KnownPlace | undefined {
  const s = statements(db);
  const known = s.known.get(place.sourceId, place.jobId, place.videoId);
  if (known === undefined) return undefined;
  s.move.run({
    position: place.position,
    at: place.listedAt,
    itemId: known.item_id,
    sourceId: place.sourceId,
  });
  return { previous: known.position };
}

/** Records videos a read of the list named past the cap (`--max-videos`): no later read takes them. */
export function recordCut(db: Database, sourceId: number, videoIds: readonly string[]): void {
  const { cut } = statements(db);
  for (const videoId of videoIds) cut.run(sourceId, videoId);
}

/** Whether an earlier read of the list named the video past the cap. */
export function wasCut(db: Database, sourceId: number, videoId: string): boolean {
  return (statements(db).wasCut.get(sourceId, videoId)?.n ?? 0) > 0;
}

/** Whether earlier reads of the list named every one of these videos (within the cap or past it). */
export function listNamedAll(
  db: Database,
  list: { jobId: number; sourceId: number },
  videoIds: readonly string[],
): boolean {
  const row = statements(db).named.get({ ids: JSON.stringify(videoIds), ...list });
  return (row?.n ?? 0) === videoIds.length;
}

/**
 * Places the list's videos a read again did not reach. Read whole, the list no longer holds them:
 * no position. Read in part (a channel's read again stops at the first page with nothing new, a cap
 * stops it), they lie past what it read and moved as far as the last videos it found: each keeps its
 * order, one position each, after the read's own.
 */
export function placeUnreached(db: Database, sourceId: number, read: ReadAgain): void {
  const s = statements(db);
  let last = read.count;
  for (const { item_id: itemId, video_id: videoId, position } of s.placed.all(sourceId)) {
    if (read.reached.has(videoId)) continue;
    if (read.whole) {
      s.move.run({ position: null, at: read.at, itemId, sourceId });
      continue;
    }
    last = Math.max(position + read.shift, last + 1);
    s.move.run({ position: last, at: read.at, itemId, sourceId });
  }
}
