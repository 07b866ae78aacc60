/**
 * The Library reads text in its compatibility form (issue 43: shared/search-text.ts `foldText`, NFKC
 * and Unicode's full case folding, for what it indexes and what a user searches alike), so that
 * fullwidth "ｒｉｖｅｒ", halfwidth "ｴﾝｼﾞﾝ" and Korean in conjoining jamo find what they say. The
 * index 009 built held such text as it came: it is dropped and made again, empty, and every stored
 * transcript is indexed again as 009 had it done (core/engine/library-indexer.ts, a batch at a time
 * and surviving a stop): `done_through` goes back to the start of the transcripts stored so far, up
 * to `until_id`; those stored later are past `indexed_through`, as before. `caption_copies` stays:
 * which captions copy which does not depend on how they are folded.
 */
export const compatibilityIndexSchema = `
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
