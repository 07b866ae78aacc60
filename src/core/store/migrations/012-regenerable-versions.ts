/**
 * Provenance a methods section can use, and versions written again byte for byte (docs/product.md,
 * "Corpus versions and citation"; issue 43).
 * - job_services: the Transcript Service's addresses a job's runs used, with the API version, which
 *   the corpus names (never the key, which no address carries).
 * - versions.inputs: what the export of a version was written from besides its rows (its manifest,
 *   citation, formats, the job's history as of its release, the build that wrote it), kept when the
 *   version is released; NULL for a version released before: it cannot be written again.
 * - version_videos and version_memberships: each video's row and each list's place of it as of each
 *   release, kept only when they differ from what the last release kept (so a version's rows are, per
 *   video, the latest kept at or before it). Rows are only ever added: a later sync, retry or change
 *   of a listing rewrites items and memberships, never these.
 */
export const regenerableVersionsSchema = `
CREATE TABLE job_services (
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  address TEXT NOT NULL,
  api_version TEXT NOT NULL,
  first_used_at TEXT NOT NULL,
  PRIMARY KEY (job_id, address, api_version)
) WITHOUT ROWID;

ALTER TABLE versions ADD COLUMN inputs TEXT;

CREATE TABLE version_videos (
  item_id INTEGER NOT NULL,
  version INTEGER NOT NULL,
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  -- The video's row as the export reads it (store/queries/export-rows.ts), as JSON.
  row TEXT NOT NULL,
  PRIMARY KEY (item_id, version)
) WITHOUT ROWID;
CREATE INDEX version_videos_by_job ON version_videos (job_id, number, version);

CREATE TABLE version_memberships (
  item_id INTEGER NOT NULL,
  source_id INTEGER NOT NULL,
  version INTEGER NOT NULL,
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  position INTEGER,
  listed_at TEXT,
  PRIMARY KEY (item_id, source_id, version)
) WITHOUT ROWID;
CREATE INDEX version_memberships_by_job ON version_memberships (job_id);
`;
