import { z } from 'zod';
import type { Database } from '../database';
import { readOnlyPreparedFor } from '../prepared';

/** One line of changes.csv: what a version after the first did to one video, or to the corpus itself. */
export interface ChangeRecord {
  version: number;
  /** '' for a change of the corpus's metadata. */
  videoId: string;
  change: 'added' | 'retried' | 'changed' | 'metadata';
  detail: string;
}

const ChangeRowSchema = z.object({
  version: z.number().int(),
  video_id: z.string(),
  change: z.enum(['added', 'retried', 'changed', 'metadata']),
  detail: z.string(),
});

const statements = readOnlyPreparedFor((db) => ({
  // Version 1 added everything it holds: changes.csv starts with version 2. Within a version, the
  // changes of the corpus itself (no number) come first, then the videos' by corpus number.
  changes: db.prepare<[number, number, number, number, number, number], unknown>(
    `SELECT i.version, i.video_id, 'added' AS change, s.input AS detail, i.number, 0 AS kind, 0 AS id
       FROM items i JOIN sources s ON s.id = i.source_id
       WHERE i.job_id = ? AND i.version > 1 AND i.version <= ?
     UNION ALL
     SELECT c.version, coalesce(i.video_id, ''), c.change, c.detail, i.number, 1 AS kind, c.id
       FROM changes c LEFT JOIN items i ON i.id = c.item_id WHERE c.job_id = ? AND c.version <= ?
     ORDER BY 1, 5, 6, 7 LIMIT ? OFFSET ?`,
  ),
}));

/** Rows of changes.csv read per query. */
const CHANGES_PAGE = 1000;

/**
 * changes.csv's rows of the versions up to `through`, by version, then the corpus's own changes, then
 * by corpus number, additions first; read page by page, since an open cursor would keep the
 * connection from a job running on it meanwhile.
 */
export function* changesOf(
  db: Database,
  jobId: number,
  through: number,
): Generator<ChangeRecord, void, undefined> {
  for (let offset = 0; ; offset += CHANGES_PAGE) {
    const rows = statements(db).changes.all(jobId, through, jobId, through, CHANGES_PAGE, offset);
    for (const row of rows) {
      const parsed = ChangeRowSchema.parse(row);
      yield {
        version: parsed.version,
        videoId: parsed.video_id,
        change: parsed.change,
        detail: parsed.detail,
      };
    }
    if (rows.length < CHANGES_PAGE) return;
  }
}
