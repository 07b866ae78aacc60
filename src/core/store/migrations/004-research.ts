/**
 * Schema 4: what researchers select and sort by, and how a corpus was kept current.
 * - items keep what their list page said of them (channel, publication, length, views, captions),
 *   so that filters apply before anything is bought and index.csv can carry it; a video a filter
 *   left out is 'skipped' with code 'filter' and the filter's words in message;
 * - syncs record each bringing-up-to-date of a finished job: when, what was new, what it cost.
 */
export const researchSchema = `
ALTER TABLE items ADD COLUMN channel_id TEXT;
ALTER TABLE items ADD COLUMN channel_title TEXT;
-- As the listing gave it: "3 weeks ago", or an ISO date.
ALTER TABLE items ADD COLUMN published TEXT;
ALTER TABLE items ADD COLUMN duration_seconds INTEGER;
ALTER TABLE items ADD COLUMN view_count INTEGER;
-- 1 or 0 when the listing said, NULL when it did not.
ALTER TABLE items ADD COLUMN has_captions INTEGER;

CREATE TABLE syncs (
  id INTEGER PRIMARY KEY,
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  new_videos INTEGER NOT NULL DEFAULT 0,
  credits INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX syncs_by_job ON syncs (job_id);
`;
