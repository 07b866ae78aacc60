import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ENTRIES } from '../../../../src/core/export/zip/central-directory';
import { NotAFileError, ZipFormatError, ZipLimitError } from '../../../../src/core/export/zip/read-errors';
import { ZipReader } from '../../../../src/core/export/zip/reader';
import { craftZip } from '../../../support/crafted-zip';

/** A ZIP written by Python's zipfile, a writer that shares no code with ours: stored and deflated entries, a comment. */
const WRITE_ZIP = `
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.comment = b"written by Python"
    z.writestr("stored.txt", "plain été\\n", compress_type=zipfile.ZIP_STORED)
    z.writestr("deflated.csv", "".join(f"{i},東京\\n" for i in range(800000)), compress_type=zipfile.ZIP_DEFLATED)
    z.writestr("empty", "", compress_type=zipfile.ZIP_DEFLATED)
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-zip-reader-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function readAll(reader: ZipReader, name: string): Promise<{ text: string; pieces: number }> {
  const entry = reader.find(name);
  if (entry === undefined) throw new Error(`${name} is not listed`);
  const pieces: Buffer[] = [];
  await reader.read(entry, (piece) => pieces.push(piece));
  return { text: Buffer.concat(pieces).toString('utf8'), pieces: pieces.length };
}

describe('ZipReader', () => {
  it('lists and reads the entries of a ZIP another program wrote, a large one (over 8 MiB) in pieces', async () => {
    const path = join(dir, 'python.zip');
    execFileSync('python3', ['-c', WRITE_ZIP, path]);
    const reader = await ZipReader.open(path);
    try {
      const listed = [];
      for (const entry of reader.inFileOrder()) {
        listed.push([(await reader.nameOf(entry)).toString('utf8'), entry.method]);
      }
      expect(listed).toEqual([
        ['stored.txt', 0],
        ['deflated.csv', 8],
        ['empty', 8],
      ]);
      expect((await readAll(reader, 'stored.txt')).text).toBe('plain été\n');
      const large = await readAll(reader, 'deflated.csv');
      expect(large.text).toBe(Array.from({ length: 800_000 }, (_, i) => `${i},東京\n`).join(''));
      expect(large.pieces).toBeGreaterThan(1);
      expect((await readAll(reader, 'empty')).text).toBe('');
    } finally {
      await reader.close();
    }
  });

  it('refuses a file that is not a ZIP, or a ZIP cut short, in plain words', async () => {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a zip at all\n');
    await expect(ZipReader.open(text)).rejects.toThrow(/no end of central directory record/);

    const whole = join(dir, 'python.zip');
    execFileSync('python3', ['-c', WRITE_ZIP, whole]);
    const cut = join(dir, 'cut.zip');
    writeFileSync(cut, readFileSync(whole).subarray(0, 2000));
    await expect(ZipReader.open(cut)).rejects.toBeInstanceOf(ZipFormatError);
  });

  it('rejects an entry whose data does not inflate', async () => {
    const path = join(dir, 'python.zip');
    execFileSync('python3', ['-c', WRITE_ZIP, path]);
    const bytes = readFileSync(path);
    const reader = await ZipReader.open(path);
    const entry = reader.find('deflated.csv');
    await reader.close();
    if (entry === undefined) throw new Error('deflated.csv is not listed');
    // Overwrite the start of its deflate data (after the 30-byte local header and its name) with garbage.
    const dataStart = entry.offset + 30 + 'deflated.csv'.length;
    bytes.fill(0xff, dataStart, dataStart + 64);
    writeFileSync(path, bytes);
    const damaged = await ZipReader.open(path);
    try {
      await expect(readAll(damaged, 'deflated.csv')).rejects.toThrow(/cannot be decompressed/);
    } finally {
      await damaged.close();
    }
  });

  it('refuses what is not a regular file without opening it for reading: a named pipe, a folder', async () => {
    const fifo = join(dir, 'pipe.zip');
    execFileSync('mkfifo', [fifo]);
    await expect(ZipReader.open(fifo)).rejects.toEqual(new NotAFileError('a named pipe'));
    await expect(ZipReader.open(dir)).rejects.toEqual(new NotAFileError('a folder'));
  });

  it('refuses a directory listing more entries than it holds, before reading them', async () => {
    const path = join(dir, 'claims.zip');
    craftZip(path, { entries: [{ name: 'a.txt', content: 'a' }], claimedEntries: MAX_ENTRIES + 1 });
    await expect(ZipReader.open(path)).rejects.toEqual(
      new ZipLimitError('it lists 1,000,001 files, more than the 1,000,000 a corpus may hold'),
    );
  });

  it('finds entries that share bytes, and entries that run into the central directory', async () => {
    const path = join(dir, 'overlap.zip');
    craftZip(path, {
      entries: [
        { name: 'first.txt', content: 'x'.repeat(1000) },
        { name: 'second.txt', content: 'y' },
      ],
      aliases: [{ name: 'again.txt', of: 0 }],
    });
    const reader = await ZipReader.open(path);
    try {
      const problems = [];
      for (const { entry, next } of reader.spanProblems()) {
        problems.push([
          (await reader.nameOf(entry)).toString(),
          next && (await reader.nameOf(next)).toString(),
        ]);
      }
      expect(problems).toEqual([['first.txt', 'again.txt']]);
    } finally {
      await reader.close();
    }

    // The second entry says its data is far longer than what stands before the central directory.
    const bytes = readFileSync(path);
    const directory = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const second = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), directory + 1);
    bytes.writeUInt32LE(5000, second + 20);
    writeFileSync(path, bytes);
    const damaged = await ZipReader.open(path);
    try {
      const problems = [];
      for (const { entry, next } of damaged.spanProblems()) problems.push([entry.index, next]);
      expect(problems).toEqual([
        [0, damaged.entry(2)],
        [1, undefined],
      ]);
    } finally {
      await damaged.close();
    }
  });

  it('refuses an entry whose local header names another file, or whose data runs into the next', async () => {
    const path = join(dir, 'local.zip');
    craftZip(path, {
      entries: [
        { name: 'txt/a.txt', content: 'first' },
        { name: 'txt/b.txt', content: 'second' },
      ],
    });
    const bytes = readFileSync(path);
    // The local header says ../a.txt where the central directory says txt/a.txt (same length).
    bytes.write('../', 30);
    // The second local header announces an extra field that would run past its entry.
    const second = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), 1);
    bytes.writeUInt16LE(200, second + 28);
    writeFileSync(path, bytes);
    const reader = await ZipReader.open(path);
    try {
      await expect(reader.read(reader.entry(0), () => undefined)).rejects.toThrow(
        'its local header names another file than the central directory',
      );
      await expect(reader.read(reader.entry(1), () => undefined)).rejects.toThrow(
        'its data runs into the next entry, or past the end of the file',
      );
    } finally {
      await reader.close();
    }
  });

  it('refuses an entry that inflates to more than it announces, and stops there', async () => {
    const path = join(dir, 'more.zip');
    craftZip(path, {
      entries: [
        { name: 'small.txt', content: 'x'.repeat(10_000) },
        { name: 'large.txt', content: { piece: Buffer.alloc(1 << 20), times: 20 } },
      ],
    });
    const bytes = readFileSync(path);
    // Sizes far below what the data inflates to: the small one is inflated in one call, the large
    // one (over 8 MiB announced) as a stream.
    const announced = { 'small.txt': 100, 'large.txt': 9 << 20 };
    let at = -1;
    for (const [name, size] of Object.entries(announced)) {
      at = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 1);
      expect(bytes.toString('utf8', at + 46, at + 46 + name.length)).toBe(name);
      bytes.writeUInt32LE(size, at + 24);
    }
    writeFileSync(path, bytes);
    const reader = await ZipReader.open(path);
    try {
      for (const [index, size] of Object.values(announced).entries()) {
        let read = 0;
        await expect(reader.read(reader.entry(index), (piece) => (read += piece.length))).rejects.toThrow(
          'it holds more bytes than the directory says',
        );
        expect(read).toBeLessThanOrEqual(size);
      }
    } finally {
      await reader.close();
    }
  });
});
