import { describe, expect, it } from 'vitest';
import {
  entryPathBytes,
  entryPathProblem,
  MAX_ENTRY_PATH_BYTES,
  printable,
  printableBytes,
} from '../../../../src/core/export/zip/layout';

describe('the ZIP layout rule (docs/product.md, "ZIP layout")', () => {
  it.each([
    'manifest.json',
    'SHA256SUMS',
    'txt/007 - Never Gonna [dQw4w9WgXcQ].txt',
    'json/1 - 日本語のタイトル 👨‍👩‍👧‍👦 [abc].json',
    'vtt/1 - a.b..c [x].vtt',
    `txt/${'é'.repeat(96)}.txt`, // 200 bytes
  ])('keeps %j', (path) => {
    expect(entryPathProblem(path)).toBeUndefined();
    expect(entryPathProblem(Buffer.from(path))).toBeUndefined();
  });

  it.each([
    ['', 'it has an empty component'],
    ['/etc/passwd', 'it is not relative'],
    ['C:/Windows/x.txt', 'it is not relative'],
    ['txt\\x.txt', 'it separates folders with \\, not /'],
    ['txt//x.txt', 'it has an empty component'],
    ['txt/', 'it has an empty component'],
    ['../x.txt', 'it has a . or .. component'],
    ['txt/./x.txt', 'it has a . or .. component'],
    ['txt/\u001b[31mred.txt', 'it holds a control character'],
    ['txt/a\u0000.txt', 'it holds a control character'],
    ['txt/a\u009b.txt', 'it holds a control character'],
    ['txt/gpj.\u202eexe', 'it holds a control character'],
    ['txt/\ud800.txt', 'it is not valid UTF-8'],
    [`txt/${'é'.repeat(98)}.txt`, `it is longer than ${MAX_ENTRY_PATH_BYTES} bytes (204)`],
  ])('refuses %j: %s', (path, problem) => {
    expect(entryPathProblem(path)).toBe(problem);
  });

  it('refuses bytes that are not UTF-8, which text cannot even hold', () => {
    expect(entryPathProblem(Buffer.from([0x74, 0x2f, 0xc3, 0x28]))).toBe('it is not valid UTF-8');
    expect(entryPathProblem(Buffer.from([0x74, 0x2f, 0xed, 0xa0, 0x80]))).toBe('it is not valid UTF-8');
  });

  it('gives the writer the bytes of a path that keeps the rule, and throws for one that breaks it', () => {
    expect(entryPathBytes('txt/é.txt')).toEqual(Buffer.from('txt/é.txt'));
    expect(() => entryPathBytes('../evil.txt')).toThrow('the entry path ../evil.txt breaks the ZIP layout');
  });
});

describe('printing what a file names', () => {
  it('escapes controls, bidirectional controls, line separators and the backslash, and nothing else', () => {
    expect(printable('\u001b]0;x\u0007 a\u0000b\u007f\u009b \u202egpj.exe \u2028 \\ é 日本 👍')).toBe(
      '\\x1b]0;x\\x07 a\\x00b\\x7f\\x9b \\u{202e}gpj.exe \\u{2028} \\\\ é 日本 👍',
    );
  });

  it('shows bytes that are not UTF-8 as \\xff, and the rest as printable() does', () => {
    expect(printableBytes(Buffer.from('txt/é\u001b.txt'))).toBe('txt/é\\x1b.txt');
    expect(printableBytes(Buffer.from([0x61, 0xff, 0xc3, 0xa9, 0xc3, 0x1b, 0xe6, 0x97]))).toBe(
      'a\\xffé\\xc3\\x1b\\xe6\\x97',
    );
  });
});
