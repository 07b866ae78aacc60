import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCorpus } from '../../src/core/export';
import type { ExportManifest, ExportVideo } from '../../src/core/export';
import { runCli, tempDir } from '../support/cli';

const TAMPER_ZIP = fileURLToPath(new URL('../core/export/fixtures/tamper_zip.py', import.meta.url));

const manifest: ExportManifest = {
  tool: { name: 'scriptorium', version: '0.1.0' },
  job_id: '3',
  sources: ['PLcliVerify'],
  skipped_sources: [],
  failed_sources: [],
  options: {},
  counts: { videos: 2, ok: 2, unavailable: 0, failed: 0, pending: 0, skipped: 0, sources_failed: 0 },
  credits_spent: 2,
  credits_possible: 0,
  finished_at: '2025-01-02T03:04:05.000Z',
  version: 1,
  versions: [{ version: 1, releasedAt: '2025-01-02T03:04:05.000Z', added: 6, retried: 0, changed: 0 }],
  job_finished: true,
  all_videos_transcribed: true,
};

const video = (videoId: string, title: string, number: number): ExportVideo => ({
  number,
  videoId,
  title,
  source: 'PLcliVerify',
  status: 'ok',
  language: 'en',
  segmentCount: 1,
  segments: [{ text: `${title} begins`, start: 0, duration: 2 }],
});

let dir: string;
let sound: string;

beforeAll(async () => {
  dir = tempDir('scriptorium-verify-cli-');
  sound = join(dir, 'corpus.zip');
  const videos = [video('AAAAAAAAAAA', 'One', 1), video('BBBBBBBBBBB', 'Two', 2)];
  await writeCorpus({ manifest, videos: () => videos }, sound);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Tampering = 'replace' | 'drop' | 'add' | 'flip' | 'folder' | 'bzip2' | 'lzma' | 'deflate64';

function tampered(action: Tampering, name: string, text = '', source = sound): string {
  const copy = join(dir, `${action}-${basename(source)}`);
  execFileSync('python3', [TAMPER_ZIP, source, copy, action, name, text]);
  return copy;
}

const lines = (text: string): string[] => text.trimEnd().split('\n');

/** The names of a ZIP's entries, as Python's zipfile lists them. */
const LIST_NAMES = 'import json, sys, zipfile; print(json.dumps(zipfile.ZipFile(sys.argv[1]).namelist()))';

describe('scriptorium verify', () => {
  it('exits 0 for a sound corpus, saying so in one line', async () => {
    const result = await runCli(['verify', sound]);
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout)).toEqual([
      `${sound} is sound: its 17 files match SHA256SUMS, and index.csv agrees with manifest.json.`,
    ]);
    expect(result.stderr).toBe('');
  });

  it('exits 1 for an entry changed with its CRC fixed up, a line per difference, then what to do', async () => {
    const name = 'txt/000002 - Two [BBBBBBBBBBB].txt';
    const copy = tampered('replace', name, 'Two ends\n');
    const result = await runCli(['verify', copy]);
    expect(result.code).toBe(1);
    expect(lines(result.stdout)).toEqual([`changed: ${name} (its SHA-256 differs from SHA256SUMS)`]);
    expect(lines(result.stderr)).toEqual([
      `${copy} is not sound: 1 difference found (listed above). Export the corpus again from its job, or get an intact copy.`,
    ]);
  });

  it('exits 1 for an entry changed in place, its CRC left as it was', async () => {
    const result = await runCli(['verify', tampered('flip', 'index.csv')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^damaged: index\.csv \(.+\)\n/);
    expect(result.stdout).toContain('counts: not checked, as index.csv could not be read\n');
    expect(result.stderr).toMatch(/is not sound: 2 differences found/);
  });

  it('exits 1 for a missing entry', async () => {
    const name = 'json/000001 - One [AAAAAAAAAAA].json';
    const result = await runCli(['verify', tampered('drop', name)]);
    expect(result.code).toBe(1);
    expect(lines(result.stdout)).toEqual([
      `missing: ${name} (in SHA256SUMS, not in the ZIP)`,
      `missing file: ${name} (named in index.csv, row 1)`,
    ]);
  });

  it('exits 2 when there is no file to check', async () => {
    const absent = join(dir, 'absent.zip');
    const result = await runCli(['verify', absent]);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toEqual([`Cannot verify ${absent}: there is no such file. Check the path.`]);
  });

  it('finds the corpus the demo exports sound', async () => {
    const out = join(dir, 'demo.zip');
    const demo = await runCli(['demo', '--out', out], { SCRIPTORIUM_DATA_DIR: join(dir, 'data') });
    expect(demo.code, demo.stderr).toBe(0);
    const result = await runCli(['verify', out]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/is sound: its \d+ files match SHA256SUMS/);
  }, 60_000);
});

describe('scriptorium verify, of a corpus zipped again in a folder of its own', () => {
  // macOS's "Compress" of the unzipped folder: every entry under corpus/, with resource forks under
  // __MACOSX/ and .DS_Store files. A name the writer made 200 bytes long is then longer with the folder.
  let long: string;
  let packed: string;
  beforeAll(async () => {
    long = join(dir, 'long.zip');
    const videos = [video('CCCCCCCCCCC', 'Ω'.repeat(300), 1), video('DDDDDDDDDDD', 'Short', 2)];
    await writeCorpus({ manifest, videos: () => videos }, long);
    packed = tampered('folder', 'corpus', '', long);
  });

  const names = (zip: string): string[] =>
    JSON.parse(execFileSync('python3', ['-c', LIST_NAMES, zip], { encoding: 'utf8' })) as string[];

  it('is sound, its names judged without the folder, and what macOS added left aside (exit 0)', async () => {
    const listed = names(packed);
    expect(listed).toEqual(
      expect.arrayContaining(['corpus/SHA256SUMS', 'corpus/.DS_Store', '__MACOSX/corpus/._SHA256SUMS']),
    );
    expect(Math.max(...names(long).map((name) => Buffer.byteLength(name)))).toBeGreaterThanOrEqual(199);
    expect(
      Math.max(...listed.filter((name) => name.startsWith('corpus/')).map((name) => Buffer.byteLength(name))),
    ).toBeGreaterThan(200);
    const result = await runCli(['verify', packed]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(lines(result.stdout)).toEqual([
      `${packed} is sound: its 17 files match SHA256SUMS, and index.csv agrees with manifest.json.`,
    ]);
  });

  it('still finds a changed byte, a missing file and an extra one (exit 1)', async () => {
    const txt = names(long).find((name) => name.startsWith('txt/000002'))!;
    const json = names(long).find((name) => name.startsWith('json/000001'))!;
    const changed = await runCli(['verify', tampered('replace', `corpus/${txt}`, 'Short ends\n', packed)]);
    expect(changed.code).toBe(1);
    expect(lines(changed.stdout)).toEqual([`changed: corpus/${txt} (its SHA-256 differs from SHA256SUMS)`]);

    const missing = await runCli(['verify', tampered('drop', `corpus/${json}`, '', packed)]);
    expect(missing.code).toBe(1);
    expect(lines(missing.stdout)).toEqual([
      `missing: ${json} (in SHA256SUMS, not in the ZIP)`,
      `missing file: ${json} (named in index.csv, row 1)`,
    ]);

    const extra = await runCli(['verify', tampered('add', 'corpus/notes.txt', 'mine', packed)]);
    expect(extra.code).toBe(1);
    expect(lines(extra.stdout)).toEqual(['extra: corpus/notes.txt (in the ZIP, not in SHA256SUMS)']);
  });

  it('judges names as they are when a file lies beside the folder: no common folder, no corpus (exit 1)', async () => {
    const result = await runCli(['verify', tampered('add', 'notes.txt', 'mine', packed)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('missing: SHA256SUMS (so no entry can be checked)\n');
    expect(result.stdout).toMatch(/bad name: corpus\/json\/000001 - Ω+.* \(it is longer than 200 bytes/);
  });
});

describe('scriptorium verify, of a corpus compressed again another way, or unzipped (issue 43)', () => {
  const zipped = (name: string) => join(dir, name);
  const unzipped = (zip: string, folder: string): string => {
    const target = join(dir, folder);
    execFileSync('unzip', ['-q', '-o', zip, '-d', target]);
    return target;
  };

  it.each(['bzip2', 'lzma'] as const)(
    "reads files compressed with %s by Python's zipfile: sound (exit 0)",
    async (method) => {
      const copy = tampered(method, '');
      const result = await runCli(['verify', copy]);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(lines(result.stdout)).toEqual([
        `${copy} is sound: its 17 files match SHA256SUMS, and index.csv agrees with manifest.json.`,
      ]);
    },
  );

  it('reads the folder zipped again by `zip -r -Z bzip2`, and still finds a changed file (exit 1)', async () => {
    const folder = unzipped(sound, 'for-zip');
    const rezipped = zipped('zip-bzip2.zip');
    execFileSync('zip', ['-q', '-r', '-Z', 'bzip2', rezipped, '.'], { cwd: folder });
    const result = await runCli(['verify', rezipped]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/is sound: its 17 files match SHA256SUMS/);

    const name = 'txt/000001 - One [AAAAAAAAAAA].txt';
    const changed = tampered('bzip2', '', '', tampered('replace', name, 'One ends\n'));
    const found = await runCli(['verify', changed]);
    expect(found.code).toBe(1);
    expect(lines(found.stdout)).toEqual([`changed: ${name} (its SHA-256 differs from SHA256SUMS)`]);
  });

  it('says plainly when a file is compressed in a way it cannot read, without calling the corpus damaged (exit 2)', async () => {
    const name = 'txt/000002 - Two [BBBBBBBBBBB].txt';
    const copy = tampered('deflate64', name);
    const result = await runCli(['verify', copy]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toEqual([
      `Cannot verify ${copy} whole: 1 file in it is compressed with Deflate64, which verify cannot read, ` +
        'so nothing can be said of it; the rest shows no difference. Unzip it with a tool that reads that ' +
        'compression (unzip, 7-Zip) and verify the folder: scriptorium verify FOLDER.',
    ]);
  });

  it('checks the unzipped folder: sound (exit 0), then a changed, a missing and an extra file (exit 1)', async () => {
    const folder = unzipped(sound, 'unzipped');
    // What macOS adds to a folder it shows is left aside.
    appendFileSync(join(folder, '.DS_Store'), 'Bud1');
    const result = await runCli(['verify', folder]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(lines(result.stdout)).toEqual([
      `${folder} is sound: its 17 files match SHA256SUMS, and index.csv agrees with manifest.json.`,
    ]);

    const txt = 'txt/000002 - Two [BBBBBBBBBBB].txt';
    appendFileSync(join(folder, txt), 'more\n');
    rmSync(join(folder, 'json/000001 - One [AAAAAAAAAAA].json'));
    mkdirSync(join(folder, 'notes'));
    appendFileSync(join(folder, 'notes/mine.txt'), 'mine');
    symlinkSync('/dev/zero', join(folder, 'notes/zero'));
    const found = await runCli(['verify', folder]);
    expect(found.code).toBe(1);
    expect(lines(found.stdout).sort()).toEqual(
      [
        'missing: json/000001 - One [AAAAAAAAAAA].json (in SHA256SUMS, not in the folder)',
        'missing file: json/000001 - One [AAAAAAAAAAA].json (named in index.csv, row 1)',
        `changed: ${txt} (its SHA-256 differs from SHA256SUMS)`,
        'extra: notes/mine.txt (in the folder, not in SHA256SUMS)',
        'not a file: notes/zero (a link or a special file; verify does not open it)',
      ].sort(),
    );
    expect(found.stderr).toMatch(/is not sound: 5 differences found/);
  });
});
