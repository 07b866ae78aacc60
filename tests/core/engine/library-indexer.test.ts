import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryIndexer, type IndexingProgress } from '../../../src/core/engine/library-indexer';
import { openDatabase, type Database } from '../../../src/core/store';
import { matchingRowids } from '../../../src/core/store/queries/library';
import { storeTranscript } from '../../../src/core/store/transcripts';
import { parseSearchQuery } from '../../../src/shared/search-query';
import { TimerClock } from '../api/fake-clock';
import { tempDir } from './helpers';

// Transcripts are indexed after the transaction that stores them, in batches: a search may lag the
// store by at most INDEX_WAIT_MS (here 1,000 ms of a clock that moves only when told), never loses a
// transcript a process stored and did not index, and indexes none twice.

let folder: ReturnType<typeof tempDir>;
let db: Database;
let clock: TimerClock;
let nextVideo = 0;

const quiet = { warn: () => undefined };

/** Stores a transcript whose one segment says `text`, as a fetch does; returns its id and segments. */
function store(text: string): {
  id: number;
  texts: Array<{ text: string; start: number; duration: number }>;
} {
  const texts = [{ text, start: 0, duration: 1 }];
  const id = storeTranscript(db, {
    videoId: `video${String(nextVideo++).padStart(6, '0')}`,
    requestedLang: '',
    includeTimestamp: true,
    sendMetadata: false,
    language: 'en',
    title: null,
    segmentCount: 1,
    body: JSON.stringify({ language: 'en', transcript: [{ text, start: 0, duration: 1 }] }),
    fetchedAt: '2030-01-01T00:00:00.000Z',
  });
  return { id, texts };
}

/** How many segments the index finds for a word. */
function found(word: string): number {
  const parsed = parseSearchQuery(word);
  if (!parsed.ok) throw new Error(parsed.message);
  return matchingRowids(db, parsed.query).length;
}

beforeEach(() => {
  folder = tempDir();
  db = openDatabase(join(folder.dir, 'scriptorium.db'));
  clock = new TimerClock();
});

afterEach(() => {
  db.close();
  folder.remove();
});

describe('LibraryIndexer', () => {
  it('indexes what a run stores within a second, or at once when a batch has gathered', async () => {
    const indexer = new LibraryIndexer({ db, clock, logger: quiet, batchSize: 3, waitMs: 1000 });
    for (const text of ['river one', 'river two']) {
      const { id, texts } = store(text);
      indexer.stored(id, texts);
    }
    expect(found('river')).toBe(0);
    clock.advance(999);
    expect(found('river')).toBe(0);
    clock.advance(1);
    await Promise.resolve(); // the sleep's end reaches the indexer
    expect(found('river')).toBe(2);
    // Three stored: a batch, indexed at once, with no time passing.
    for (const text of ['lake one', 'lake two', 'lake three']) {
      const { id, texts } = store(text);
      indexer.stored(id, texts);
    }
    expect(found('lake')).toBe(3);
    indexer.dispose();
  });

  it('indexes at the end of a run (flush) what it has not yet', () => {
    const indexer = new LibraryIndexer({ db, clock, logger: quiet, batchSize: 256, waitMs: 1000 });
    const { id, texts } = store('river alone');
    indexer.stored(id, texts);
    expect(found('river')).toBe(0);
    indexer.flush();
    expect(found('river')).toBe(1);
    // Nothing is indexed twice: the waiting time passing later adds nothing.
    clock.advance(1000);
    expect(found('river')).toBe(1);
  });

  it('leaves what a killed process stored past the mark, for the next start to index from the bodies', async () => {
    const killed = new LibraryIndexer({ db, clock, logger: quiet, batchSize: 2, waitMs: 1000 });
    for (const text of ['river a', 'river b', 'river c']) {
      const { id, texts } = store(text);
      killed.stored(id, texts);
    }
    // Two went as a batch; the third waited for the clock when the process was killed.
    expect(found('river')).toBe(2);
    killed.dispose();

    const progress: IndexingProgress[] = [];
    const next = new LibraryIndexer({ db, clock, logger: quiet, batchSize: 2 });
    await next.catchUp({ stopped: () => false, onProgress: (step) => progress.push(step) });
    expect(progress).toEqual([
      { done: 0, total: 1 },
      { done: 1, total: 1 },
    ]);
    expect(found('river')).toBe(3);
  });
});
