import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, SCHEMA_VERSION } from '../../../src/core/store';
import { jobById } from '../../../src/core/store/jobs';
import { writeLease } from '../../../src/core/store/leases';
import { initialSchema } from '../../../src/core/store/migrations/001-initial';

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
