/**
 * The Library's index gets a row per segment (issue 21: a word said in most videos answered in
 * milliseconds, its totals exact). 007 had a row per transcript, so the totals (videos and hits, a hit
 * being a segment) needed every matching transcript read back and its segments matched in
 * JavaScript: seconds for a common word. A row per segment (rowid = transcript id * 2^20 + the
 * segment's index, store/library.ts) lets FTS5 itself name the matching segments.
 *
 * Same tokenizer as 007, still contentless; `columnsize=0` because nothing reads the rows' sizes
 * (the Library ranks videos by their matching segments, not with FTS5's bm25), which saves a row of
 * `_docsize` per segment. `automerge` 8 rather than FTS5's 4: a fetch commits every few transcripts,
 * FTS5 writes a small segment of its b-tree at every commit and merges them once 8 (not 4) have
 * gathered on a level, which cut indexing's CPU by about a fifth (bench/RESULTS.md, "Library") for a
 * few more segments for a search to read. The old index is dropped and the backfill's mark set back
 * to the start: core/app/library-backfill.ts indexes every stored transcript again, in batches that
 * survive a stop, as it did after 007.
 *
 * `transcripts_facts` holds, in the order of ids, what a search needs of every transcript to count
 * and rank the matches without reading the transcripts (core/app/library-facts.ts): read from this
 * index, a hundred thousand transcripts take tens of milliseconds rather than a pass over every body.
 */
export const segmentIndexSchema = `
DROP TABLE transcript_index;
CREATE VIRTUAL TABLE segment_index USING fts5(
  text,
  content = '',
  columnsize = 0,
  tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
);
INSERT INTO segment_index (segment_index, rank) VALUES ('automerge', 8);
CREATE INDEX transcripts_facts ON transcripts (id, video_id, segment_count, language);
UPDATE transcript_index_backfill
  SET done_through = 0, until_id = (SELECT coalesce(max(id), 0) FROM transcripts);
`;
