/**
 * The Library measures attention over time (issue 47): a trend's airtime is the seconds of the
 * matching captions against the seconds of every caption in scope, which no query can add up from
 * the index alone. `caption_times` keeps, for every indexed transcript, each caption's airtime in
 * whole milliseconds (a BLOB of little-endian 32-bit integers, one per segment: 0 for a blank one or
 * one without times) and their total, written by store/library-index.ts in the transaction that
 * indexes the transcript (the rule of a caption's airtime is there and in docs/product.md).
 *
 * Every transcript stored before this migration must be timed, which is indexing it again: as 009
 * did, the index is made again, empty, and both marks go back, so core/engine/library-indexer.ts
 * indexes and times the whole library, a batch at a time, at the next start. caption_copies keeps
 * its rows (indexing again adds none it has: INSERT OR IGNORE).
 */
export const captionTimesSchema = `
CREATE TABLE caption_times (
  -- A stored transcript's id. No REFERENCES: a transcript is never deleted, and the check, a read of
  -- the transcript's row at every insert, nearly doubled indexing's CPU (bench/RESULTS.md, "Trends").
  transcript_id INTEGER PRIMARY KEY,
  total_ms INTEGER NOT NULL,
  caption_ms BLOB NOT NULL
);
DROP TABLE segment_index;
CREATE VIRTUAL TABLE segment_index USING fts5(
  text,
  content = '',
  columnsize = 0,
  tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
);
INSERT INTO segment_index (segment_index, rank) VALUES ('automerge', 8);
UPDATE transcript_index_backfill
  SET done_through = 0,
      until_id = (SELECT coalesce(max(id), 0) FROM transcripts),
      indexed_through = (SELECT coalesce(max(id), 0) FROM transcripts);
`;
