import { rmSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { localApi, memoryKeyStore, openApp } from '../../../src/core/app';
import { DATABASE_FILE, SCHEMA_VERSION } from '../../../src/core/store';
import { MIGRATIONS } from '../../../src/core/store/migrations';
import { compatibilityIndexSchema } from '../../../src/core/store/migrations/013-compatibility-search-index';
import { tempDir } from '../../support/cli';

// A data folder from before the Library read text in its compatibility form (issue 43): its index
// holds transcripts in fullwidth letters, halfwidth kana and conjoining jamo as they came, where no
// search in their usual form could find them. Opened by this version, every stored transcript is
// indexed again, and searches in either form find them.

const JAMO = '엔진을'.normalize('NFD');
const CAPTIONS = ['The ＲＩＶＥＲ at dawn', '小さなｴﾝｼﾞﾝを作る', `새 ${JAMO} 샀다`, 'plain words'];

let dataDir: string;
beforeEach(() => {
  dataDir = tempDir();
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** A database as the version before this migration left it, its index holding the text as it came. */
function olderDataFolder(): void {
  const old = new BetterSqlite3(join(dataDir, DATABASE_FILE));
  const before = MIGRATIONS.indexOf(compatibilityIndexSchema);
  MIGRATIONS.slice(0, before).forEach((migration, index) => {
    old.exec(migration);
    old.pragma(`user_version = ${index + 1}`);
  });
  const body = JSON.stringify({
    video_id: 'compatVideo',
    language: 'en',
    transcript: CAPTIONS.map((text, i) => ({ text, start: i * 2, duration: 2 })),
  });
  old
    .prepare(
      `INSERT INTO transcripts (video_id, requested_lang, include_timestamp, send_metadata, language,
         segment_count, body, fetched_at) VALUES ('compatVideo', '', 1, 0, 'en', ?, ?, '2025-01-01T00:00:00.000Z')`,
    )
    .run(CAPTIONS.length, body);
  const insert = old.prepare('INSERT INTO segment_index (rowid, text) VALUES (?, ?)');
  CAPTIONS.forEach((text, i) => insert.run(2 ** 20 + i, text.toLowerCase()));
  old.exec('UPDATE transcript_index_backfill SET done_through = 1, until_id = 1, indexed_through = 1');
  old.close();
}

it('indexes every stored transcript again on upgrade, so that text in compatibility forms is found', async () => {
  olderDataFolder();
  const app = openApp({ dataDir, keys: memoryKeyStore() });
  try {
    await app.libraryIndexed;
    const api = localApi(app);
    const hits = async (query: string) => (await api.searchTranscripts({ query, limit: 100 })).hits;
    expect(await hits('river')).toBe(1);
    expect(await hits('ｒｉｖｅｒ')).toBe(1);
    expect(await hits('エンジン')).toBe(1);
    expect(await hits('ｴﾝｼﾞﾝ')).toBe(1);
    expect(await hits('엔진')).toBe(1);
    expect(await hits(JAMO)).toBe(1);
    expect(await hits('plain')).toBe(1);
    // The hit is marked in the caption as the service sent it.
    const found = await api.searchTranscripts({ query: 'エンジン', limit: 100 });
    expect(found.groups[0]?.hits[0]?.snippet).toEqual([
      { text: '小さな', match: false },
      { text: 'ｴﾝｼﾞﾝ', match: true },
      { text: 'を作る', match: false },
    ]);
  } finally {
    await app.close();
  }
  const db = new BetterSqlite3(join(dataDir, DATABASE_FILE), { readonly: true });
  expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  db.close();
});
