import { describe, expect, it } from 'vitest';
import {
  decodeReuseField,
  encodeReuseField,
  isEncodingOf,
  MAX_LISTED_BLOCKS,
} from '../../../../src/core/export/reuse/reuse-field';
import type { ReuseField } from '../../../../src/core/export/reuse/reuse-field';

const bytes = (length: number, value: number) => Buffer.alloc(length, value);
const FILE: ReuseField = {
  fingerprint: bytes(16, 1),
  sha256: bytes(32, 2),
  compressedCrc: 0xdeadbeef,
  facts: { wordCount: 1234, spokenSeconds: 3725.125, timed: true },
};
const block = (index: number) => ({
  index,
  fingerprint: bytes(16, index),
  offset: index * 100,
  compressedSize: 100,
  compressedCrc: index,
  size: 400,
});

describe('the reuse field', () => {
  it('reads back what was written, for a file, a stream and a plain entry', () => {
    const stream: ReuseField = { ...FILE, facts: undefined, blocks: [block(0), block(1)] };
    const { facts: _, ...plain } = FILE;
    for (const field of [FILE, stream, plain]) {
      const decoded = decodeReuseField(encodeReuseField(field));
      expect(decoded).toEqual(
        Object.fromEntries(Object.entries(field).filter(([, value]) => value !== undefined)),
      );
    }
  });

  it("is written again as it was only when that is the file's field byte for byte as encoded", () => {
    for (const timed of [true, false]) {
      const field = { ...FILE, facts: { ...FILE.facts!, timed } };
      const extra = encodeReuseField(field);
      expect(isEncodingOf(extra, decodeReuseField(extra)!)).toBe(true);
      expect(encodeReuseField(decodeReuseField(extra)!).equals(extra)).toBe(true);
    }
    // A timed byte other than 0 or 1 reads as untimed; another field beside it would be lost.
    const odd = encodeReuseField(FILE);
    odd[odd.length - 1] = 2;
    expect(isEncodingOf(odd, decodeReuseField(odd)!)).toBe(false);
    const zip64 = Buffer.from([0x01, 0x00, 0x08, 0x00, 1, 2, 3, 4, 5, 6, 7, 8]);
    const both = Buffer.concat([zip64, encodeReuseField(FILE)]);
    expect(isEncodingOf(both, decodeReuseField(both)!)).toBe(false);
    const stream = encodeReuseField({ ...FILE, facts: undefined, blocks: [block(0)] });
    expect(isEncodingOf(stream, decodeReuseField(stream)!)).toBe(false);
  });

  it('is found among other extra fields, and fits in a header with a ZIP64 field', () => {
    const zip64 = Buffer.from([0x01, 0x00, 0x08, 0x00, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(decodeReuseField(Buffer.concat([zip64, encodeReuseField(FILE)]))).toEqual(FILE);
    const many = {
      ...FILE,
      facts: undefined,
      blocks: Array.from({ length: MAX_LISTED_BLOCKS }, (_, at) => block(at)),
    };
    expect(zip64.length + encodeReuseField(many).length).toBeLessThanOrEqual(0xffff);
    // One block more and the table is left out: the stream can then only be copied whole.
    const tooMany = { ...many, blocks: [...many.blocks, block(MAX_LISTED_BLOCKS)] };
    expect(decodeReuseField(encodeReuseField(tooMany))?.blocks).toBeUndefined();
  });

  it('is none when the extra fields hold none, or hold one cut short or of another version', () => {
    const field = encodeReuseField(FILE);
    expect(decodeReuseField(Buffer.alloc(0))).toBeUndefined();
    expect(decodeReuseField(field.subarray(0, field.length - 1))).toBeUndefined();
    const otherVersion = Buffer.from(field);
    otherVersion[4] = 2;
    expect(decodeReuseField(otherVersion)).toBeUndefined();
    const longer = Buffer.concat([field, Buffer.alloc(3)]);
    longer.writeUInt16LE(field.length - 4 + 3, 2);
    expect(decodeReuseField(longer)).toBeUndefined();
  });
});
