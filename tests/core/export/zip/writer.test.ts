import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AtomicZipFile } from '../../../../src/core/export/zip/writer';
import { ZipReader } from '../../../../src/core/export/zip/reader';

/**
 * Python's zipfile, a reader that shares no code with the writer: the entry count and names, the text
 * of chosen entries (reading checks their CRC), and with `checkAll` the CRC of every entry.
 */
const READ_ZIP = `
import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    names = z.namelist()
    print(json.dumps({
        "count": len(names),
        "first": names[:2],
        "last": names[-2:],
        "bad_crc": z.testzip() if sys.argv[2] == "all" else None,
        "texts": {name: z.read(name).decode("utf-8") for name in sys.argv[3:]},
    }))
`;

const readingSchema = z.object({
  count: z.number(),
  first: z.array(z.string()),
  last: z.array(z.string()),
  bad_crc: z.string().nullable(),
  texts: z.record(z.string(), z.string()),
});

function readWithPython(
  zipPath: string,
  { checkAll, texts }: { checkAll: boolean; texts: string[] },
): z.infer<typeof readingSchema> {
  const stdout = execFileSync('python3', ['-c', READ_ZIP, zipPath, checkAll ? 'all' : 'read', ...texts], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  return readingSchema.parse(JSON.parse(stdout));
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-zip-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('AtomicZipFile', () => {
  it('writes a streamed entry of many parts, an empty one and files, in the order added', async () => {
    const out = join(dir, 'parts.zip');
    // About 1.3 MB of text with multi-byte characters, in small chunks: it spans several compressed parts.
    const lines = Array.from({ length: 20_000 }, (_, i) => `ligne ${i}: été, 東京, ${'x'.repeat(i % 40)}\n`);
    const zip = await AtomicZipFile.create(out);
    await zip.add('first.txt', 'before the tables\n');
    await zip.addStreamed('big.jsonl', lines);
    await zip.addStreamed('empty.csv', []);
    await zip.add('last.txt', '');
    const result = await zip.commit();

    const zipped = readWithPython(out, {
      checkAll: true,
      texts: ['big.jsonl', 'empty.csv', 'first.txt', 'last.txt'],
    });
    expect(zipped.bad_crc).toBeNull();
    expect(zipped.first).toEqual(['first.txt', 'big.jsonl']);
    expect(zipped.last).toEqual(['empty.csv', 'last.txt']);
    expect(zipped.texts).toEqual({
      'big.jsonl': lines.join(''),
      'empty.csv': '',
      'first.txt': 'before the tables\n',
      'last.txt': '',
    });
    expect(result.entries).toBe(4);
    expect(readdirSync(dir)).toEqual(['parts.zip']);
  });

  it('puts a spooled entry, written while files were added, after those files', async () => {
    const out = join(dir, 'spooled.zip');
    const zip = await AtomicZipFile.create(out);
    const spooled = await zip.spool('transcripts.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const line = `{"video_id":"${i}","text":"${'é'.repeat(i % 100)}"}\n`;
      lines.push(line);
      await spooled.write(line);
      await zip.add(`txt/${i}.txt`, `${i}\n`);
    }
    // A streamed entry may come in the middle: it holds its own place.
    await zip.addStreamed('index.csv', ['video_id\n']);
    await zip.addSpooled(spooled);
    await zip.commit();

    const zipped = readWithPython(out, { checkAll: true, texts: ['transcripts.jsonl', 'txt/2999.txt'] });
    expect(zipped.bad_crc).toBeNull();
    expect(zipped.count).toBe(3002);
    expect(zipped.last).toEqual(['index.csv', 'transcripts.jsonl']);
    expect(zipped.texts).toEqual({ 'transcripts.jsonl': lines.join(''), 'txt/2999.txt': '2999\n' });
    expect(readdirSync(dir)).toEqual(['spooled.zip']);
  });

  it('spools several entries at once, each stored whole, one listed where it was started', async () => {
    const out = join(dir, 'several.zip');
    const zip = await AtomicZipFile.create(out);
    await zip.add('manifest.json', '{}\n');
    const index = await zip.spool('index.csv', { listNow: true });
    await zip.addStreamed('errors.csv', ['video_id\n']);
    const transcripts = await zip.spool('transcripts.jsonl');
    const chunks = await zip.spool('chunks.jsonl');
    const expected = { index: '', transcripts: '', chunks: '' };
    for (let i = 0; i < 2000; i++) {
      // Interleaved writes, enough of them to fill several compressed parts of each entry.
      const row = `${i},${'ü'.repeat(i % 70)}\n`;
      const record = `{"i":${i},"t":"${'x'.repeat(i % 90)}"}\n`;
      await index.write(row);
      await transcripts.write(record);
      await chunks.write(record + record);
      await zip.add(`txt/${i}.txt`, `${i}\n`);
      expected.index += row;
      expected.transcripts += record;
      expected.chunks += record + record;
    }
    await zip.addSpooled(index);
    await zip.addSpooled(transcripts);
    await zip.addSpooled(chunks);
    await zip.commit();

    const zipped = readWithPython(out, {
      checkAll: true,
      texts: ['index.csv', 'transcripts.jsonl', 'chunks.jsonl'],
    });
    expect(zipped.bad_crc).toBeNull();
    // Listed (as readers show entries) where it was started, though stored after the files.
    expect(zipped.first).toEqual(['manifest.json', 'index.csv']);
    expect(zipped.last).toEqual(['transcripts.jsonl', 'chunks.jsonl']);
    expect(zipped.count).toBe(2005);
    expect(zipped.texts).toEqual({
      'index.csv': expected.index,
      'transcripts.jsonl': expected.transcripts,
      'chunks.jsonl': expected.chunks,
    });
    expect(readdirSync(dir)).toEqual(['several.zip']);
  });

  it('ends with a SHA256SUMS of every other entry, which sha256sum -c accepts once unzipped', async () => {
    const out = join(dir, 'sums.zip');
    const zip = await AtomicZipFile.create(out, { checksums: 'SHA256SUMS' });
    await zip.add('a.txt', 'été\n');
    await zip.addStreamed(
      'big.csv',
      Array.from({ length: 30_000 }, (_, i) => `${i},東京\n`),
    );
    const spooled = await zip.spool('listed-early.jsonl', { listNow: true });
    await spooled.write('{"x":1}\n');
    await zip.add('empty.txt', '');
    await zip.addSpooled(spooled);
    const result = await zip.commit();

    const unzipped = join(dir, 'unzipped');
    execFileSync('python3', ['-m', 'zipfile', '-e', out, unzipped]);
    const sums = readFileSync(join(unzipped, 'SHA256SUMS'), 'utf8');
    expect(sums.split('\n').map((line) => line.slice(66))).toEqual([
      'a.txt',
      'big.csv',
      'empty.txt',
      'listed-early.jsonl',
      '',
    ]);
    expect(sums).toContain('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt\n');
    const checked = execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: unzipped, encoding: 'utf8' });
    expect(checked.trim().split('\n')).toHaveLength(4);
    expect(result.entries).toBe(5);
    expect(readdirSync(dir).sort()).toEqual(['sums.zip', 'unzipped']);
  });

  it('gives the same bytes for a streamed entry however its text is cut into pieces', async () => {
    // 700,001 characters: after the 'x', every odd position starts a surrogate pair (𝄞), which no
    // part the entry is compressed in may split.
    const whole = `x${'𝄞'.repeat(350_000)}`;
    const piecesOf = (length: number): string[] =>
      Array.from({ length: Math.ceil(whole.length / length) }, (_, k) =>
        whole.slice(k * length, (k + 1) * length),
      );
    const write = async (out: string, pieces: string[]): Promise<string> => {
      const zip = await AtomicZipFile.create(out, { checksums: 'SHA256SUMS' });
      await zip.addStreamed('notes.txt', pieces);
      await zip.commit();
      return createHash('sha256').update(readFileSync(out)).digest('hex');
    };
    const inOnePiece = await write(join(dir, 'whole.zip'), [whole]);
    expect(await write(join(dir, 'small.zip'), piecesOf(1_000))).toBe(inOnePiece);
    expect(await write(join(dir, 'odd.zip'), piecesOf(99_991))).toBe(inOnePiece);
    const zipped = readWithPython(join(dir, 'odd.zip'), { checkAll: true, texts: ['notes.txt'] });
    expect(zipped.texts['notes.txt']).toBe(whole);
  });

  it('writes the ZIP64 records that 65,535 entries or more need', async () => {
    const out = join(dir, 'many.zip');
    const zip = await AtomicZipFile.create(out);
    const files = 65_534;
    for (let i = 0; i < files; i++) await zip.add(`txt/${String(i).padStart(5, '0')}.txt`, `${i}\n`);
    await zip.addStreamed('index.csv', ['video_id\n', 'abc\n']);
    await zip.commit();

    const zipped = readWithPython(out, { checkAll: false, texts: ['txt/65533.txt', 'index.csv'] });
    expect(zipped.count).toBe(files + 1);
    expect(zipped.last).toEqual(['txt/65533.txt', 'index.csv']);
    expect(zipped.texts).toEqual({ 'txt/65533.txt': '65533\n', 'index.csv': 'video_id\nabc\n' });
    // The 16-bit count of the classic end record cannot hold 65,535: the ZIP64 end record before it does.
    const tail = readFileSync(out).subarray(-(56 + 20 + 22));
    expect(tail.readUInt32LE(0)).toBe(0x06064b50);
    expect(tail.readBigUInt64LE(32)).toBe(BigInt(files + 1));
    expect(tail.readUInt32LE(56)).toBe(0x07064b50);
    expect(tail.readUInt16LE(76 + 10)).toBe(0xffff);

    // Our own reader (which verify uses) finds every entry through the ZIP64 end record.
    const reader = await ZipReader.open(out);
    try {
      expect(reader.count).toBe(files + 1);
      const last = reader.entry(files);
      const pieces: Buffer[] = [];
      await reader.read(last, (piece) => pieces.push(piece));
      expect(Buffer.concat(pieces).toString('utf8')).toBe('video_id\nabc\n');
    } finally {
      await reader.close();
    }
  });

  it('rejects when a streamed entry’s source fails, and discard leaves no file behind', async () => {
    const zip = await AtomicZipFile.create(join(dir, 'broken.zip'));
    await zip.add('first.txt', 'kept for a moment');
    await (await zip.spool('transcripts.jsonl')).write('{"spooled":"for a moment"}\n');
    function* failing(): Generator<string> {
      yield 'a'.repeat(300_000);
      throw new Error('database is locked');
    }
    await expect(zip.addStreamed('index.csv', failing())).rejects.toThrow('database is locked');
    await zip.discard();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a path that breaks the ZIP layout, whichever way the entry is added', async () => {
    const zip = await AtomicZipFile.create(join(dir, 'layout.zip'));
    try {
      await expect(zip.add('../evil.txt', 'x')).rejects.toThrow(
        /breaks the ZIP layout: it has a \. or \.\. component/,
      );
      await expect(zip.addStreamed('/etc/passwd', ['x'])).rejects.toThrow(
        /breaks the ZIP layout: it is not relative/,
      );
      await expect(zip.spool('txt/\u001b[2J.txt')).rejects.toThrow(
        /breaks the ZIP layout: it holds a control character/,
      );
    } finally {
      await zip.discard();
    }
  });
});
