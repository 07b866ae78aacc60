/**
 * The Library indexes the text the corpus exports, folded as Unicode's full case folding does, and
 * after the transaction that stores a transcript rather than inside it (issue 34).
 *
 * 008's index held the service's raw text (markup such as `<b>`, entities such as `&amp;`) folded
 * by FTS5 alone (simple case folding: ß stayed ß), and cut Korean into words at spaces only: it is
 * dropped and made again, empty, and every stored transcript is indexed again by
 * core/engine/prepare-transcripts.ts, in batches that survive a stop: `done_through` goes back to the
 * start of the transcripts stored before this migration (up to `until_id`).
 *
 * `indexed_through` is the new mark of the transcripts stored since (ids past `until_id`): they are
 * indexed a batch at a time after they are stored, and a process killed before that leaves them
 * past the mark, for the next process to index. Both marks move in the transaction that indexes.
 *
 * `caption_copies` says which captions of a transcript another transcript of the same video and
 * language already holds (a video bought again by another job, or with other options), so that a
 * search counts a caption once: for each such transcript, the earlier transcript most of its
 * captions are copies of, and the segments where that is not so, each with the transcript whose
 * caption it copies (itself, for a caption of its own). Rows are only added, each when its
 * transcript is indexed; a search reads those added since its last one, in the order of `id`.
 */
export const exportedTextIndexSchema = `
DROP TABLE segment_index;
CREATE VIRTUAL TABLE segment_index USING fts5(
  text,
  content = '',
  columnsize = 0,
  tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
);
INSERT INTO segment_index (segment_index, rank) VALUES ('automerge', 8);
ALTER TABLE transcript_index_backfill ADD COLUMN indexed_through INTEGER NOT NULL DEFAULT 0;
UPDATE transcript_index_backfill
  SET done_through = 0,
      until_id = (SELECT coalesce(max(id), 0) FROM transcripts),
      indexed_through = (SELECT coalesce(max(id), 0) FROM transcripts);
CREATE TABLE caption_copies (
  id INTEGER PRIMARY KEY,
  transcript_id INTEGER NOT NULL UNIQUE REFERENCES transcripts(id),
  -- The transcript most of this one's captions are copies of.
  copy_of INTEGER NOT NULL REFERENCES transcripts(id),
  -- JSON [[segment, transcript id], ...]: the segments that copy another transcript, or none.
  exceptions TEXT NOT NULL
);
-- Finds the earlier transcripts of a video in a language.
CREATE INDEX transcripts_by_video_language ON transcripts (video_id, language, id);
`;
