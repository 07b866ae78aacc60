/**
 * The Library (docs/product.md, "Searching your transcripts"): a full-text index of every stored
 * transcript, one row per transcript (rowid = transcripts.id). Contentless: the text already lives in
 * transcripts.body, so the index keeps only its tokens (src/shared/search-text.ts makes them; words
 * separated by spaces, scripts without spaces cut into pairs). bm25 ranks with the index alone.
 * Transcripts stored before this migration are indexed afterwards, in batches, by the backfill
 * (core/app/library-backfill.ts): its row says how far it has come, so that a killed process carries
 * on where it stopped and indexes nothing twice. Transcripts stored later are indexed when stored.
 */
export const librarySchema = `
CREATE VIRTUAL TABLE transcript_index USING fts5(
  text,
  content = '',
  tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
);
CREATE TABLE transcript_index_backfill (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  -- Transcripts up to this id are indexed...
  done_through INTEGER NOT NULL,
  -- ...of those the backfill must index (stored before this migration).
  until_id INTEGER NOT NULL
);
-- The Library names a transcript's video and channel from the items that hold it.
CREATE INDEX items_by_transcript ON items (transcript_id) WHERE transcript_id IS NOT NULL;
INSERT INTO transcript_index_backfill (id, done_through, until_id)
  SELECT 1, 0, coalesce(max(id), 0) FROM transcripts;
`;
