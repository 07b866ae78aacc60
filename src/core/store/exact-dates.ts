import { publishedInterval } from '../../shared/published';
import type { Database } from './database';
import { preparedFor } from './prepared';
import { CURRENT_PUBLISHED_SQL } from './queries/export-rows';
import { recordChange } from './versions';

/**
 * Exact publication times a job learns for videos it already holds (migration 014): appended, never
 * written over, each with the words it replaces and the version that first carries it.
 */

const statements = preparedFor((db) => ({
  current: db.prepare<[number, string], { id: number; published: string | null; listed_at: string | null }>(
    `SELECT i.id, ${CURRENT_PUBLISHED_SQL} AS published, i.listed_at FROM items i
     WHERE i.job_id = ? AND i.video_id = ?`,
  ),
  append: db.prepare<[number, string, string | null, number, string]>(
    'INSERT INTO exact_dates (item_id, published, replaced, version, at) VALUES (?, ?, ?, ?, ?)',
  ),
}));

/**
 * Gives the job's video the exact time `published`, unless the job does not hold it or already knows
 * its day exactly. A version after the first records the change (changes.csv: `published: 3 years ago
 * -> 2023-05-01T10:00:00Z`). Returns whether it did; call it in a transaction.
 */
export function recordExactDate(
  db: Database,
  date: { jobId: number; videoId: string; published: string; version: number; at: string },
): boolean {
  const s = statements(db);
  const item = s.current.get(date.jobId, date.videoId);
  if (item === undefined || publishedInterval(date.published, null) === undefined) return false;
  const known = publishedInterval(
    item.published,
    item.listed_at === null ? null : Date.parse(item.listed_at),
  );
  if (known !== undefined && known.from === known.to) return false;
  s.append.run(item.id, date.published, item.published, date.version, date.at);
  if (date.version > 1) {
    recordChange(db, {
      jobId: date.jobId,
      videoId: date.videoId,
      version: date.version,
      detail: `published: ${item.published ?? 'none'} -> ${date.published}`,
      at: date.at,
    });
  }
  return true;
}
