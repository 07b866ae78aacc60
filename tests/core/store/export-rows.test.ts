import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/core/store';
import { exportRowsOf } from '../../../src/core/store/queries/export-rows';
import { insertItem } from '../../../src/core/store/items';
import { insertJob } from '../../../src/core/store/jobs';
import { insertSource } from '../../../src/core/store/sources';
import { tempDir } from '../../support/cli';

const AT = '2025-01-02T03:04:05.000Z';

let dir: string;
let db: Database;
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A job with one playlist whose items have these positions, inserted in this order. */
function jobWithPositions(positions: number[]): number {
  dir = tempDir();
  db = openDatabase(join(dir, 'scriptorium.db'));
  const jobId = insertJob(db, { key: 'k', optionsJson: '{}', sourcesJson: '[]', skippedJson: '[]', at: AT });
  const sourceId = insertSource(db, { jobId, position: 0, kind: 'playlist', sourceId: 'PLx', input: 'PLx' });
  for (const [i, position] of positions.entries()) {
    insertItem(db, { jobId, sourceId, position, videoId: `video${i}`, title: '', at: AT, version: 1 });
  }
  return jobId;
}

describe('exportRowsOf', () => {
  it('reads every row by corpus number, whatever the positions a list gave: negative, zero, repeated, over many pages', () => {
    // Positions as a service sent them, which this version stored as they came; 600 make three pages.
    const positions = [...Array.from({ length: 600 }, (_, i) => -1000 - i), -3, 0, 7, 7, 2.5];
    const jobId = jobWithPositions(positions);
    const rows = [...exportRowsOf(db, jobId)];
    expect(rows).toHaveLength(positions.length);
    // In the order the job first listed them, numbered from 1: the positions order nothing.
    const expected = positions.map((position, i) => ({ number: i + 1, position, videoId: `video${i}` }));
    expect(rows.map(({ number, position, videoId }) => ({ number, position, videoId }))).toEqual(expected);
  });
});
