/**
 * Corpora that stay citable as they grow (docs/product.md, "Corpus versions").
 * - items get their corpus number, fixed when the job first lists them and never reused (file names
 *   carry it), and the version of the corpus that added them; existing items are numbered in the
 *   order earlier versions exported them, so that a job's first six-digit corpus keeps their order;
 * - memberships record every source a video came from, with its place in the list and when the page
 *   was read (one row per video and source); existing items keep the one source that was recorded;
 * - versions record when each version of a job's corpus was released (its job completed with
 *   something new), changes what a later version retried or changed besides the videos it added.
 */
export const citableCorporaSchema = `
ALTER TABLE items ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
ALTER TABLE items ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
UPDATE items SET number = numbered.n
FROM (
  SELECT i.id, row_number() OVER (PARTITION BY i.job_id ORDER BY s.position, i.position, i.id) AS n
  FROM items i JOIN sources s ON s.id = i.source_id
) AS numbered
WHERE numbered.id = items.id;
CREATE UNIQUE INDEX items_by_job_number ON items (job_id, number);

CREATE TABLE memberships (
  item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  -- Its place in the list as last read; NULL for a video given by itself.
  position INTEGER,
  -- When the list page that first listed it was read; NULL for a video given by itself.
  listed_at TEXT,
  PRIMARY KEY (item_id, source_id)
) WITHOUT ROWID;
CREATE INDEX memberships_by_source ON memberships (source_id, item_id);
INSERT INTO memberships (item_id, source_id, position)
  SELECT i.id, i.source_id, CASE WHEN s.kind = 'video' THEN NULL ELSE i.position END
  FROM items i JOIN sources s ON s.id = i.source_id;

CREATE TABLE versions (
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  -- When the job completed with this version's content.
  released_at TEXT NOT NULL,
  PRIMARY KEY (job_id, version)
) WITHOUT ROWID;
INSERT INTO versions (job_id, version, released_at)
  SELECT id, 1, finished_at FROM jobs WHERE status = 'completed' AND finished_at IS NOT NULL;

CREATE TABLE changes (
  id INTEGER PRIMARY KEY,
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  -- 'retried': fetched again on request; 'changed': listed by another of the job's lists.
  change TEXT NOT NULL CHECK (change IN ('retried', 'changed')),
  detail TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX changes_by_job ON changes (job_id, version, item_id);
`;
