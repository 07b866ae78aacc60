import { rereadStoredTranscript, type Clock } from '../api';
import { reportBackgroundFailure, type Database } from '../store';
import { storedTranscript } from '../store/queries/library';
import {
  indexedThrough,
  indexNextTranscripts,
  unindexedCounts,
  type IndexedSegment,
  type IndexPart,
} from '../store/library-index';
import type { Logger } from './types';

/** How far indexing the stored transcripts has come, for a face to show. */
export interface IndexingProgress {
  done: number;
  total: number;
}

export interface LibraryIndexerOptions {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** Transcripts per transaction. Default: INDEX_BATCH. */
  batchSize?: number;
  /** The longest a stored transcript waits to be indexed while a run goes on. Default: INDEX_WAIT_MS. */
  waitMs?: number;
}

/**
 * Transcripts indexed per transaction. FTS5 writes a segment of its b-tree at every commit, so a
 * transcript indexed in a batch of 256 costs about half what it costs in a group of 16
 * (bench/RESULTS.md, "Library"), and a batch takes some tens of milliseconds.
 */
export const INDEX_BATCH = 256;

/** The most a search lags behind the store during a run (docs/product.md). */
export const INDEX_WAIT_MS = 1000;

/**
 * Indexes stored transcripts for the Library, after the transaction that stores them (store/
 * library-index.ts). During a run, the transcripts this process stores wait until INDEX_BATCH of
 * them have gathered or INDEX_WAIT_MS has passed on the clock since the first, and every run ends
 * with the rest indexed; their segments are kept meanwhile, so that the body is not read again.
 * The mark in the database, not this memory, says what is indexed: a process killed first leaves
 * those transcripts past it, and catchUp() (at the next start of any face) indexes them, as it indexes
 * those an upgrade asks to index again.
 */
export class LibraryIndexer {
  readonly #db: Database;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #batchSize: number;
  readonly #waitMs: number;
  /** The segments of transcripts stored here and not indexed yet, by id. */
  readonly #texts = new Map<number, readonly IndexedSegment[]>();
  #waiting: AbortController | undefined;
  /** A flush failed and said so: the next failures are the same one until a flush succeeds. */
  #failing = false;

  constructor(options: LibraryIndexerOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#batchSize = options.batchSize ?? INDEX_BATCH;
    this.#waitMs = options.waitMs ?? INDEX_WAIT_MS;
  }

  /** A transcript this process has just stored (its transaction committed), with its segments. */
  stored(transcriptId: number, segments: readonly IndexedSegment[]): void {
    this.#texts.set(transcriptId, segments);
    if (this.#texts.size >= this.#batchSize) this.flush();
    else if (this.#waiting === undefined) this.#flushLater();
  }

  /**
   * Indexes now every transcript stored up to the last one this process stored (those another
   * process stored among them too). A failure (a full disk) is logged: the transcripts stay past the
   * mark, for the next flush or the next start.
   */
  flush(): void {
    this.#waiting?.abort();
    this.#waiting = undefined;
    const last = Math.max(0, ...this.#texts.keys());
    try {
      while (indexedThrough(this.#db, 'recent') < last) {
        if (this.#indexBatch('recent') === 0) break;
      }
      this.#failing = false;
    } catch (error) {
      if (!this.#failing)
        reportBackgroundFailure(
          this.#logger,
          'Indexing new transcripts for search failed; they are indexed at the next start',
          error,
        );
      this.#failing = true;
    }
    const through = this.#safeMark();
    for (const id of this.#texts.keys()) if (id <= through) this.#texts.delete(id);
  }

  /**
   * Indexes every stored transcript not indexed yet (after an upgrade, the whole library again; after
   * a process was killed, what it had not indexed), a batch per turn of the event loop so that the
   * app answers meanwhile and searches find what is indexed so far. Resolves when done, when
   * `stopped` says so, or after a failure (logged: the next start carries on).
   */
  async catchUp(options: {
    stopped: () => boolean;
    onProgress?: (progress: IndexingProgress) => void;
  }): Promise<void> {
    let total: number;
    try {
      const counts = unindexedCounts(this.#db);
      total = counts.older + counts.recent;
    } catch (error) {
      reportBackgroundFailure(
        this.#logger,
        'Indexing the stored transcripts for search could not start; it starts again at the next start',
        error,
      );
      return;
    }
    if (total === 0) return;
    options.onProgress?.({ done: 0, total });
    let done = 0;
    for (const part of ['older', 'recent'] as const) {
      for (;;) {
        await new Promise((resolve) => setImmediate(resolve));
        if (options.stopped() || done >= total) return;
        let indexed: number;
        try {
          indexed = this.#indexBatch(part);
        } catch (error) {
          reportBackgroundFailure(
            this.#logger,
            'Indexing the stored transcripts for search stopped; it continues at the next start',
            error,
          );
          return;
        }
        if (indexed === 0) break;
        done = Math.min(done + indexed, total);
        options.onProgress?.({ done, total });
      }
    }
  }

  /** Stops waiting: what is left is indexed by the next flush, or at the next start. */
  dispose(): void {
    this.#waiting?.abort();
    this.#waiting = undefined;
  }

  #flushLater(): void {
    const waiting = new AbortController();
    this.#waiting = waiting;
    this.#clock.sleep(this.#waitMs, waiting.signal).then(
      () => {
        if (this.#waiting === waiting) this.flush();
      },
      () => undefined,
    );
  }

  #indexBatch(part: IndexPart): number {
    return indexNextTranscripts(this.#db, part, this.#batchSize, (id) => this.#segments(id));
  }

  /** What this process kept of a transcript it stored, else its body read again. */
  #segments(transcriptId: number): readonly IndexedSegment[] {
    const kept = this.#texts.get(transcriptId);
    if (kept !== undefined) return kept;
    const stored = storedTranscript(this.#db, transcriptId);
    if (stored === undefined) return [];
    const reading = rereadStoredTranscript(JSON.parse(stored.body), {
      video: stored.videoId,
      includeTimestamp: stored.includeTimestamp,
      sendMetadata: stored.sendMetadata,
      ...(stored.requestedLang !== '' && { lang: stored.requestedLang }),
    });
    return reading.ok ? reading.value.segments : [];
  }

  #safeMark(): number {
    try {
      return indexedThrough(this.#db, 'recent');
    } catch {
      return 0;
    }
  }
}
