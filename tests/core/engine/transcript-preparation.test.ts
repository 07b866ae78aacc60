import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXPORT_DERIVATION } from '../../../src/core/app/derivation';
import { PreparationLoop, type PreparationProgress } from '../../../src/core/engine/prepare-transcripts';
import { PREPARATION_WAIT_MS, TranscriptPreparation } from '../../../src/core/engine/transcript-preparation';
import { openDatabase, type Database } from '../../../src/core/store';
import { matchingRowids } from '../../../src/core/store/queries/library';
import { storeTranscript } from '../../../src/core/store/transcripts';
import { parseSearchQuery } from '../../../src/shared/search-query';
import { TimerClock } from '../api/fake-clock';
import { tempDir } from './helpers';

// Stored transcripts are prepared after the transaction that stores them, in batches: indexed for
// search (a search lags the store by at most PREPARATION_WAIT_MS of a clock that moves only when told)
// and derived for export, each once; what a process stored and did not prepare is prepared at the next
// start, and a failure is said in one line.

let folder: ReturnType<typeof tempDir>;
let db: Database;
let clock: TimerClock;
let nextVideo = 0;
let warnings: unknown[][];
const logger = { warn: (...args: unknown[]) => warnings.push(args) };

/** Stores a transcript whose one segment says `text`, as a fetch does. */
function store(text: string): number {
  return storeTranscript(db, {
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
}

/** How many segments the index finds for a word. */
function found(word: string): number {
  const parsed = parseSearchQuery(word);
  if (!parsed.ok) throw new Error(parsed.message);
  return matchingRowids(db, parsed.query).length;
}

/** Lets the event loop turn: a spell of one batch ends within a few turns. */
async function turns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

function derived(): number {
  return db.prepare('SELECT count(*) FROM derived_transcripts').pluck().get() as number;
}

function preparation(batchSize = 4): TranscriptPreparation {
  return new TranscriptPreparation({ db, clock, logger, derivation: EXPORT_DERIVATION, batchSize });
}

beforeEach(() => {
  folder = tempDir();
  db = openDatabase(join(folder.dir, 'scriptorium.db'));
  clock = new TimerClock();
  warnings = [];
});

afterEach(() => {
  db.close();
  folder.remove();
});

describe('TranscriptPreparation', () => {
  it('prepares what a run stores within a second of the clock, each transcript once', async () => {
    const prepared = preparation();
    for (const text of ['river one', 'river two']) prepared.stored(store(text));
    expect([found('river'), derived()]).toEqual([0, 0]);
    clock.advance(PREPARATION_WAIT_MS - 1);
    await turns(3);
    expect([found('river'), derived()]).toEqual([0, 0]);
    clock.advance(1);
    await turns(3);
    expect([found('river'), derived()]).toEqual([2, 2]);
    // Nothing twice: the waiting time passing again adds nothing.
    clock.advance(PREPARATION_WAIT_MS);
    await prepared.drain();
    expect([found('river'), derived()]).toEqual([2, 2]);
    await prepared.close();
    expect(warnings).toEqual([]);
  });

  it('prepares at the end of a run (drain) what it has not yet, without waiting for the clock', async () => {
    const prepared = preparation();
    for (let n = 0; n < 9; n++) prepared.stored(store(`lake ${n}`));
    await prepared.drain();
    expect([found('lake'), derived()]).toEqual([9, 9]);
    await prepared.close();
  });

  it('lets a search wait for the runs that have ended (drained), so that it finds all a run stored, and waits for nothing during a run', async () => {
    const prepared = preparation();
    // During a run: nothing to wait for, and what waits for the clock is not searchable yet.
    prepared.stored(store('delta before'));
    await prepared.drained();
    expect(found('delta')).toBe(0);
    for (let n = 0; n < 9; n++) prepared.stored(store(`delta ${n}`));
    // The run ends: the app shows it before its transcripts are prepared, a batch of 4 at a time.
    const runEnd = prepared.drain();
    await prepared.drained();
    expect(found('delta')).toBe(10);
    await runEnd;
    await prepared.close();
  });

  it('leaves what a stopped process stored for the next start, which prepares it telling its progress', async () => {
    for (let n = 0; n < 10; n++) store(`river ${n}`);
    // A process stopped after one batch of four.
    let batches = 0;
    const stopped = new PreparationLoop(db, EXPORT_DERIVATION, 4);
    await stopped.run({ stopped: () => batches++ >= 1 });
    expect([found('river'), derived()]).toEqual([4, 4]);

    const progress: PreparationProgress[] = [];
    const next = preparation();
    await next.catchUp((step) => progress.push(step));
    expect(progress).toEqual([
      { done: 0, total: 6 },
      { done: 4, total: 6 },
      { done: 6, total: 6 },
    ]);
    expect([found('river'), derived()]).toEqual([10, 10]);
    await next.close();

    // Nothing is left: the next start tells nothing.
    const third = preparation();
    const none: PreparationProgress[] = [];
    await third.catchUp((step) => none.push(step));
    expect(none).toEqual([]);
    await third.close();
  });

  it("ends a run with its own transcripts prepared, without waiting for an upgrade's library", async () => {
    // Transcripts stored and indexed before this version, none derived: an upgrade's library.
    for (let n = 0; n < 10; n++) store(`river ${n}`);
    await new PreparationLoop(db, undefined).run({ stopped: () => false });
    const prepared = preparation(2);
    const catchingUp = prepared.catchUp();
    const own = store('lake of the run');
    prepared.stored(own);
    await prepared.drain();
    const isDerived = db.prepare('SELECT count(*) FROM derived_transcripts WHERE transcript_id = ?').pluck();
    expect(isDerived.get(own)).toBe(1);
    expect(derived()).toBeLessThan(11);
    await catchingUp;
    expect(derived()).toBe(11);
    await prepared.close();
  });

  it('derives again what an earlier version derived another way', async () => {
    for (let n = 0; n < 3; n++) store(`river ${n}`);
    await new PreparationLoop(db, { ...EXPORT_DERIVATION, name: 'an older derivation' }).run({
      stopped: () => false,
    });
    expect(db.prepare('SELECT DISTINCT derivation FROM derived_transcripts').pluck().all()).toEqual([
      'an older derivation',
    ]);
    const next = preparation();
    await next.catchUp();
    await next.close();
    expect(db.prepare('SELECT DISTINCT derivation FROM derived_transcripts').pluck().all()).toEqual([
      EXPORT_DERIVATION.name,
    ]);
    expect(derived()).toBe(3);
  });

  it('says a failure that is a bug once, with its stack for a report, and stops; the next start carries on', async () => {
    for (let n = 0; n < 3; n++) store(`river ${n}`);
    db.exec(`CREATE TRIGGER full BEFORE INSERT ON derived_transcripts
             BEGIN SELECT RAISE(ABORT, 'no room left for derived transcripts'); END`);
    const failing = preparation();
    await failing.catchUp();
    failing.stored(store('river after the failure'));
    await failing.drain();
    await failing.close();
    // Not a full disk nor an unusable folder (those are said in one plain line:
    // tests/core/engine/background-failure.test.ts): a bug, logged with its error.
    expect(warnings).toEqual([
      [
        'Preparing stored transcripts for search and export stopped; it carries on at the next start.',
        expect.objectContaining({ message: 'no room left for derived transcripts' }),
      ],
    ]);
    expect(derived()).toBe(0);

    db.exec('DROP TRIGGER full');
    const next = preparation();
    await next.catchUp();
    await next.close();
    expect([found('river'), derived()]).toEqual([4, 4]);
  });
});
