import { storedTranscriptContent, type StoredTranscriptContent } from '../api/schemas';
import type { Segment } from '../api/types';
import type { Database } from '../store/database';
import { plainStorageFailure } from '../store/background-failure';
import {
  countTranscriptsToPrepare,
  latestTranscriptId,
  storeDerivedTranscripts,
  underivedTranscripts,
  type DerivedTranscriptRow,
  type UnderivedTranscript,
} from '../store/derived-transcripts';
import { indexNextTranscripts, nextToIndex, rangeOf, type IndexPart } from '../store/library-index';
import { storedTranscript } from '../store/queries/library';

/**
 * What a stored transcript makes whatever job exports it, derived by core/export's function (which
 * core/app gives the engine: DESIGN.md, "Derived transcripts").
 */
export interface Derivation {
  /** How it derives: a transcript derived another way is derived again. */
  name: string;
  derive(segments: readonly Segment[], metadata: Record<string, unknown> | undefined): DerivedTranscriptRow;
}

/** How far preparing the stored transcripts has come, for a face to show. */
export interface PreparationProgress {
  done: number;
  total: number;
}

/**
 * What stopped a spell, as data that crosses a thread: the store's plain words for a full disk or an
 * unusable folder (store/background-failure.ts), else the error's message and stack (a bug).
 */
export interface PreparationFailure {
  plain?: string | undefined;
  message: string;
  stack?: string | undefined;
}

/** How a spell of preparation ended: everything there was is prepared, or it stopped, saying why. */
export type SpellOutcome = { ok: true } | { ok: false; failure: PreparationFailure };

/** Transcripts read and derived per batch: the thread's memory holds one batch. */
export const PREPARATION_BATCH = 64;

/**
 * Transcripts written per transaction: a transaction holds the write lock, which the fetch loop's
 * commits wait for (sleeping, on its thread), for the time of their rows of the index, a few
 * milliseconds at this size.
 */
const WRITE_CHUNK = 16;

const LATEST_ID = Number.MAX_SAFE_INTEGER;

/** Which transcripts a batch takes: recent ones (PreparationLoop), then those before them. */
type Phase = 'recent' | 'older';

/**
 * Prepares stored transcripts for search and for export, after the transactions that store them:
 * each batch indexes the next transcripts of the Library's index (store/library-index.ts, its marks in
 * the database) and derives the next transcripts not derived yet (with `derivation`), reading each body
 * once, all outside the write lock but the short transactions that write the batch. Recent transcripts
 * come first (those past the index's recent mark: stored since the loop started, or left by a process
 * stopped before preparing them), so that a run's own are ready as soon as it ends, even while an
 * upgrade prepares the whole library; then those before. What is prepared is said by the database,
 * not by this loop: a process stopped halfway leaves the rest for the next one.
 */
export class PreparationLoop {
  readonly #db: Database;
  readonly #derivation: Derivation | undefined;
  readonly #batchSize: number;
  /**
   * Where the recent phase starts: after the last transcript stored and prepared before this loop
   * started (the index's recent mark, when a process stopped before preparing what it stored).
   */
  readonly #recentAfter: number;
  /** How far each phase has looked for transcripts to derive (skipping those it could not read). */
  readonly #derivedAfter: Record<Phase, number>;
  #olderDone = false;

  constructor(db: Database, derivation: Derivation | undefined, batchSize = PREPARATION_BATCH) {
    this.#db = db;
    this.#derivation = derivation;
    this.#batchSize = batchSize;
    this.#recentAfter = Math.min(latestTranscriptId(db), rangeOf(db, 'recent').from);
    this.#derivedAfter = { recent: this.#recentAfter, older: 0 };
  }

  /**
   * Prepares everything there is to prepare now, a batch per turn of the event loop, a recent batch
   * whenever there is one (a run's own transcripts overtake an upgrade's library); resolves when none
   * is left, when `stopped` says so, or at the first failure (a full disk, a read-only folder), which
   * it says in one line. After each batch it calls `onBatch`; with `onProgress`, it tells how many
   * there are first, then how far it has come.
   */
  async run({
    stopped,
    onProgress,
    onBatch,
  }: {
    stopped: () => boolean;
    onProgress?: (progress: PreparationProgress) => void;
    onBatch?: () => void;
  }): Promise<SpellOutcome> {
    try {
      let progress: PreparationProgress | undefined;
      if (onProgress !== undefined) {
        progress = { done: 0, total: countTranscriptsToPrepare(this.#db, this.#derivation?.name ?? null) };
        if (progress.total > 0) onProgress({ ...progress });
      }
      while (!stopped()) {
        let prepared = this.#prepareBatch('recent');
        if (prepared === 0 && !this.#olderDone) {
          prepared = this.#prepareBatch('older');
          this.#olderDone = prepared === 0;
        }
        if (prepared === 0) break;
        if (progress !== undefined) {
          progress.done = Math.min(progress.done + prepared, progress.total);
          onProgress?.({ ...progress });
        }
        onBatch?.();
        await new Promise((resolve) => setImmediate(resolve));
      }
      return { ok: true };
    } catch (error) {
      return { ok: false, failure: preparationFailure(error) };
    }
  }

  /** Prepares the next batch of the phase; returns how many transcripts it prepared (0: none left). */
  #prepareBatch(phase: Phase): number {
    const db = this.#db;
    const part: IndexPart = phase;
    const after = this.#derivedAfter[phase];
    const until = phase === 'recent' ? LATEST_ID : this.#recentAfter;
    const toDerive =
      this.#derivation === undefined
        ? []
        : underivedTranscripts(db, {
            derivation: this.#derivation.name,
            after,
            until,
            limit: this.#batchSize,
          });
    const toIndex = nextToIndex(db, part, this.#batchSize);
    if (toDerive.length === 0 && toIndex.length === 0) return 0;

    const contents = new Map<number, StoredTranscriptContent | undefined>();
    for (const transcript of toDerive) contents.set(transcript.id, readContent(transcript));
    for (const id of toIndex) if (!contents.has(id)) contents.set(id, readStored(db, id));
    const derived = this.#derive(toDerive, contents);
    const segmentsOf = (id: number): readonly Segment[] => {
      const content = contents.has(id) ? contents.get(id) : readStored(db, id);
      return content?.segments ?? [];
    };
    // Written WRITE_CHUNK at a time: each transaction holds the write lock, which the fetch loop's
    // commits wait for, only a few milliseconds.
    const write = db.transaction((derivedChunk: typeof derived, indexed: number) => {
      if (this.#derivation !== undefined) storeDerivedTranscripts(db, this.#derivation.name, derivedChunk);
      if (indexed > 0) indexNextTranscripts(db, part, indexed, segmentsOf);
    });
    for (let at = 0; at < Math.max(derived.length, toIndex.length); at += WRITE_CHUNK) {
      const indexed = Math.max(0, Math.min(WRITE_CHUNK, toIndex.length - at));
      write.immediate(derived.slice(at, at + WRITE_CHUNK), indexed);
    }

    const last = toDerive.at(-1);
    if (last !== undefined) this.#derivedAfter[phase] = last.id;
    return new Set([...toDerive.map(({ id }) => id), ...toIndex]).size;
  }

  /** What each transcript derives; one whose body cannot be read is left for the export to report. */
  #derive(
    transcripts: readonly UnderivedTranscript[],
    contents: ReadonlyMap<number, StoredTranscriptContent | undefined>,
  ): Array<{ transcriptId: number; derived: DerivedTranscriptRow }> {
    const derivation = this.#derivation;
    if (derivation === undefined) return [];
    return transcripts.flatMap(({ id }) => {
      const content = contents.get(id);
      return content === undefined
        ? []
        : [{ transcriptId: id, derived: derivation.derive(content.segments, content.metadata) }];
    });
  }
}

function readContent(transcript: UnderivedTranscript): StoredTranscriptContent | undefined {
  const reading = storedTranscriptContent(transcript.body, {
    video: transcript.videoId,
    includeTimestamp: transcript.includeTimestamp,
    sendMetadata: transcript.sendMetadata,
    ...(transcript.requestedLang !== '' && { lang: transcript.requestedLang }),
  });
  return reading.ok ? reading.value : undefined;
}

function readStored(db: Database, id: number): StoredTranscriptContent | undefined {
  const stored = storedTranscript(db, id);
  return stored === undefined ? undefined : readContent({ ...stored, id });
}

/** A failure as data: the store's plain words when it has them, else what a bug report needs. */
export function preparationFailure(error: unknown): PreparationFailure {
  const plain = plainStorageFailure(error);
  if (plain !== undefined) return { plain, message: plain };
  return error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) };
}
