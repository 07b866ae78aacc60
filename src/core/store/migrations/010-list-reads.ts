/**
 * Lists read again (issue 33: docs/product.md, "Keeping a job current" and "Selection filters").
 * - items keep `listed_at`, when the page that first numbered the video was read: its records carry
 *   that listing (position, date words) for good, while memberships now follow the lists;
 * - a membership's `position` and `listed_at` are both those of the latest read of its list (before,
 *   `listed_at` stayed the first read's while a sync moved the position);
 * - a membership keeps its list's own verdict on the video, `skip_code` and `skip_reason` (NULL when
 *   the list took it), since selection is judged per list: a video is skipped only when every list
 *   that holds it leaves it out. Earlier versions judged a video by the first list that named it, so
 *   each list of a skipped video is given that verdict, which is what those versions applied;
 * - list_cuts keeps the videos a read of a list named past `--max-videos`, which no later read takes
 *   (a cap is no verdict on a video the job holds: they have no item).
 */
export const listReadsSchema = `
ALTER TABLE items ADD COLUMN listed_at TEXT;
UPDATE items SET listed_at = (
  SELECT m.listed_at FROM memberships m WHERE m.item_id = items.id AND m.source_id = items.source_id
);

ALTER TABLE memberships ADD COLUMN skip_code TEXT;
ALTER TABLE memberships ADD COLUMN skip_reason TEXT;
UPDATE memberships SET skip_code = i.code, skip_reason = i.message
FROM items i, sources s
WHERE i.id = memberships.item_id AND s.id = memberships.source_id AND i.status = 'skipped' AND s.kind <> 'video';

CREATE TABLE list_cuts (
  source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  video_id TEXT NOT NULL,
  PRIMARY KEY (source_id, video_id)
) WITHOUT ROWID;
`;
