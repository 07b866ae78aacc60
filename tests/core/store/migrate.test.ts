import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, SCHEMA_VERSION } from '../../../src/core/store';
import { jobById, keptJobs, setJobAutoExportPath, setJobKeepCurrent } from '../../../src/core/store/jobs';
import { automaticCreditsSince, recordCredit } from '../../../src/core/store/ledger';
import { finishSync, lastAutomaticSyncOf, startSync } from '../../../src/core/store/syncs';
import { writeLease } from '../../../src/core/store/leases';
import { exportRowsOf } from '../../../src/core/store/queries/export-rows';
import { skippedByFilter, syncsOfJob } from '../../../src/core/store/queries/job-history';
import { judgeByEveryList, setListVerdict } from '../../../src/core/store/memberships';
import { changesOf } from '../../../src/core/store/queries/changes';
import { releaseVersion } from '../../../src/core/store/versions';
import { initialSchema } from '../../../src/core/store/migrations/001-initial';
import { MIGRATIONS } from '../../../src/core/store/migrations';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-migrate-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('migrations from schema 1 to the current one', () => {
  it('keeps every job, source, item, transcript and credit, and admits the newer states', () => {
    const file = join(dir, 'scriptorium.db');
    const old = new BetterSqlite3(file);
    old.exec(initialSchema);
    old.pragma('user_version = 1');
    old.exec(`
      INSERT INTO jobs (key, status, options, sources, skipped, created_at, updated_at)
        VALUES ('k1', 'running', '{}', '[]', '[]', 't', 't');
      INSERT INTO sources (job_id, position, kind, source_id, input) VALUES (1, 0, 'playlist', 'PLx', 'PLx');
      INSERT INTO transcripts (video_id, requested_lang, include_timestamp, send_metadata, language, segment_count,
        body, fetched_at) VALUES ('v1', '', 1, 1, 'en', 1, '{}', 't');
      INSERT INTO items (job_id, source_id, position, video_id, status, transcript_id, updated_at)
        VALUES (1, 1, 1, 'v1', 'ok', 1, 't'), (1, 1, 2, 'v2', 'pending', NULL, 't');
      INSERT INTO ledger (job_id, endpoint, video_id, at) VALUES (1, 'transcript', 'v1', 't');
    `);
    old.close();

    const db = openDatabase(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(jobById(db, 1)).toMatchObject({ key: 'k1', status: 'running', lease: null });
      // Rebuilding jobs and items must not cascade into their children.
      const count = (table: string) =>
        (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      expect([count('sources'), count('items'), count('transcripts'), count('ledger')]).toEqual([1, 2, 1, 1]);
      writeLease(db, 1, { owner: '42-abc', expiresAt: 1_700_000_000_000 });
      expect(jobById(db, 1)!.lease).toEqual({ owner: '42-abc', expiresAt: 1_700_000_000_000 });
      db.prepare("UPDATE jobs SET status = 'draft' WHERE id = 1").run();
      db.prepare("UPDATE items SET status = 'skipped' WHERE video_id = 'v2'").run();
      // Deleting the job still takes its sources and items with it.
      db.prepare('DELETE FROM jobs WHERE id = 1').run();
      expect([count('sources'), count('items'), count('ledger')]).toEqual([0, 0, 1]);
    } finally {
      db.close();
    }
  });
});

describe('migration 005, citable corpora, on the data of an earlier version', () => {
  it('numbers items in the order earlier exports wrote them, keeps their source, and releases version 1 of a completed job', () => {
    const file = join(dir, 'scriptorium.db');
    const old = new BetterSqlite3(file);
    MIGRATIONS.slice(0, 4).forEach((migration, index) => {
      old.exec(migration);
      old.pragma(`user_version = ${index + 1}`);
    });
    old.exec(`
      INSERT INTO jobs (key, status, options, sources, skipped, created_at, updated_at, finished_at)
        VALUES ('k1', 'completed', '{}', '[]', '[]', 't', 't', '2025-01-02T03:04:05.000Z'),
               ('k2', 'paused', '{}', '[]', '[]', 't', 't', NULL);
      INSERT INTO sources (job_id, position, kind, source_id, input) VALUES
        (1, 0, 'playlist', 'PLa', 'PLa'), (1, 1, 'video', 'v9', 'v9'), (2, 0, 'playlist', 'PLb', 'PLb');
      -- Inserted out of export order: the second source's video first, the playlist's in reverse.
      INSERT INTO items (job_id, source_id, position, video_id, status, updated_at) VALUES
        (1, 2, 1, 'v9', 'ok', 't'), (1, 1, 2, 'v2', 'ok', 't'), (1, 1, 1, 'v1', 'ok', 't'),
        (2, 3, 1, 'w1', 'pending', 't');
    `);
    old.close();

    const db = openDatabase(file);
    try {
      const rows = (sql: string) => db.prepare(sql).all();
      // The order of the old export (source, then position): file names keep their order.
      expect(rows('SELECT job_id, video_id, number, version FROM items ORDER BY job_id, number')).toEqual([
        { job_id: 1, video_id: 'v1', number: 1, version: 1 },
        { job_id: 1, video_id: 'v2', number: 2, version: 1 },
        { job_id: 1, video_id: 'v9', number: 3, version: 1 },
        { job_id: 2, video_id: 'w1', number: 1, version: 1 },
      ]);
      expect(
        rows(`SELECT i.video_id, m.position, m.listed_at FROM memberships m JOIN items i ON i.id = m.item_id
              ORDER BY i.video_id`),
      ).toEqual([
        { video_id: 'v1', position: 1, listed_at: null },
        { video_id: 'v2', position: 2, listed_at: null },
        { video_id: 'v9', position: null, listed_at: null },
        { video_id: 'w1', position: 1, listed_at: null },
      ]);
      // Only the completed job has released a version: the other's first is still under way.
      expect(rows('SELECT job_id, version, released_at FROM versions')).toEqual([
        { job_id: 1, version: 1, released_at: '2025-01-02T03:04:05.000Z' },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('migration 006, keep current, on the data of an earlier version', () => {
  it('leaves every job unmarked without an auto-export file, and counts earlier syncs and credits as not automatic', () => {
    const file = join(dir, 'scriptorium.db');
    const old = new BetterSqlite3(file);
    MIGRATIONS.slice(0, 5).forEach((migration, index) => {
      old.exec(migration);
      old.pragma(`user_version = ${index + 1}`);
    });
    old.exec(`
      INSERT INTO jobs (key, status, options, sources, skipped, created_at, updated_at, finished_at)
        VALUES ('k1', 'completed', '{}', '[]', '[]', 't', 't', '2025-01-02T03:04:05.000Z');
      INSERT INTO sources (job_id, position, kind, source_id, input) VALUES (1, 0, 'channel', '@c', '@c');
      INSERT INTO syncs (job_id, started_at, finished_at, new_videos, credits)
        VALUES (1, '2025-01-03T00:00:00.000Z', '2025-01-03T00:01:00.000Z', 2, 3);
      INSERT INTO ledger (job_id, endpoint, at) VALUES
        (1, 'channel/videos', '2025-01-03T00:00:10.000Z'), (1, 'transcript', '2025-01-03T00:00:20.000Z');
    `);
    old.close();

    const db = openDatabase(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(jobById(db, 1)).toMatchObject({ status: 'completed', keepCurrent: false, autoExportPath: null });
      expect(keptJobs(db)).toEqual([]);
      expect(lastAutomaticSyncOf(db, 1)).toBeNull();
      expect(syncsOfJob(db, 1)).toEqual([{ at: '2025-01-03T00:00:00.000Z', newVideos: 2, credits: 3 }]);
      expect(automaticCreditsSince(db, '2025-01-01T00:00:00.000Z')).toBe(0);

      // What the new columns hold once written.
      setJobKeepCurrent(db, 1, true, 't2');
      setJobAutoExportPath(db, 1, '/corpora/c.zip', 't2');
      expect(keptJobs(db).map((job) => [job.id, job.autoExportPath])).toEqual([[1, '/corpora/c.zip']]);
      const automaticSync = startSync(db, 1, '2025-01-04T00:00:00.000Z', true);
      finishSync(db, automaticSync, { at: '2025-01-04T00:01:00.000Z', newVideos: 0, credits: 1 });
      expect(lastAutomaticSyncOf(db, 1)).toBe('2025-01-04T00:00:00.000Z');
      recordCredit(db, {
        jobId: 1,
        endpoint: 'channel/videos',
        automatic: true,
        at: '2025-01-04T00:00:30.000Z',
      });
      expect(automaticCreditsSince(db, '2025-01-04T00:00:00.000Z')).toBe(1);
      expect(automaticCreditsSince(db, '2025-01-05T00:00:00.000Z')).toBe(0);
      // Deleting the job keeps what automatic syncs spent, as the ledger keeps every credit.
      db.prepare('DELETE FROM jobs WHERE id = 1').run();
      expect(automaticCreditsSince(db, '2025-01-04T00:00:00.000Z')).toBe(1);
    } finally {
      db.close();
    }
  });
});

describe('migration 010, lists read again, on the data of an earlier version', () => {
  it("gives items their first listing's time and each list of a skipped video its verdict", () => {
    const file = join(dir, 'scriptorium.db');
    const old = new BetterSqlite3(file);
    MIGRATIONS.slice(0, 8).forEach((migration, index) => {
      old.exec(migration);
      old.pragma(`user_version = ${index + 1}`);
    });
    old.exec(`
      INSERT INTO jobs (key, status, options, sources, skipped, created_at, updated_at, finished_at)
        VALUES ('k1', 'completed', '{}', '[]', '[]', 't', 't', '2025-01-02T03:04:05.000Z');
      INSERT INTO sources (job_id, position, kind, source_id, input) VALUES
        (1, 0, 'channel', '@c', '@c'), (1, 1, 'playlist', 'PLp', 'PLp'), (1, 2, 'video', 'video000003', 'video000003');
      -- v1 skipped by the channel, which listed it first; v2 moved down by a sync, its time the first read's.
      INSERT INTO items (job_id, source_id, position, video_id, status, code, message, updated_at, number) VALUES
        (1, 1, 7, 'video000001', 'skipped', 'filter', 'not at positions 1-5', 't', 1),
        (1, 1, 1, 'video000002', 'ok', NULL, NULL, 't', 2),
        (1, 3, 1, 'video000003', 'pending', NULL, NULL, 't', 3);
      INSERT INTO memberships (item_id, source_id, position, listed_at) VALUES
        (1, 1, 7, '2025-01-01T00:00:00.000Z'), (1, 2, 9, '2025-01-01T00:01:00.000Z'),
        (2, 1, 4, '2025-01-01T00:00:00.000Z'), (3, 3, NULL, NULL);
    `);
    old.close();

    const db = openDatabase(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const rows = [...exportRowsOf(db, 1)];
      // The records keep the time of the read that first numbered each video.
      expect(rows.map((row) => row.listedAt)).toEqual([
        '2025-01-01T00:00:00.000Z',
        '2025-01-01T00:00:00.000Z',
        null,
      ]);
      expect(rows[1]).toMatchObject({ position: 1, latestPosition: 4 });
      // Each list of the skipped video left it out, as the version that skipped it judged.
      const verdicts = db
        .prepare('SELECT item_id, source_id, skip_code, skip_reason FROM memberships ORDER BY 1, 2')
        .all();
      expect(verdicts).toEqual([
        { item_id: 1, source_id: 1, skip_code: 'filter', skip_reason: 'not at positions 1-5' },
        { item_id: 1, source_id: 2, skip_code: 'filter', skip_reason: 'not at positions 1-5' },
        { item_id: 2, source_id: 1, skip_code: null, skip_reason: null },
        { item_id: 3, source_id: 3, skip_code: null, skip_reason: null },
      ]);
      expect(skippedByFilter(db, 1)).toEqual([{ reason: 'not at positions 1-5', videos: 1 }]);
      // Judged per list from now on: once a list takes it, the video is to be fetched.
      setListVerdict(db, { itemId: 1, sourceId: 2 }, null);
      expect(judgeByEveryList(db, { itemId: 1 }, 't2')).toBe(true);
      expect(db.prepare('SELECT status, code, message FROM items WHERE id = 1').get()).toEqual({
        status: 'pending',
        code: null,
        message: null,
      });
    } finally {
      db.close();
    }
  });
});

describe('migration 011, versions released by exports, on the data of an earlier version', () => {
  it("keeps every change with its id, admits changes of the corpus's metadata, and makes the next export a new version", () => {
    const file = join(dir, 'scriptorium.db');
    const old = new BetterSqlite3(file);
    MIGRATIONS.slice(0, 8).forEach((migration, index) => {
      old.exec(migration);
      old.pragma(`user_version = ${index + 1}`);
    });
    old.exec(`
      INSERT INTO jobs (key, status, options, sources, skipped, created_at, updated_at, finished_at)
        VALUES ('k1', 'completed', '{}', '[]', '[]', 't', 't', '2025-01-02T03:04:05.000Z');
      INSERT INTO sources (job_id, position, kind, source_id, input) VALUES (1, 0, 'playlist', 'PLa', 'PLa');
      INSERT INTO items (job_id, source_id, position, video_id, status, updated_at, number, version) VALUES
        (1, 1, 1, 'v1', 'ok', 't', 1, 1), (1, 1, 2, 'v2', 'ok', 't', 2, 1);
      INSERT INTO versions (job_id, version, released_at) VALUES (1, 1, '2025-01-02T03:04:05.000Z');
      INSERT INTO changes (id, job_id, item_id, version, change, detail, at)
        VALUES (7, 1, 2, 2, 'retried', 'failed', 't');
    `);
    old.close();

    const db = openDatabase(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT id, item_id, version, change, detail FROM changes').all()).toEqual([
        { id: 7, item_id: 2, version: 2, change: 'retried', detail: 'failed' },
      ]);
      // The released version holds no contents: the next export releases version 2, with the retry.
      const state = { finishedAt: 't', creditsSpent: 2, creditsPossible: 0, syncs: [] };
      const release = {
        contents: 'abc',
        metadata: { license: '' },
        state,
        inputs: '{}',
        at: '2025-02-01T00:00:00.000Z',
      };
      expect(releaseVersion(db, 1, release)).toEqual({ version: 2, state });
      expect(releaseVersion(db, 1, { ...release, metadata: { license: 'CC0-1.0' } })).toEqual({
        version: 2,
        state,
      });
      const changed = { ...release, contents: 'abd', metadata: { license: 'CC0-1.0' } };
      expect(releaseVersion(db, 1, changed)).toEqual({ version: 3, state });
      expect([...changesOf(db, 1, 3)]).toEqual([
        { version: 2, videoId: 'v2', change: 'retried', detail: 'failed -> ok' },
        { version: 3, videoId: '', change: 'metadata', detail: 'license: none -> CC0-1.0' },
      ]);
      // A change of the corpus names no video, and one of a video names one.
      expect(() =>
        db
          .prepare(
            "INSERT INTO changes (job_id, item_id, version, change, detail, at) VALUES (1, 1, 3, 'metadata', 'x', 't')",
          )
          .run(),
      ).toThrow(/CHECK constraint/);
      db.prepare('DELETE FROM jobs WHERE id = 1').run();
      expect(db.prepare('SELECT count(*) AS n FROM changes').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
