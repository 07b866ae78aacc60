import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CorpusUnreadableError, verifyCorpus, writeCorpus } from '../../../src/core/export';
import type { ExportInput, ExportManifest, ExportVideo } from '../../../src/core/export';

const TAMPER_ZIP = fileURLToPath(new URL('./fixtures/tamper_zip.py', import.meta.url));

const manifest: ExportManifest = {
  tool: { name: 'scriptorium', version: '0.1.0' },
  job_id: '7',
  sources: ['PLverifyList'],
  skipped_sources: [],
  failed_sources: [],
  options: {},
  counts: { videos: 3, ok: 2, unavailable: 1, failed: 0, pending: 0, skipped: 0, sources_failed: 0 },
  credits_spent: 3,
  credits_possible: 0,
  finished_at: '2025-01-02T03:04:05.000Z',
  complete: true,
};

const okVideo = (videoId: string, title: string, position: number): ExportVideo => ({
  videoId,
  title,
  position,
  source: 'PLverifyList',
  status: 'ok',
  language: 'en',
  segmentCount: 2,
  segments: [
    { text: `${title}, first words`, start: 0, duration: 2 },
    { text: 'and the next ones', start: 2, duration: 3 },
  ],
});

const VIDEOS: ExportVideo[] = [
  okVideo('AAAAAAAAAAA', 'First talk', 1),
  { videoId: 'BBBBBBBBBBB', title: 'Gone', position: 2, source: 'PLverifyList', status: 'unavailable' },
  okVideo('CCCCCCCCCCC', 'Third talk', 3),
];

const corpus = (overrides: Partial<ExportInput> = {}): ExportInput => ({
  manifest,
  videos: () => VIDEOS,
  ...overrides,
});

let dir: string;
let sound: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-verify-'));
  sound = join(dir, 'corpus.zip');
  await writeCorpus(corpus(), sound);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A copy of the sound corpus, tampered with by Python's zipfile (fixtures/tamper_zip.py). */
function tampered(action: 'replace' | 'drop' | 'add' | 'flip', name: string, text = ''): string {
  const copy = join(dir, `${action}.zip`);
  execFileSync('python3', [TAMPER_ZIP, sound, copy, action, name, text]);
  return copy;
}

const TXT = 'txt/1 - First talk [AAAAAAAAAAA].txt';

describe('verifyCorpus', () => {
  it('finds a corpus just written sound', async () => {
    expect(await verifyCorpus(sound)).toEqual({ differences: [], matching: 15 });
  });

  it('finds an entry changed and its CRC fixed up: only SHA256SUMS tells', async () => {
    const report = await verifyCorpus(
      tampered('replace', TXT, 'First talk, other words\nand the next ones\n'),
    );
    expect(report.differences).toEqual([`changed: ${TXT} (its SHA-256 differs from SHA256SUMS)`]);
  });

  it('finds an entry whose bytes were changed in place, its CRC left as it was', async () => {
    const report = await verifyCorpus(tampered('flip', 'transcripts.jsonl'));
    expect(report.differences).toHaveLength(1);
    expect(report.differences[0]).toMatch(/^damaged: transcripts\.jsonl \(.+\)$/);
  });

  it('finds a missing entry, which index.csv names too', async () => {
    const vtt = 'vtt/3 - Third talk [CCCCCCCCCCC].vtt';
    const report = await verifyCorpus(tampered('drop', vtt));
    expect(report.differences).toEqual([
      `missing: ${vtt} (in SHA256SUMS, not in the ZIP)`,
      `missing file: ${vtt} (named in index.csv, row 3)`,
    ]);
  });

  it('finds an entry that SHA256SUMS does not list', async () => {
    const report = await verifyCorpus(tampered('add', 'notes.txt', 'my notes\n'));
    expect(report.differences).toEqual(['extra: notes.txt (in the ZIP, not in SHA256SUMS)']);
  });

  it('finds a SHA256SUMS removed, and still checks the counts', async () => {
    const report = await verifyCorpus(tampered('drop', 'SHA256SUMS'));
    expect(report.differences).toEqual(['missing: SHA256SUMS (so no entry can be checked)']);
  });

  it("finds manifest counts that index.csv's rows do not match", async () => {
    const wrong = join(dir, 'wrong-counts.zip');
    const counts = { ...manifest.counts, videos: 4, ok: 3 };
    await writeCorpus(corpus({ manifest: { ...manifest, counts } }), wrong);
    expect((await verifyCorpus(wrong)).differences).toEqual([
      'counts: manifest.json says 4 videos, index.csv lists 3',
      'counts: manifest.json says 3 ok, index.csv lists 2',
    ]);
  });

  it('calls a file that is not a ZIP not sound, and one that cannot be read unreadable', async () => {
    const text = join(dir, 'notes.zip');
    writeFileSync(text, 'just text\n');
    expect((await verifyCorpus(text)).differences).toEqual([
      'not a ZIP: it has no end of central directory record: it is not a ZIP, or it was cut short',
    ]);
    await expect(verifyCorpus(join(dir, 'absent.zip'))).rejects.toThrow(
      new CorpusUnreadableError(join(dir, 'absent.zip'), 'ENOENT'),
    );
    const folder = join(dir, 'folder.zip');
    mkdirSync(folder);
    await expect(verifyCorpus(folder)).rejects.toThrow(/it is a folder/);
  });
});
