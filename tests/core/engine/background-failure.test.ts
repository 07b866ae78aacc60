import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/core/engine';
import { LibraryIndexer } from '../../../src/core/engine/library-indexer';
import { openDatabase, type Database } from '../../../src/core/store';
import { jobById } from '../../../src/core/store/jobs';
import { unindexedCounts } from '../../../src/core/store/library-index';
import { matchingRowids } from '../../../src/core/store/queries/library';
import { storeTranscript } from '../../../src/core/store/transcripts';
import { parseSearchQuery } from '../../../src/shared/search-query';
import { describePlaylist } from '../../../src/simulator';
import { TimerClock } from '../api/fake-clock';
import { startHarness, spec, tempDir, type Harness } from './helpers';
import {
  BREAKAGES,
  breakStore,
  expectPlain,
  PLAIN_BREAKAGE,
  recordingLogger,
} from '../../support/broken-store';

// Issue 44: work done in the background fails as plainly as the engine does when the data folder's
// disk fills up or its folder turns read-only (tests/support/broken-store.ts): one line saying what
// failed, what becomes of the work and why, never a stack trace; and what it left undone is done at
// the next start.

describe('the search indexer', () => {
  let folder: ReturnType<typeof tempDir>;
  let file: string;
  let db: Database;
  let nextVideo = 0;

  beforeEach(() => {
    folder = tempDir();
    file = join(folder.dir, 'scriptorium.db');
    db = openDatabase(file);
  });

  afterEach(() => {
    if (db.open) db.close();
    folder.remove();
  });

  /** Stores `count` transcripts of many segments each saying `word`, as a fetch does. */
  function storeMany(count: number, word: string): Array<{ id: number; texts: string[] }> {
    return Array.from({ length: count }, () => {
      const texts = Array.from({ length: 200 }, (_, i) => `${word} ${i} ${nextVideo} rolls on`);
      const id = storeTranscript(db, {
        videoId: `video${String(nextVideo++).padStart(6, '0')}`,
        requestedLang: '',
        includeTimestamp: true,
        sendMetadata: false,
        language: 'en',
        title: null,
        segmentCount: texts.length,
        body: JSON.stringify({
          language: 'en',
          transcript: texts.map((text, start) => ({ text, start, duration: 1 })),
        }),
        fetchedAt: '2030-01-01T00:00:00.000Z',
      });
      return { id, texts };
    });
  }

  function found(on: Database, word: string): number {
    const parsed = parseSearchQuery(word);
    if (!parsed.ok) throw new Error(parsed.message);
    return matchingRowids(on, parsed.query).length;
  }

  /** The next start: a new connection with room, whose indexer catches up. */
  async function nextStart(): Promise<Database> {
    db.close();
    const reopened = openDatabase(file);
    const { lines, logger } = recordingLogger();
    await new LibraryIndexer({ db: reopened, clock: new TimerClock(), logger }).catchUp({
      stopped: () => false,
    });
    expect(lines).toEqual([]);
    expect(unindexedCounts(reopened)).toEqual({ older: 0, recent: 0 });
    return reopened;
  }

  for (const how of BREAKAGES) {
    it(`indexing what a run stored fails in one plain line on a ${how}, and the next start indexes it`, async () => {
      const { lines, logger } = recordingLogger();
      const indexer = new LibraryIndexer({ db, clock: new TimerClock(), logger, batchSize: 1000 });
      const stored = storeMany(40, 'river');
      breakStore(db, how);
      for (const { id, texts } of stored)
        indexer.stored(
          id,
          texts.map((text) => ({ text })),
        );
      indexer.flush();
      expect(lines).toEqual([
        [
          `Indexing new transcripts for search failed; they are indexed at the next start: ${PLAIN_BREAKAGE[how]}`,
        ],
      ]);
      expectPlain(lines);

      db = await nextStart();
      expect(found(db, 'river')).toBe(40 * 200);
    });

    it(`indexing the whole library again (after an upgrade) stops in one plain line on a ${how}, and the next start finishes it`, async () => {
      storeMany(40, 'lake');
      breakStore(db, how);
      const { lines, logger } = recordingLogger();
      await new LibraryIndexer({ db, clock: new TimerClock(), logger, batchSize: 10 }).catchUp({
        stopped: () => false,
      });
      expect(lines).toEqual([
        [
          `Indexing the stored transcripts for search stopped; it continues at the next start: ${PLAIN_BREAKAGE[how]}`,
        ],
      ]);

      db = await nextStart();
      expect(found(db, 'lake')).toBe(40 * 200);
    });
  }
});

describe('a run whose disk fills up', () => {
  let h: Harness;
  afterEach(async () => h.close());

  it('keeps the job queued with why, in plain words, and the next start finishes it, buying again only what was in flight', async () => {
    h = await startHarness({ credits: 10_000 });
    const { lines, logger } = recordingLogger();
    const engine = new Engine({ db: h.db, client: h.client, clock: h.clock, logger });
    const playlist = 'PLdiskFillsDuringRun_n200';
    const { job } = engine.findOrCreateJob(spec([playlist]));
    let fetched = 0;
    engine.on('item', (item) => {
      if (item.status === 'ok' && ++fetched === 30) breakStore(h.db, 'full disk');
    });
    await expect(engine.run(job.id, { concurrency: 2 })).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expectPlain(lines);
    expect(jobById(h.db, job.id)).toMatchObject({
      status: 'queued',
      stopReason: 'error',
      stopCode: 'disk_full',
      stopMessage: PLAIN_BREAKAGE['full disk'],
    });

    // The next start: room again, on a new connection.
    const db = openDatabase(h.dbFile);
    try {
      const after = recordingLogger();
      const next = new Engine({ db, client: h.client, clock: h.clock, logger: after.logger });
      next.recover();
      expect((await next.run(job.id)).status).toBe('completed');
      // Nothing was cut and left failed as possibly charged: what the full disk kept from being stored
      // is simply asked again.
      expect(next.job(job.id)!.counts).toMatchObject({ failed: 0, pending: 0 });
      expect(after.lines).toEqual([]);
      expect(unindexedCounts(db)).toEqual({ older: 0, recent: 0 });
      // Bought again: only what was in flight or not yet committed when the disk filled, as after a
      // crash (at most twice the concurrency), never what was stored before.
      const videos = describePlaylist(playlist).videoIds();
      expect(videos.filter((videoId) => h.sim.admin.chargesFor(videoId) > 1).length).toBeLessThanOrEqual(
        2 * 2,
      );
    } finally {
      db.close();
    }
  });
});
