/**
 * Exact publication times learned after a video was listed (issue 43): channel/latest (free) gives
 * the exact time of a channel's latest videos, where its pages say "3 years ago". A video the job
 * already holds keeps its listing as first stored (items.published is never rewritten); the exact
 * time is appended here, with the words it replaces and the corpus version it belongs to, so that
 * every version's dates can be told again from the data folder: the latest row of an item whose
 * `version` is at most N is the date version N carries, else the item's own listing.
 */
export const exactDatesSchema = `
CREATE TABLE exact_dates (
  id INTEGER PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  -- The exact time as the service gave it (an ISO time).
  published TEXT NOT NULL,
  -- What the video's date was before: the listing's words, or an earlier exact time.
  replaced TEXT,
  -- The version of the job's corpus that first carries it (store/versions.ts, pendingVersion).
  version INTEGER NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX exact_dates_by_item ON exact_dates (item_id, id);
`;
