/**
 * What each stored transcript makes whatever job exports it, derived once after it is stored (issue
 * 45): its txt, srt and vtt files compressed as a ZIP entry holds them, the tail of its record, its
 * word count and times (core/export/derived-transcript.ts says what the blobs hold). An export then
 * only completes what depends on the job. Rows are written by core/engine's background work, on a
 * thread of its own, and only read by the export.
 *
 * `derivation` names how a row was made (the encoding, the rendering, zlib's version and level): a
 * row made another way counts as missing, so that an upgrade that changes any of them derives every
 * transcript again, in the background, while exports render what is not derived yet. A database
 * from before this migration has no row at all, and is derived the same way.
 */
export const derivedTranscriptsSchema = `
CREATE TABLE derived_transcripts (
  transcript_id INTEGER PRIMARY KEY REFERENCES transcripts(id) ON DELETE CASCADE,
  derivation TEXT NOT NULL,
  word_count INTEGER NOT NULL,
  spoken_seconds REAL NOT NULL,
  timed INTEGER NOT NULL,
  -- The metadata's title and author, for a record whose list page named neither.
  title TEXT,
  author_name TEXT,
  -- The record's members from author_name on, compact JSON, raw deflate.
  record_tail BLOB NOT NULL,
  -- The compressed files, each after its sizes and sums.
  files BLOB NOT NULL
);
-- Which transcripts are derived, and how, read without the rows' blobs.
CREATE INDEX derived_transcripts_made ON derived_transcripts (transcript_id, derivation);
`;
