import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CorpusUnreadableError, verifyCorpus, writeCorpus } from '../../../../src/core/export';
import type { ExportInput, ExportManifest, ExportVideo } from '../../../../src/core/export';
import { craftCorpus, craftZip, INDEX_HEADER, manifestCounting } from '../../../support/crafted-zip';

/** What a report says when every file could be read. */
const NONE_UNCHECKED = { files: 0, methods: new Set() };

const TAMPER_ZIP = fileURLToPath(new URL('../fixtures/tamper_zip.py', import.meta.url));

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
  version: 1,
  versions: [{ version: 1, releasedAt: '2025-01-02T03:04:05.000Z', added: 6, retried: 0, changed: 0 }],
  job_finished: true,
  all_videos_transcribed: true,
};

const okVideo = (videoId: string, title: string, position: number): ExportVideo => ({
  number: position,
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
  {
    number: 2,
    videoId: 'BBBBBBBBBBB',
    title: 'Gone',
    position: 2,
    source: 'PLverifyList',
    status: 'unavailable',
  },
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
function tampered(action: 'replace' | 'drop' | 'add' | 'flip' | 'rezip', name: string, text = ''): string {
  const copy = join(dir, `${action}.zip`);
  execFileSync('python3', [TAMPER_ZIP, sound, copy, action, name, text]);
  return copy;
}

/** Prints a ZIP's entry names in the order of its central directory, one a line. */
const LIST_NAMES = 'import sys, zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))';

const TXT = 'txt/000001 - First talk [AAAAAAAAAAA].txt';

describe('verifyCorpus', () => {
  it('finds a corpus just written sound', async () => {
    expect(await verifyCorpus(sound)).toEqual({
      differences: [],
      found: 0,
      matching: 17,
      unchecked: NONE_UNCHECKED,
    });
  });

  it('judges content, not container: packed again with folder entries, no compression and another order, it is sound', async () => {
    const rezipped = tampered('rezip', '');
    const names = execFileSync('python3', ['-c', LIST_NAMES, rezipped], { encoding: 'utf8' }).split('\n');
    expect(names).toEqual(expect.arrayContaining(['txt/', 'json/', 'srt/', 'vtt/']));
    expect(names[names.length - 2]).toBe('manifest.json');
    expect(await verifyCorpus(rezipped)).toEqual({
      differences: [],
      found: 0,
      matching: 17,
      unchecked: NONE_UNCHECKED,
    });
  });

  it('still finds a changed file in a corpus packed again', async () => {
    const report = await verifyCorpus(tampered('rezip', TXT, 'other words\n'));
    expect(report.differences).toEqual([`changed: ${TXT} (its SHA-256 differs from SHA256SUMS)`]);
  });

  it('leaves what macOS adds aside, but not an unsafe name among it', async () => {
    expect(await verifyCorpus(tampered('add', '__MACOSX/._manifest.json', 'fork'))).toMatchObject({
      found: 0,
    });
    expect(await verifyCorpus(tampered('add', 'txt/.DS_Store', 'view'))).toMatchObject({ found: 0 });
    const report = await verifyCorpus(tampered('add', '__MACOSX/../evil', 'x'));
    expect(report.differences).toEqual([
      'bad name: __MACOSX/../evil (it has a . or .. component; see the ZIP layout)',
    ]);
  });

  it('calls a folder entry that holds data a bad name', async () => {
    const report = await verifyCorpus(tampered('add', 'txt/', 'not a folder\n'));
    expect(report.differences).toEqual(["bad name: txt/ (a folder's name, yet it holds data)"]);
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
    const vtt = 'vtt/000003 - Third talk [CCCCCCCCCCC].vtt';
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
      CorpusUnreadableError.fromCode(join(dir, 'absent.zip'), 'ENOENT'),
    );
    // A folder, whatever its name, is checked as an unzipped corpus.
    const folder = join(dir, 'folder.zip');
    mkdirSync(folder);
    expect((await verifyCorpus(folder)).differences[0]).toBe(
      'missing: SHA256SUMS (so no file can be checked)',
    );
  });

  it('finds a name listed twice, and compares only the first with SHA256SUMS', async () => {
    const path = join(dir, 'twice.zip');
    craftCorpus(path, {
      files: [
        { name: 'txt/a.txt', content: 'one' },
        { name: 'txt/a.txt', content: 'two' },
      ],
    });
    expect(await verifyCorpus(path)).toEqual({
      differences: ['listed twice: txt/a.txt', 'SHA256SUMS: line 4 names txt/a.txt again'],
      found: 2,
      matching: 3,
      unchecked: NONE_UNCHECKED,
    });
  });

  it('finds SHA256SUMS lines that are not checksums, or name a file again', async () => {
    const path = join(dir, 'lines.zip');
    const hash = 'a'.repeat(64);
    craftCorpus(path, { checksumLines: ['not a checksum', `${hash}  index.csv`, `${'A'.repeat(64)}  x`] });
    expect((await verifyCorpus(path)).differences).toEqual([
      'SHA256SUMS: line 3 is not "<sha256>  <path>"',
      'SHA256SUMS: line 4 names index.csv again',
      'SHA256SUMS: line 5 is not "<sha256>  <path>"',
    ]);
  });

  it('checks no entry against a damaged SHA256SUMS, rather than calling every entry extra', async () => {
    const report = await verifyCorpus(tampered('flip', 'SHA256SUMS'));
    expect(report.differences).toEqual([expect.stringMatching(/^damaged: SHA256SUMS \(.+\)$/)]);
  });

  it('says why the counts could not be checked: no counts, or an index.csv it cannot read', async () => {
    const noCounts = join(dir, 'no-counts.zip');
    craftCorpus(noCounts, { manifest: '{"tool":{"name":"scriptorium"}}' });
    expect((await verifyCorpus(noCounts)).differences).toEqual([
      'counts: not checked, as manifest.json holds no counts (it has no "counts" field)',
    ]);
    const notJson = join(dir, 'not-json.zip');
    craftCorpus(notJson, { manifest: '{"counts":{"videos":0}' });
    expect((await verifyCorpus(notJson)).differences).toEqual([
      'counts: not checked, as manifest.json holds no counts (it is not JSON: it is cut short)',
    ]);
    const wide = join(dir, 'wide.zip');
    craftCorpus(wide, { index: `${INDEX_HEADER}\n${','.repeat(1000)}\n`, manifest: manifestCounting(1) });
    expect((await verifyCorpus(wide)).differences).toEqual([
      'counts: not checked, as index.csv could not be read: record 2 has more than 1000 cells',
    ]);
  });

  it('counts the rows of an index.csv with quoted cells and line breaks as Python does, blank lines not', async () => {
    const path = join(dir, 'quoted.zip');
    const row = (title: string) => `abcdefghijk,"${title}",en,ok,1,s,,,,,,,,,,,`;
    const index = `${INDEX_HEADER}\r\n${row('a, ""quoted""\nline')}\r\n\r\n${row('b')}`;
    craftCorpus(path, { index, manifest: manifestCounting(2) });
    expect((await verifyCorpus(path)).differences).toEqual([]);
  });

  it('refuses what is not a file (a named pipe), and checks a folder as an unzipped corpus', async () => {
    expect((await verifyCorpus(dir)).differences).toEqual([
      'missing: SHA256SUMS (so no file can be checked)',
      'counts: not checked, as manifest.json could not be read',
    ]);
    const fifo = join(dir, 'pipe.zip');
    execFileSync('mkfifo', [fifo]);
    await expect(verifyCorpus(fifo)).rejects.toThrow(/it is a named pipe, not a file/);
  });

  it('reads a ZIP of entries stored without compression, as other tools may write', async () => {
    const path = join(dir, 'stored.zip');
    craftZip(path, { entries: [{ name: 'a.txt', content: 'plain', stored: true }] });
    expect((await verifyCorpus(path)).differences).toEqual([
      'missing: SHA256SUMS (so no entry can be checked)',
      'counts: not checked, as manifest.json could not be read',
    ]);
  });

  it('unpacks a bzip2 entry no further than it announces: a bzip2 bomb is damaged, not read whole', async () => {
    const path = join(dir, 'bomb.zip');
    // 64 MiB of zeros packed with bzip2 into some hundred bytes, its directory announcing 1,000.
    execFileSync('python3', [
      '-c',
      `import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_BZIP2) as z:
    z.writestr("SHA256SUMS", bytes(64 * 1024 * 1024))
data = bytearray(open(sys.argv[1], "rb").read())
central = data.index(b"PK\\x01\\x02")
data[22:26] = (1000).to_bytes(4, "little")
data[central + 24 : central + 28] = (1000).to_bytes(4, "little")
open(sys.argv[1], "wb").write(data)`,
      path,
    ]);
    const report = await verifyCorpus(path);
    expect(report.differences[0]).toBe('damaged: SHA256SUMS (it holds more bytes than the directory says)');
    expect(process.memoryUsage().rss).toBeLessThan(1024 * 1024 * 1024);
  });
});
