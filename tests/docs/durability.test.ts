import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { CompositionTally } from '../../src/core/export/corpus/composition';
import { renderDatasheet } from '../../src/core/export/corpus/datasheet';
import { openDatabase } from '../../src/core/store/database';
import { DURABILITY_PROMISE } from '../../src/shared/durability';
import { DEFAULT_CHUNKING } from '../../src/shared/vocabulary';

// What a crash can cost is promised in the same words wherever a user reads it: the README, the
// product contract and every corpus's own README.md (the datasheet). The words are
// src/shared/durability.ts's; tests/reliability/kill-chaos.test.ts proves the bound they state for
// a killed process, and the last test below the setting that carries it past a power cut.

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');
/** Text as a reader sees it: line breaks and runs of spaces are one space. */
const words = (text: string) => text.replace(/\s+/g, ' ');

it.each([
  ['README.md', read('../../README.md')],
  ['docs/product.md', read('../../docs/product.md')],
  [
    "a corpus's datasheet",
    renderDatasheet(
      {
        manifest: {
          tool: { name: 'scriptorium', version: '0.1.0' },
          job_id: 'job_1',
          sources: ['PLdurabilityPromise'],
          skipped_sources: [],
          failed_sources: [],
          options: { formats: ['txt'], lang: ['orig'] },
          counts: { videos: 0, ok: 0, unavailable: 0, failed: 0, pending: 0, skipped: 0, sources_failed: 0 },
          credits_spent: 0,
          credits_possible: 0,
          finished_at: '2025-01-02T03:04:05.000Z',
          job_finished: true,
          all_videos_transcribed: true,
          version: 1,
          versions: [],
        },
        videos: () => [],
      },
      ['txt'],
      DEFAULT_CHUNKING,
      new CompositionTally(['PLdurabilityPromise']),
    ),
  ],
])('%s promises exactly what a crash can cost', (_where, text) => {
  expect(words(text)).toContain(words(DURABILITY_PROMISE));
});

it('a committed group is written through to the disk, so a power cut or a system crash keeps it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-durability-'));
  const db = openDatabase(join(dir, 'scriptorium.db'));
  try {
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    // In WAL mode, FULL syncs the log at every commit; NORMAL only at checkpoints, so a power cut
    // can take back groups committed since the last one.
    const FULL = 2;
    expect(db.pragma('synchronous', { simple: true })).toBe(FULL);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
