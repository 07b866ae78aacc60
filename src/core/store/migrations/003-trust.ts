/**
 * Schema 3: what it takes to never leave a silent gap nor spend without end, and to run jobs from
 * any face.
 * - jobs and items are rebuilt (SQLite cannot change a CHECK in place) to admit 'draft' jobs (created
 *   and previewed, not started) and 'skipped' items (left out by a filter, never charged);
 * - sources keep the failure of their walk (status and code, for errors.csv), the size the service
 *   announced (to stop a walk that pages past it) and the list's title;
 * - the ledger marks credits that may have been spent (a request that timed out or broke after it was
 *   sent) apart from certain ones;
 * - transcript_claims lets one job, in any process, buy a transcript while others wait for it;
 * - jobs keep how they are to be run (concurrency, formats), so that a job runner can run them;
 * - items get an index in the order faces show a job's videos.
 */
export const trustSchema = `
CREATE TABLE jobs_rebuilt (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN
    ('draft', 'queued', 'running', 'paused', 'waiting_credits', 'completed', 'failed', 'cancelled')),
  options TEXT NOT NULL,
  sources TEXT NOT NULL,
  skipped TEXT NOT NULL,
  budget INTEGER,
  stop_reason TEXT,
  stop_code TEXT,
  stop_message TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  finished_at TEXT,
  lease_owner TEXT,
  lease_expires_at INTEGER,
  -- How to run the job (JSON: concurrency, formats); not part of what makes two jobs the same.
  settings TEXT NOT NULL DEFAULT '{}'
);
INSERT INTO jobs_rebuilt (id, key, status, options, sources, skipped, budget, stop_reason, stop_code, stop_message,
  created_at, updated_at, finished_at, lease_owner, lease_expires_at)
SELECT id, key, status, options, sources, skipped, budget, stop_reason, stop_code, stop_message, created_at,
  updated_at, finished_at, lease_owner, lease_expires_at FROM jobs;
DROP TABLE jobs;
ALTER TABLE jobs_rebuilt RENAME TO jobs;

CREATE TABLE items_rebuilt (
  id INTEGER PRIMARY KEY,
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  video_id TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'fetching', 'ok', 'unavailable', 'failed', 'skipped')),
  attempts INTEGER NOT NULL DEFAULT 0,
  http_status INTEGER,
  code TEXT,
  message TEXT,
  transcript_id INTEGER REFERENCES transcripts(id),
  updated_at TEXT NOT NULL,
  UNIQUE (job_id, video_id)
);
INSERT INTO items_rebuilt SELECT id, job_id, source_id, position, video_id, title, status, attempts, http_status,
  code, message, transcript_id, updated_at FROM items;
DROP TABLE items;
ALTER TABLE items_rebuilt RENAME TO items;
CREATE INDEX items_by_job_status ON items (job_id, status, id);
CREATE INDEX items_by_source_position ON items (source_id, position, id);
-- Sources get ids in their order within the job, so this is the order a job's videos are shown in.
CREATE INDEX items_by_job_order ON items (job_id, source_id, position, id);

-- How the walk failed: the HTTP status and the service's code (the message stays in error).
ALTER TABLE sources ADD COLUMN http_status INTEGER;
ALTER TABLE sources ADD COLUMN error_code TEXT;
-- The number of videos the service says the list holds, when it says so.
ALTER TABLE sources ADD COLUMN expected_videos INTEGER;
-- The playlist's or channel's title, from its first page.
ALTER TABLE sources ADD COLUMN title TEXT;

-- 1: the request may or may not have been charged (timed out, or the connection broke after sending).
ALTER TABLE ledger ADD COLUMN possible INTEGER NOT NULL DEFAULT 0;

-- A transcript being bought right now, by whom (a job of a live engine) and until when (ms since the epoch).
CREATE TABLE transcript_claims (
  video_id TEXT NOT NULL,
  requested_lang TEXT NOT NULL,
  include_timestamp INTEGER NOT NULL,
  send_metadata INTEGER NOT NULL,
  owner TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (video_id, requested_lang, include_timestamp, send_metadata)
);
`;
