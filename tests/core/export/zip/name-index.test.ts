import { describe, expect, it } from 'vitest';
import { NameIndex } from '../../../../src/core/export/zip/name-index';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('NameIndex', () => {
  it('finds each path by its text or its bytes, and tells absent paths apart', () => {
    const names = Array.from({ length: 50_000 }, (_, i) => `txt/${i} - Título ${i} [abcdefghijk].txt`);
    const index = new NameIndex(names.length);
    for (const [at, name] of names.entries()) expect(index.add(at, bytes(name))).toBeUndefined();
    for (const [at, name] of names.entries()) {
      expect(index.find(name)).toBe(at);
      expect(index.find(bytes(name))).toBe(at);
    }
    for (let i = 0; i < 50_000; i++)
      expect(index.find(`txt/${i} - Título ${i} [abcdefghijk].tx`)).toBeUndefined();
    expect(index.find('')).toBeUndefined();
  });

  it('answers the earlier entry for a path listed twice, and keeps it for lookups', () => {
    const index = new NameIndex(3);
    expect(index.add(0, bytes('a.txt'))).toBeUndefined();
    expect(index.add(1, bytes('b.txt'))).toBeUndefined();
    expect(index.add(2, bytes('a.txt'))).toBe(0);
    expect(index.find('a.txt')).toBe(0);
  });

  it("tells whether an entry's path is the one a local header names", () => {
    const index = new NameIndex(2);
    index.add(0, bytes('txt/a.txt'));
    index.add(1, bytes('txt/a.txt'));
    expect(index.is(0, bytes('txt/a.txt'))).toBe(true);
    expect(index.is(1, bytes('txt/a.txt'))).toBe(true);
    expect(index.is(0, bytes('../a.txt'))).toBe(false);
  });

  it('finds text far longer than any path, and text with a lone surrogate by its UTF-8 bytes', () => {
    const long = 'x'.repeat(100_000);
    const index = new NameIndex(2);
    index.add(0, bytes(long));
    index.add(1, bytes('a\ufffd'));
    expect(index.find(long)).toBe(0);
    expect(index.find('a\ud800')).toBe(1);
  });
});
