import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/core/engine';
import { openDatabase } from '../../../src/core/store';
import { describePlaylist } from '../../../src/simulator';
import { startHarness, spec, type Harness } from './helpers';

let h: Harness;
afterEach(async () => h.close());

describe('two jobs sharing videos, running at the same time', () => {
  it('never buy the same transcript twice: one buys it, the other waits for it', async () => {
    h = await startHarness({ credits: 10_000, latencyMs: 5 });
    // Two connections to one database file, as two processes would have.
    const otherDb = openDatabase(h.dbFile);
    const other = new Engine({ db: otherDb, client: h.makeClient(), clock: h.clock });
    // The same 150 videos listed twice: a playlist, and the uploads playlist it mirrors.
    const first = h.engine.findOrCreateJob(spec(['PLsharedVideosList_n150'])).job;
    const second = other.findOrCreateJob(spec(['PLsharedVideosList_n150'], { maxVideos: 150 })).job;
    expect(second.id).not.toBe(first.id);

    const [a, b] = await Promise.all([
      h.engine.run(first.id, { concurrency: 8 }),
      other.run(second.id, { concurrency: 8 }),
    ]);
    otherDb.close();

    expect(a.status).toBe('completed');
    expect(b.status).toBe('completed');
    for (const videoId of describePlaylist('PLsharedVideosList_n150').videoIds()) {
      expect(h.sim.admin.chargesFor(videoId), videoId).toBeLessThanOrEqual(1);
    }
    const done = (id: number) => h.engine.job(id)!.counts;
    expect(done(first.id).ok).toBe(done(second.id).ok);
    expect(h.db.prepare('SELECT count(*) AS n FROM transcript_claims').get()).toEqual({ n: 0 });
  });
});
