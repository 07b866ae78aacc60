/**
 * What a crash can cost, said in the same words wherever users read it (README.md, docs/product.md
 * and every corpus's datasheet; tests/docs/durability.test.ts holds them to it), and the interval the
 * engine's ResultWriter keeps. Committing each paid result on its own, before it counts as fetched,
 * would close the gap to the requests in flight, but cost about a fifth more CPU per video
 * (bench/RESULTS.md, "Durability"): results are committed in small groups instead. Each group's
 * commit is flushed to the disk (fsync: SQLite's synchronous = FULL, store/database.ts), so the promise holds
 * for a power cut or a system crash too, not only for the process's own end.
 */

/** The longest a result waits for the others of its group before they are committed together, in ms. */
export const RESULT_GROUP_MS = 10;

export const DURABILITY_PROMISE =
  'Scriptorium stores what a job buys as it arrives, committing answers in small groups (at most the ' +
  `job's concurrency, or after ${RESULT_GROUP_MS} ms), each written through to the disk: if it crashes or ` +
  'is killed, or the computer loses power or its system crashes, the next run buys again only what was in ' +
  'flight or not yet committed, at most twice the concurrency in transcripts and one list page, and ' +
  'nothing stored before (after a power cut, as far as the disk keeps what it reports written).';
