import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZipFormatError, ZipReader } from '../../../src/core/export/zip-reader';

/** A ZIP written by Python's zipfile, a writer that shares no code with ours: stored and deflated entries, a comment. */
const WRITE_ZIP = `
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.comment = b"written by Python"
    z.writestr("stored.txt", "plain été\\n", compress_type=zipfile.ZIP_STORED)
    z.writestr("deflated.csv", "".join(f"{i},東京\\n" for i in range(50000)), compress_type=zipfile.ZIP_DEFLATED)
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
  const entry = reader.entries.find((listed) => listed.name === name);
  if (entry === undefined) throw new Error(`${name} is not listed`);
  const pieces: Buffer[] = [];
  await reader.read(entry, (piece) => pieces.push(piece));
  return { text: Buffer.concat(pieces).toString('utf8'), pieces: pieces.length };
}

describe('ZipReader', () => {
  it('lists and reads the entries of a ZIP another program wrote, a large one in pieces', async () => {
    const path = join(dir, 'python.zip');
    execFileSync('python3', ['-c', WRITE_ZIP, path]);
    const reader = await ZipReader.open(path);
    try {
      expect(reader.entries.map((entry) => [entry.name, entry.method])).toEqual([
        ['stored.txt', 0],
        ['deflated.csv', 8],
        ['empty', 8],
      ]);
      expect((await readAll(reader, 'stored.txt')).text).toBe('plain été\n');
      const large = await readAll(reader, 'deflated.csv');
      expect(large.text).toBe(Array.from({ length: 50_000 }, (_, i) => `${i},東京\n`).join(''));
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
    const entry = reader.entries.find((listed) => listed.name === 'deflated.csv');
    await reader.close();
    if (entry === undefined) throw new Error('deflated.csv is not listed');
    // Overwrite the start of its deflate data (after the 30-byte local header and its name) with garbage.
    bytes.fill(0xff, entry.offset + 30 + entry.name.length, entry.offset + 30 + entry.name.length + 64);
    writeFileSync(path, bytes);
    const damaged = await ZipReader.open(path);
    try {
      await expect(readAll(damaged, 'deflated.csv')).rejects.toThrow(/cannot be decompressed/);
    } finally {
      await damaged.close();
    }
  });
});
