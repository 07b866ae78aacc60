/** Schema 1: jobs, their sources and items, the shared transcript cache, the credit ledger, settings. */
export const initialSchema = `
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY,
  -- Hash of what makes two export commands the same job (see engine/identity.ts).
  key TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN
    ('queued', 'running', 'paused', 'waiting_credits', 'completed', 'failed', 'cancelled')),
  options TEXT NOT NULL,
  sources TEXT NOT NULL,
  skipped TEXT NOT NULL,
  budget INTEGER,
  stop_reason TEXT,
  stop_code TEXT,
  stop_message TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  finished_at TEXT
);

CREATE TABLE sources (
  id INTEGER PRIMARY KEY,
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('video', 'playlist', 'channel', 'search')),
  source_id TEXT NOT NULL,
  input TEXT NOT NULL,
  resolved_channel_id TEXT,
  -- Continuation token of the next page to buy; NULL before the first page.
  cursor TEXT,
  walk_status TEXT NOT NULL DEFAULT 'pending' CHECK (walk_status IN ('pending', 'done', 'unavailable', 'failed')),
  pages INTEGER NOT NULL DEFAULT 0,
  videos_found INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  UNIQUE (job_id, position)
);

CREATE TABLE transcripts (
  id INTEGER PRIMARY KEY,
  video_id TEXT NOT NULL,
  -- '' for the video's original track (no lang parameter).
  requested_lang TEXT NOT NULL,
  include_timestamp INTEGER NOT NULL,
  send_metadata INTEGER NOT NULL,
  language TEXT NOT NULL,
  title TEXT,
  segment_count INTEGER NOT NULL,
  -- The JSON body exactly as received.
  body TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  UNIQUE (video_id, requested_lang, include_timestamp, send_metadata)
);

CREATE TABLE items (
  id INTEGER PRIMARY KEY,
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  video_id TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'fetching', 'ok', 'unavailable', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  http_status INTEGER,
  code TEXT,
  message TEXT,
  transcript_id INTEGER REFERENCES transcripts(id),
  updated_at TEXT NOT NULL,
  UNIQUE (job_id, video_id)
);
CREATE INDEX items_by_job_status ON items (job_id, status, id);
CREATE INDEX items_by_source_position ON items (source_id, position, id);

CREATE TABLE ledger (
  id INTEGER PRIMARY KEY,
  -- Deleting a job keeps its spending.
  job_id INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
  endpoint TEXT NOT NULL,
  video_id TEXT,
  source_id INTEGER REFERENCES sources(id) ON DELETE SET NULL,
  request_id TEXT,
  at TEXT NOT NULL
);
CREATE INDEX ledger_by_job ON ledger (job_id);
CREATE INDEX ledger_by_time ON ledger (at);

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;
