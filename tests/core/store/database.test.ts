import BetterSqlite3 from 'better-sqlite3';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NewerSchemaError, openDatabase, SCHEMA_VERSION, type Database } from '../../../src/core/store';
import { insertItem, itemCounts } from '../../../src/core/store/items';
import { deleteJobRow, insertJob, jobById } from '../../../src/core/store/jobs';
import { creditsByJob, creditsTotal, recordCredit } from '../../../src/core/store/ledger';
import { insertSource } from '../../../src/core/store/sources';
import { storeTranscript, findTranscriptId } from '../../../src/core/store/transcripts';

const at = '2025-01-15T12:00:00.000Z';
let dir: string;
const open: Database[] = [];

function openAt(file: string): Database {
  const db = openDatabase(file);
  open.push(db);
  return db;
}

function addJob(db: Database, key = 'k1'): number {
  return insertJob(db, { key, optionsJson: '{}', sourcesJson: '[]', skippedJson: '[]', at });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-store-'));
});
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('creates the parent folders and the whole schema on an empty file', () => {
    const db = openAt(join(dir, 'a', 'b', 'scriptorium.db'));
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => row.name);
    expect(tables).toEqual([
      'caption_copies',
      'caption_times',
      'changes',
      'exact_dates',
      'items',
      'job_services',
      'jobs',
      'ledger',
      'list_cuts',
      'memberships',
      'segment_index',
      'segment_index_config',
      'segment_index_data',
      'segment_index_idx',
      'settings',
      'sources',
      'syncs',
      'transcript_claims',
      'transcript_index_backfill',
      'transcripts',
      'version_memberships',
      'version_videos',
      'versions',
    ]);
  });

  it('sets the pragmas every connection needs', () => {
    const db = openAt(join(dir, 'scriptorium.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL: each commit synced to the disk (DESIGN.md, durability)
  });

  it('keeps the data when the database is opened again', () => {
    const file = join(dir, 'scriptorium.db');
    const first = openAt(file);
    const jobId = addJob(first);
    first.close();
    const again = openAt(file);
    expect(jobById(again, jobId)).toMatchObject({ id: jobId, key: 'k1', status: 'draft' });
    expect(again.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  });

  it('refuses a database from a newer Scriptorium without writing a byte to it', () => {
    const file = join(dir, 'scriptorium.db');
    const newer = new BetterSqlite3(file);
    newer.exec('CREATE TABLE future (x INTEGER); INSERT INTO future VALUES (1);');
    newer.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    newer.close();
    const before = readFileSync(file);

    expect(() => openDatabase(file)).toThrow(NewerSchemaError);
    expect(() => openDatabase(file)).toThrow(
      `This database was written by a newer version of Scriptorium (schema ${SCHEMA_VERSION + 1}; this version knows up to ${SCHEMA_VERSION}). ` +
        'Update Scriptorium or use another --data-dir.',
    );
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('enforces the foreign keys: deleting a job removes its items but keeps its spending', () => {
    const db = openAt(join(dir, 'scriptorium.db'));
    const jobId = addJob(db);
    const sourceId = insertSource(db, {
      jobId,
      position: 0,
      kind: 'video',
      sourceId: 'dQw4w9WgXcQ',
      input: 'x',
    });
    insertItem(db, { jobId, sourceId, position: 1, videoId: 'dQw4w9WgXcQ', title: '', at, version: 1 });
    recordCredit(db, { jobId, endpoint: 'transcript', videoId: 'dQw4w9WgXcQ', sourceId, at });
    const key = { videoId: 'dQw4w9WgXcQ', requestedLang: '', includeTimestamp: true, sendMetadata: false };
    storeTranscript(db, {
      ...key,
      language: 'en',
      title: null,
      segmentCount: 1,
      body: '{}',
      fetchedAt: at,
    });

    expect(deleteJobRow(db, jobId)).toBe(true);
    expect(itemCounts(db, jobId).total).toBe(0);
    expect(creditsTotal(db)).toBe(1);
    expect(creditsByJob(db)).toEqual({});
    expect(findTranscriptId(db, key)).toBeDefined();
    expect(() =>
      insertItem(db, { jobId: 999, sourceId: 999, position: 1, videoId: 'x', title: '', at, version: 1 }),
    ).toThrow(/FOREIGN KEY/);
  });

  it('adds a video to a job only once, whatever source lists it again', () => {
    const db = openAt(join(dir, 'scriptorium.db'));
    const jobId = addJob(db);
    const sourceId = insertSource(db, {
      jobId,
      position: 0,
      kind: 'playlist',
      sourceId: 'PLx',
      input: 'PLx',
    });
    const item = { jobId, sourceId, position: 1, videoId: 'dQw4w9WgXcQ', title: '', at, version: 1 };
    expect(insertItem(db, item)).toBe(true);
    expect(insertItem(db, { ...item, position: 2 })).toBe(false);
    expect(itemCounts(db, jobId)).toMatchObject({ total: 1, pending: 1 });
  });
});
