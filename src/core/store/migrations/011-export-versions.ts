/**
 * A version is what an export wrote (docs/product.md, "Corpus versions and citation"): any change of a
 * corpus's bytes is a new version, released by the export that makes it, and an export that would
 * change nothing writes the last one again, byte for byte.
 * - versions record what their corpus held (`contents`, a fingerprint of everything written but the
 *   version itself and the job's history), what it said of itself (`metadata`: title, description,
 *   authors, license, formats, chunking, the tool), and the job's history as of the release (`state`:
 *   finish time, credits, syncs), which an export of that version writes again. A version released
 *   before this one has none: the next export releases a new version.
 * - changes may be about the corpus itself rather than a video: `metadata` rows (no item) say what of
 *   it a version changed. SQLite cannot loosen a column's constraints in place, so the table is made
 *   again with the same rows and ids.
 */
export const exportVersionsSchema = `
ALTER TABLE versions ADD COLUMN contents TEXT;
ALTER TABLE versions ADD COLUMN metadata TEXT;
ALTER TABLE versions ADD COLUMN state TEXT;

CREATE TABLE changes_of_versions (
  id INTEGER PRIMARY KEY,
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  -- NULL for a 'metadata' change, which is about the corpus rather than one of its videos.
  item_id INTEGER REFERENCES items(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  -- 'retried': fetched again on request; 'changed': listed by another of the job's lists;
  -- 'metadata': what the corpus says of itself (title, authors, license, formats…) changed.
  change TEXT NOT NULL CHECK (change IN ('retried', 'changed', 'metadata')),
  detail TEXT NOT NULL,
  at TEXT NOT NULL,
  CHECK ((change = 'metadata') = (item_id IS NULL))
);
INSERT INTO changes_of_versions (id, job_id, item_id, version, change, detail, at)
  SELECT id, job_id, item_id, version, change, detail, at FROM changes;
DROP TABLE changes;
ALTER TABLE changes_of_versions RENAME TO changes;
CREATE INDEX changes_by_job ON changes (job_id, version, item_id);
`;
