import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type TranscriptClient } from '../../src/core/api';
import { Engine } from '../../src/core/engine';
import { openDatabase, type Database } from '../../src/core/store';
import { readZip, runCli, tempDir } from '../support/cli';
import { startHostileService, type HostileScenario, type HostileService } from '../support/hostile-service';
import { FastClock, spec } from '../core/engine/helpers';
import { exportRowsOf } from '../../src/core/store/queries/export-rows';

// A service that breaks the rules must never make Scriptorium spend without end, write absurd
// files, or leak the key: every defence is checked against a real server on loopback.
const KEY = 'sk_hostile_test_key_0123456789';

let service: HostileService;
let db: Database;
let client: TranscriptClient;
let dir: string;

async function engineOn(scenario: HostileScenario): Promise<Engine> {
  service = await startHostileService(scenario);
  dir = tempDir();
  db = openDatabase(join(dir, 'scriptorium.db'));
  const clock = new FastClock();
  client = createClient({ baseUrl: service.url, apiKey: KEY, userAgent: 'Scriptorium/test', clock });
  return new Engine({ db, client, clock });
}

afterEach(async () => {
  await client.close();
  db.close();
  await service.close();
});

describe('pagination loops of every shape end the walk with a recorded failure', () => {
  it.each([
    ['cursor-cycle', /continuation cursor it had sent before/],
    ['same-videos', /already listed/],
    ['empty-pages', /empty page that promised more/],
    ['endless-new', /beyond the 120 videos it says the list holds/],
  ] as const)('%s', async (scenario, reason) => {
    const engine = await engineOn(scenario);
    const { job } = engine.findOrCreateJob(spec(['PLhostileServiceList', '@hostile_channel']));
    const outcome = await engine.run(job.id);

    expect(outcome).toMatchObject({ status: 'completed', failedSources: 2 });
    const summary = engine.job(job.id)!;
    for (const walk of summary.walks) {
      expect(walk.walkStatus).toBe('failed');
      expect(walk.error).toMatch(reason);
      expect(walk.error).toMatch(/pagination loop/);
    }
    // A handful of pages at most, never hundreds: the service's count of list requests.
    const pages = (service.requests()['playlist/videos'] ?? 0) + (service.requests()['channel/videos'] ?? 0);
    expect(pages).toBeLessThanOrEqual(2 * 3);
    // A later run tries the walks again from where they stopped, and stops again after at most one page.
    await engine.run(job.id);
    const more = (service.requests()['playlist/videos'] ?? 0) + (service.requests()['channel/videos'] ?? 0);
    expect(more - pages).toBeLessThanOrEqual(2 * 2);
  });
});

describe('absurd values', () => {
  it('subtitle times that are not usable fail their video as unreadable; no cue carries them', async () => {
    const engine = await engineOn('absurd-times');
    const { job } = engine.findOrCreateJob(spec(['dQw4w9WgXcQ', 'jNQXAC9IVRw']));
    expect(await engine.run(job.id)).toMatchObject({ status: 'completed', failed: 2 });
    const rows = [...exportRowsOf(db, job.id)];
    expect(rows.every((row) => row.status === 'failed' && row.message === 'unreadable response')).toBe(true);
    expect(service.requests()['transcript']).toBe(2); // never retried: each retry would be charged
    expect(engine.job(job.id)!.creditsSpent).toBe(service.charged());
  });

  it('a Retry-After of an hour pauses the job with the wait named, instead of holding it', async () => {
    const engine = await engineOn('retry-after-huge');
    const { job } = engine.findOrCreateJob(spec(['dQw4w9WgXcQ']));
    expect(await engine.run(job.id)).toMatchObject({ status: 'paused', reason: 'service' });
    expect(engine.job(job.id)!.stopMessage).toMatch(/asked to wait 3600 s/);
  });
});

describe('a service that answers without end', () => {
  it("fails the video as 'answer too large' once the body passes the cap, charged and not retried", async () => {
    const engine = await engineOn('endless-answer');
    const { job } = engine.findOrCreateJob(spec(['dQw4w9WgXcQ']));
    expect(await engine.run(job.id)).toMatchObject({ status: 'completed', failed: 1 });
    const [video] = exportRowsOf(db, job.id);
    expect(video).toMatchObject({ status: 'failed', httpStatus: 200, message: 'answer too large' });
    expect(engine.job(job.id)).toMatchObject({ creditsSpent: 1, creditsPossible: 0 });
    expect(service.requests()['transcript']).toBe(1);
    // Read up to the cap (64 MiB), and then no further than what was already on its way.
    expect(service.bytesStreamed()).toBeLessThan(80 * 1024 * 1024);
  }, 60_000);
});

describe('a service that echoes the key', () => {
  it('never gets it into a message, an error or the progress; what it sends as data is kept as sent', async () => {
    service = await startHostileService('echo-key');
    dir = tempDir();
    db = openDatabase(join(dir, 'unused.db'));
    client = createClient({ baseUrl: service.url, apiKey: KEY, userAgent: 'Scriptorium/test' });
    const out = join(dir, 'echo.zip');
    const result = await runCli(
      ['export', 'dQw4w9WgXcQ', 'nocapVideo1', 'PLhostileServiceList', '--out', out],
      {
        TRANSCRIPT_API_KEY: KEY,
        TRANSCRIPT_API_BASE_URL: service.url,
        SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
      },
    );
    expect(`${result.stdout}${result.stderr}`).not.toContain(KEY);
    const zip = await readZip(out);
    // Its problem details become the videos' messages, redacted; the transcripts it sent are data.
    expect(JSON.stringify(zip.errors)).toContain('[redacted]');
    expect(JSON.stringify({ ...zip, transcripts: [], files: {} })).not.toContain(KEY);
    expect(JSON.stringify(zip.transcripts)).toContain(`Your key is ${KEY}.`);
    // In the database, only the answers as received (transcripts and the ledger's request ids) and the
    // Library's index of their words hold it.
    const stored = openDatabase(join(dir, 'data', 'scriptorium.db'));
    const tables = stored
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((table) => table.name)
      .filter((name) => !/^(transcripts|ledger|segment_index.*)$/.test(name));
    for (const table of tables) {
      const rows = stored.prepare(`SELECT * FROM "${table}"`).all();
      expect(JSON.stringify(rows).includes(KEY), table).toBe(false);
    }
    stored.close();
  });
});
