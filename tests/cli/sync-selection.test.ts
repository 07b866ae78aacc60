/**
 * Where selection meets sync (issue 33), through the CLI against the simulator, each corpus read back
 * with Python: a sync adds only what is new to a list, judged by the job's selection on the list as
 * read now; positions are those of each list's latest read, each (list, position) once, with the time
 * of that read; selection is judged per list; the datasheet says how a synced corpus was selected.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { describeChannel, startSimulator, type RunningSimulator } from '../../src/simulator';
import { readZip, runCli, tempDir, type ZipReading } from '../support/cli';
import { startHostileService, type HostileService } from '../support/hostile-service';

/** A CSV read by Python, as one object per row keyed by the header. */
function rowsOf(table: string[][]): Array<Record<string, string>> {
  const [header = [], ...rows] = table;
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}

function environment(sim: RunningSimulator, dir: string): Record<string, string> {
  return {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
  };
}

/** The simulator's free channel/latest, asked directly: the newest videos with their ISO times. */
async function latestOf(sim: RunningSimulator, channelId: string): Promise<Map<string, string>> {
  const response = await fetch(`${sim.url}/api/v2/channel/latest?channel=${channelId}`, {
    headers: { authorization: `Bearer ${sim.key}`, 'user-agent': 'scriptorium-test' },
  });
  const body = (await response.json()) as { results: Array<{ videoId: string; published: string }> };
  return new Map(body.results.map((video) => [video.videoId, video.published]));
}

describe('a sync of a job capped by --max-videos (a channel of 25, capped at 20, then 3 uploads)', () => {
  const CHANNEL = '@maxcap_channel_n25';
  let sim: RunningSimulator;
  let dir: string;
  let first: ZipReading;
  let synced: ZipReading;
  let syncOutput: string;
  let latest: Map<string, string>;

  beforeAll(async () => {
    sim = await startSimulator({ credits: 10_000 });
    dir = tempDir();
    const env = environment(sim, dir);
    const out = join(dir, 'capped.zip');
    const args = ['export', CHANNEL, '--max-videos', '20', '--out', out];
    expect((await runCli(args, env)).code).toBe(0);
    first = await readZip(out);
    sim.admin.addUploads(CHANNEL, 3);
    const sync = await runCli(['sync', '1'], env);
    expect(sync.code, sync.stderr).toBe(0);
    syncOutput = sync.stdout;
    expect((await runCli(args, env)).code).toBe(0);
    synced = await readZip(out);
    latest = await latestOf(sim, describeChannel(CHANNEL).channelId!);
  }, 120_000);
  afterAll(() => sim.close());

  it('buys the 3 uploads and none of the 5 videos the cap left out; the corpus holds 23 and says why', () => {
    expect(syncOutput).toMatch(/brought up to date: 3 new videos/);
    const ids = rowsOf(synced.index).map((row) => row['video_id']);
    expect(ids).toHaveLength(23);
    const leftOutByTheCap = describeChannel(CHANNEL).videoIds().slice(20);
    expect(leftOutByTheCap).toHaveLength(5);
    for (const id of leftOutByTheCap) {
      expect(ids).not.toContain(id);
      expect(sim.admin.chargesFor(id)).toBe(0);
    }
    expect(synced.readme).toMatch(/the cap of 20 videos per list/);
    expect(synced.readme).toMatch(/more videos than one reading takes/);
  });

  it('gives every video its place in the latest read of the channel, each position once', () => {
    const before = new Map(
      rowsOf(first.memberships).map((row) => [row['video_id'], Number(row['position'])]),
    );
    for (const table of [synced.memberships, synced.index]) {
      const rows = rowsOf(table);
      expect(rows.map((row) => Number(row['position'])).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 23 }, (_, i) => i + 1),
      );
      // The uploads lead; the twenty earlier videos follow in their order, three places down.
      for (const row of rows) {
        const earlier = before.get(row['video_id']);
        if (earlier !== undefined) expect(Number(row['position'])).toBe(earlier + 3);
        else expect(Number(row['position'])).toBeLessThanOrEqual(3);
      }
    }
  });

  it('pairs each position with the time of the read that gave it; the records keep their first listing', () => {
    const firstRead = new Set(rowsOf(first.memberships).map((row) => row['listed_at']));
    expect(firstRead.size).toBe(1);
    // The sync read the whole channel on one page: every position comes from it, and so does listed_at.
    const syncRead = new Set(rowsOf(synced.memberships).map((row) => row['listed_at']));
    expect(syncRead.size).toBe(1);
    expect(syncRead).not.toEqual(firstRead);
    const memberships = new Map(rowsOf(synced.memberships).map((row) => [row['video_id'], row]));
    for (const row of rowsOf(synced.index)) {
      expect([row['position'], row['listed_at']]).toEqual([
        memberships.get(row['video_id'])?.['position'],
        memberships.get(row['video_id'])?.['listed_at'],
      ]);
    }
    const earlierRecords = new Map(first.transcripts.map((record) => [record.video_id, record]));
    for (const record of synced.transcripts) {
      const earlier = earlierRecords.get(record.video_id);
      if (earlier !== undefined) expect(record).toEqual(earlier);
    }
  });

  it('dates each upload by the exact time channel/latest gave, not by "N years ago"', () => {
    const earlier = new Set(rowsOf(first.index).map((row) => row['video_id']));
    const uploads = rowsOf(synced.index).filter(
      (row) => latest.has(row['video_id']!) && !earlier.has(row['video_id']),
    );
    expect(uploads).toHaveLength(3);
    for (const row of uploads) {
      const published = latest.get(row['video_id']!);
      expect(published, row['video_id']).toBeDefined();
      expect(row['published']).toBe(published);
      expect([row['published_from'], row['published_to']]).toEqual([
        published!.slice(0, 10),
        published!.slice(0, 10),
      ]);
    }
  });
});

describe('selection judged per list', () => {
  let sim: RunningSimulator;
  let dir: string;
  let env: Record<string, string>;
  beforeEach(async () => {
    sim = await startSimulator({ credits: 10_000 });
    dir = tempDir();
    env = environment(sim, dir);
  });
  afterEach(() => sim.close());

  it('keeps a video that some list takes with --items, and names every list of a video none takes', async () => {
    // Two playlists of one pool: the second lists the first's videos 6 to 20 at its places 1 to 15,
    // so with --items 1-10 the first takes videos 1-10 and the second videos 6-15.
    const FIRST = 'PLpoolPerList_from1_n20';
    const SECOND = 'PLpoolPerList_from6_n20';
    const out = join(dir, 'both.zip');
    const exported = await runCli(['export', FIRST, SECOND, '--items', '1-10', '--out', out], env);
    expect(exported.code, exported.stderr).toBe(0);
    const corpus = await readZip(out);

    const places = new Map<string, Map<string, number>>();
    for (const row of rowsOf(corpus.memberships)) {
      const video = places.get(row['video_id']!) ?? new Map<string, number>();
      video.set(row['source']!, Number(row['position']));
      places.set(row['video_id']!, video);
    }
    const takenByOneListOnly = [...places.values()].filter(
      (lists) => [...lists.values()].filter((position) => position <= 10).length === 1,
    );
    expect(takenByOneListOnly.length, 'the two lists disagree on some video').toBeGreaterThan(0);
    const errors = new Map(rowsOf(corpus.errors).map((row) => [row['video_id'], row]));
    for (const row of rowsOf(corpus.index)) {
      const lists = places.get(row['video_id']!)!;
      const taken = [...lists.values()].some((position) => position <= 10);
      expect(row['status'] === 'skipped', `${row['video_id']} at ${JSON.stringify([...lists])}`).toBe(!taken);
      if (!taken) {
        // errors.csv names each list that left it out, and why (the reason alone when one list holds it).
        const message = errors.get(row['video_id'])?.['message'];
        const reasons = [...lists.keys()].map((list) => `in ${list}: not at positions 1-10`);
        expect(message).toBe(lists.size === 1 ? 'not at positions 1-10' : reasons.join('; '));
      }
    }
    // Nothing skipped was bought.
    for (const row of rowsOf(corpus.index).filter((each) => each['status'] === 'skipped')) {
      expect(sim.admin.chargesFor(row['video_id']!)).toBe(0);
    }
  });
});

describe('the datasheet of a corpus synced with --items', () => {
  let sim: RunningSimulator;
  let dir: string;
  beforeEach(async () => {
    sim = await startSimulator({ credits: 10_000 });
    dir = tempDir();
  });
  afterEach(() => sim.close());

  it('explains why a list of positions 1-5 holds eight videos after three syncs', async () => {
    const CHANNEL = '@items_synced_n5';
    const env = environment(sim, dir);
    const out = join(dir, 'items.zip');
    const args = ['export', CHANNEL, '--items', '1-5', '--out', out];
    expect((await runCli(args, env)).code).toBe(0);
    for (let round = 0; round < 3; round++) {
      sim.admin.addUploads(CHANNEL, 1);
      const sync = await runCli(['sync', '1'], env);
      expect(sync.code, sync.stderr).toBe(0);
      expect(sync.stdout).toMatch(/1 new video\b/);
    }
    expect((await runCli(args, env)).code).toBe(0);
    const corpus = await readZip(out);
    expect(rowsOf(corpus.index).map((row) => row['status'] === 'skipped')).toEqual(Array(8).fill(false));
    expect(corpus.readme).toContain('`positions 1-5 of each list`');
    expect(corpus.readme).toMatch(/The lists were read again by 3 syncs\./);
    expect(corpus.readme).toMatch(/more videos than one reading takes/);
  }, 60_000);
});

describe('a playlist read again whole', () => {
  let service: HostileService;
  let dir: string;
  afterEach(() => service.close());

  it('leaves a video it no longer holds without a position; the others take their places as read now', async () => {
    const PLAYLIST = 'PLreadAgainWhole0001';
    const item = (id: string, index: number) => ({ type: 'video', index, video_id: id, title: `Talk ${id}` });
    const ids = ['readAgain01', 'readAgain02', 'readAgain03', 'readAgain04'];
    const listItems: unknown[] = ids.map((id, i) => item(id, i + 1));
    service = await startHostileService('scripted', { listItems });
    dir = tempDir();
    const env = {
      TRANSCRIPT_API_KEY: 'sk_read_again_0123',
      TRANSCRIPT_API_BASE_URL: service.url,
      SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
    };
    const out = join(dir, 'whole.zip');
    expect((await runCli(['export', PLAYLIST, '--out', out], env)).code).toBe(0);
    const first = await readZip(out);

    // The second video leaves the playlist.
    listItems.splice(0, listItems.length, ...[ids[0]!, ids[2]!, ids[3]!].map((id, i) => item(id, i + 1)));
    const sync = await runCli(['sync', '1'], env);
    expect(sync.code, sync.stderr).toBe(0);
    expect((await runCli(['export', PLAYLIST, '--out', out], env)).code).toBe(0);
    const synced = await readZip(out);

    const firstRead = rowsOf(first.memberships)[0]!['listed_at'];
    const places = rowsOf(synced.memberships).map((row) => [row['video_id'], row['position']]);
    expect(places).toEqual([
      [ids[0], '1'],
      [ids[1], ''],
      [ids[2], '2'],
      [ids[3], '3'],
    ]);
    // A video found where it was keeps the read that put it there; the moved ones (and the one gone)
    // take the sync's read.
    const times = rowsOf(synced.memberships).map((row) => row['listed_at'] === firstRead);
    expect(times).toEqual([true, false, false, false]);
    expect(rowsOf(synced.index).map((row) => row['position'])).toEqual(['1', '', '2', '3']);
    expect(rowsOf(synced.index).map((row) => row['status'])).toEqual(['ok', 'ok', 'ok', 'ok']);
  }, 60_000);
});

describe('a capped playlist that loses its first video', () => {
  let service: HostileService;
  afterEach(() => service.close());

  it('never takes a video an earlier read left out past --max-videos, even once it moves within the cap', async () => {
    const item = (id: string, index: number) => ({ type: 'video', index, video_id: id, title: `Talk ${id}` });
    const ids = ['cappedRead1', 'cappedRead2', 'cappedRead3', 'cappedRead4'];
    const listItems: unknown[] = ids.map((id, i) => item(id, i + 1));
    service = await startHostileService('scripted', { listItems });
    const dir = tempDir();
    const env = {
      TRANSCRIPT_API_KEY: 'sk_capped_read_0123',
      TRANSCRIPT_API_BASE_URL: service.url,
      SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
    };
    const out = join(dir, 'capped.zip');
    const args = ['export', 'PLcappedReadAgain001', '--max-videos', '2', '--out', out];
    expect((await runCli(args, env)).code).toBe(0);

    // The first video leaves the list: the third, which the cap left out, is now second.
    listItems.splice(0, listItems.length, ...ids.slice(1).map((id, i) => item(id, i + 1)));
    const sync = await runCli(['sync', '1'], env);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/nothing new/);
    expect((await runCli(args, env)).code).toBe(0);
    expect(rowsOf((await readZip(out)).index).map((row) => row['video_id'])).toEqual(ids.slice(0, 2));
    expect(service.requests()['transcript']).toBe(2);
  }, 60_000);
});
