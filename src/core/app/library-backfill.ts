import type { Logger } from '../engine';
import type { Database } from '../store';
import { backfillBatch, backfillRemaining, libraryTranscript } from '../store/library';
import { readBody } from './library';

/** How far indexing the transcripts stored before the index (migration 007, again after 008) has come. */
export interface IndexingProgress {
  done: number;
  total: number;
}

export interface BackfillOptions {
  logger: Logger;
  /** Transcripts per transaction. Default: BACKFILL_BATCH. */
  batchSize?: number;
  /** Hears after each batch has committed. */
  onProgress?: (progress: IndexingProgress) => void;
  /** Asked before each batch: the app is closing. */
  stopped: () => boolean;
}

/** Transcripts indexed per transaction: some tens of milliseconds each, so the app stays responsive. */
export const BACKFILL_BATCH = 200;

/**
 * Indexes the transcripts a database held before the index was made (migration 007, and again after
 * 008 changed its rows), a batch per turn of the event loop so that the app answers meanwhile
 * (searches find what is indexed so far). Each batch is committed
 * with the mark of how far it got (store/library.ts backfillBatch): a process killed halfway carries
 * on at its next start where it stopped, and indexes nothing twice. A failure is logged, not thrown:
 * searching then finds what was indexed, and the next start tries again.
 */
export async function backfillLibrary(db: Database, options: BackfillOptions): Promise<void> {
  const { logger, stopped } = options;
  let total: number;
  try {
    total = backfillRemaining(db);
  } catch (error) {
    logger.warn('Indexing the stored transcripts for search could not start.', error);
    return;
  }
  let done = 0;
  while (done < total) {
    await new Promise((resolve) => setImmediate(resolve));
    if (stopped()) return;
    let indexed: number;
    try {
      indexed = backfillBatch(db, options.batchSize ?? BACKFILL_BATCH, segmentTextsOf(db));
    } catch (error) {
      logger.warn(
        'Indexing the stored transcripts for search stopped; it continues at the next start.',
        error,
      );
      return;
    }
    if (indexed === 0) return;
    done += indexed;
    options.onProgress?.({ done: Math.min(done, total), total });
  }
}

function segmentTextsOf(db: Database) {
  return ({ id }: { id: number }): string[] => {
    const transcript = libraryTranscript(db, id);
    if (transcript === undefined) return [];
    return readBody(transcript).segments.map((segment) => segment.text);
  };
}
