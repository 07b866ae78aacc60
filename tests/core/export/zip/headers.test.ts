import { describe, expect, it } from 'vitest';
import {
  centralHeader,
  checkEntrySize,
  endOfCentralDirectory,
  type ZipEntry,
} from '../../../../src/core/export/zip/headers';

const GiB = 2 ** 30;

function entry(overrides: Partial<ZipEntry> = {}): ZipEntry {
  return {
    name: Buffer.from('txt/a.txt'),
    crc: 0x12345678,
    size: 100,
    compressedSize: 60,
    offset: 0,
    streamed: false,
    ...overrides,
  };
}

// Offsets past 4 GiB cannot be written in a test; these check the records against APPNOTE 4.3.12 and 4.3.14-16.
describe('ZIP records past 4 GiB', () => {
  it('moves an entry offset past 4 GiB into a ZIP64 extra field of its central header', () => {
    const header = centralHeader(entry({ offset: 5 * GiB }));
    expect(header.readUInt16LE(6)).toBe(45); // version needed: ZIP64
    expect(header.readUInt32LE(42)).toBe(0xffffffff);
    const extra = header.subarray(46 + 'txt/a.txt'.length);
    expect(extra.readUInt16LE(0)).toBe(0x0001);
    expect(extra.readUInt16LE(2)).toBe(8);
    expect(extra.readBigUInt64LE(4)).toBe(BigInt(5 * GiB));
  });

  it('keeps a classic central header below 4 GiB', () => {
    const header = centralHeader(entry({ offset: 4 * GiB - 2 }));
    expect(header.length).toBe(46 + 'txt/a.txt'.length);
    expect(header.readUInt32LE(42)).toBe(4 * GiB - 2);
  });

  it('precedes the end record with a ZIP64 end record and locator when the directory starts past 4 GiB', () => {
    const directoryOffset = 6 * GiB;
    const directorySize = 1000;
    const records = endOfCentralDirectory(12, directoryOffset, directorySize);
    expect(records.length).toBe(56 + 20 + 22);
    expect(records.readUInt32LE(0)).toBe(0x06064b50);
    expect(records.readBigUInt64LE(32)).toBe(12n);
    expect(records.readBigUInt64LE(40)).toBe(BigInt(directorySize));
    expect(records.readBigUInt64LE(48)).toBe(BigInt(directoryOffset));
    const locator = records.subarray(56);
    expect(locator.readUInt32LE(0)).toBe(0x07064b50);
    expect(locator.readBigUInt64LE(8)).toBe(BigInt(directoryOffset + directorySize));
    const end = records.subarray(76);
    expect(end.readUInt32LE(0)).toBe(0x06054b50);
    expect(end.readUInt16LE(10)).toBe(12);
    expect(end.readUInt32LE(16)).toBe(0xffffffff);
  });

  it('refuses an entry of 4 GiB or more, naming it', () => {
    expect(() => checkEntrySize(entry({ size: 4 * GiB, streamed: true }))).toThrow(/txt\/a\.txt .*4 GiB/);
    expect(() => checkEntrySize(entry({ size: 4 * GiB - 2 }))).not.toThrow();
  });
});
