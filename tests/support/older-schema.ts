/**
 * What each migration after 008 added, taken away again (newest first), so that a test can make a
 * data folder look like one an older version left: run it, then undo 008 and older as the test
 * needs, and set `user_version`. A migration that adds something must add its undoing here.
 */
const UNDO_AFTER_8 = [
  // 015: the captions' airtime.
  'DROP TABLE caption_times;',
  // 014: the exact publication times learned for videos already listed.
  'DROP TABLE exact_dates;',
  // 013 made the index again, empty: nothing to undo.
  // 012: the services a job used, and what a version is written from.
  'DROP TABLE job_services; DROP TABLE version_videos; DROP TABLE version_memberships;',
  'ALTER TABLE versions DROP COLUMN inputs;',
  // 011: the versions' contents, metadata and state (its remade changes table stays: it reads the same).
  'ALTER TABLE versions DROP COLUMN contents; ALTER TABLE versions DROP COLUMN metadata;',
  'ALTER TABLE versions DROP COLUMN state;',
  // 010: the lists read again.
  'ALTER TABLE items DROP COLUMN listed_at; ALTER TABLE memberships DROP COLUMN skip_code;',
  'ALTER TABLE memberships DROP COLUMN skip_reason; DROP TABLE list_cuts;',
  // 009: the index of the exported text.
  'DROP TABLE caption_copies; DROP INDEX transcripts_by_video_language;',
  'ALTER TABLE transcript_index_backfill DROP COLUMN indexed_through;',
].join(' ');

/** SQL that takes a database of this version back to schema 8 (user_version left as it is). */
export const BACK_TO_SCHEMA_8 = UNDO_AFTER_8;

/** SQL that takes a database of this version back to schema 6, before the Library. */
export const BACK_TO_SCHEMA_6 =
  `${UNDO_AFTER_8} DROP TABLE segment_index; DROP INDEX transcripts_facts; ` +
  'DROP TABLE transcript_index_backfill; DROP INDEX items_by_transcript; PRAGMA user_version = 6;';
