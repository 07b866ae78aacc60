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

describe('migration 1 -> 2 (job lease)', () => {
  it('keeps the jobs of a schema 1 database and gives each a free lease', () => {
    const file = join(dir, 'scriptorium.db');
    const old = new BetterSqlite3(file);
    old.exec(initialSchema);
    old.pragma('user_version = 1');
    old
      .prepare(
        `INSERT INTO jobs (key, status, options, sources, skipped, created_at, updated_at)
         VALUES ('k1', 'running', '{}', '[]', '[]', 't', 't')`,
      )
      .run();
    old.close();

    const db = openDatabase(file);
    try {
      expect(SCHEMA_VERSION).toBe(2);
      expect(db.pragma('user_version', { simple: true })).toBe(2);
      expect(jobById(db, 1)).toMatchObject({ key: 'k1', status: 'running', lease: null });
      writeLease(db, 1, { owner: '42-abc', expiresAt: 1_700_000_000_000 });
      expect(jobById(db, 1)!.lease).toEqual({ owner: '42-abc', expiresAt: 1_700_000_000_000 });
    } finally {
      db.close();
    }
  });
});
