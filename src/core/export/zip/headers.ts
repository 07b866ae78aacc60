import {
  CENTRAL_HEADER,
  DATA_DESCRIPTOR,
  END_OF_CENTRAL_DIRECTORY,
  FLAG_DATA_DESCRIPTOR,
  LOCAL_HEADER,
  METHOD_DEFLATE,
  UINT16_MAX,
  UINT32_MAX,
  ZIP64_END_LOCATOR,
  ZIP64_END_OF_CENTRAL_DIRECTORY,
  ZIP64_EXTRA_FIELD,
} from './appnote';

/**
 * The byte records of a ZIP file (PKWARE APPNOTE 6.3.x): local headers, data descriptors, the central
 * directory and its end, with the ZIP64 records that a corpus of more than 65,534 files, or of more
 * than 4 GiB, needs.
 */

/** What the records say about one entry. */
export interface ZipEntry {
  /** The path inside the ZIP, as UTF-8. */
  name: Buffer;
  crc: number;
  /** Bytes before compression. */
  size: number;
  compressedSize: number;
  /** Offset of the entry's local header from the start of the ZIP. */
  offset: number;
  /** Written before its size and CRC were known: they follow the data, in a data descriptor. */
  streamed: boolean;
  /** Extra fields for its central directory header, after the ZIP64 one if any. */
  extra?: Buffer;
}

/** Bit 11: the name is UTF-8. */
const FLAG_UTF8 = 0x0800;
/** 2.0 reads deflate; 4.5 is needed for ZIP64 fields. */
const VERSION_DEFLATE = 20;
const VERSION_ZIP64 = 45;
/** Made on Unix (so that readers apply the file mode), following version 4.5 of the specification. */
const VERSION_MADE_BY = (3 << 8) | VERSION_ZIP64;
/** Every entry is dated 1980-01-01 00:00:00 (the first DOS date), so exports of the same job are byte-identical. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
/** A regular file, rw-r--r--, whatever the umask of the machine that exported. */
const EXTERNAL_ATTRIBUTES = (0o100644 << 16) >>> 0;

/** Entries whose size needs ZIP64 fields are not written (a streamed one cannot announce them ahead). */
export function checkEntrySize(entry: ZipEntry): void {
  if (entry.size >= UINT32_MAX || entry.compressedSize >= UINT32_MAX) {
    throw new Error(`${entry.name.toString('utf8')} is larger than the 4 GiB a ZIP entry can hold`);
  }
}

export function localHeader(entry: ZipEntry): Buffer {
  const header = Buffer.alloc(30 + entry.name.length);
  header.writeUInt32LE(LOCAL_HEADER, 0);
  header.writeUInt16LE(VERSION_DEFLATE, 4);
  header.writeUInt16LE(flagsOf(entry), 6);
  header.writeUInt16LE(METHOD_DEFLATE, 8);
  header.writeUInt16LE(DOS_TIME, 10);
  header.writeUInt16LE(DOS_DATE, 12);
  // A streamed entry leaves CRC and sizes at zero here.
  if (!entry.streamed) {
    header.writeUInt32LE(entry.crc, 14);
    header.writeUInt32LE(entry.compressedSize, 18);
    header.writeUInt32LE(entry.size, 22);
  }
  header.writeUInt16LE(entry.name.length, 26);
  header.writeUInt16LE(0, 28);
  entry.name.copy(header, 30);
  return header;
}

/** Follows a streamed entry's data with its CRC and sizes. */
export function dataDescriptor(entry: ZipEntry): Buffer {
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0);
  descriptor.writeUInt32LE(entry.crc, 4);
  descriptor.writeUInt32LE(entry.compressedSize, 8);
  descriptor.writeUInt32LE(entry.size, 12);
  return descriptor;
}

export function centralHeader(entry: ZipEntry): Buffer {
  // Past 4 GiB the offset moves to a ZIP64 extra field.
  const zip64 = entry.offset >= UINT32_MAX;
  const zip64Extra = zip64 ? 12 : 0;
  const extra = zip64Extra + (entry.extra?.length ?? 0);
  const header = Buffer.alloc(46 + entry.name.length + extra);
  header.writeUInt32LE(CENTRAL_HEADER, 0);
  header.writeUInt16LE(VERSION_MADE_BY, 4);
  header.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_DEFLATE, 6);
  header.writeUInt16LE(flagsOf(entry), 8);
  header.writeUInt16LE(METHOD_DEFLATE, 10);
  header.writeUInt16LE(DOS_TIME, 12);
  header.writeUInt16LE(DOS_DATE, 14);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.compressedSize, 20);
  header.writeUInt32LE(entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt16LE(extra, 30);
  // Comment length, disk number and internal attributes stay zero.
  header.writeUInt32LE(EXTERNAL_ATTRIBUTES, 38);
  header.writeUInt32LE(zip64 ? UINT32_MAX : entry.offset, 42);
  entry.name.copy(header, 46);
  if (zip64) {
    const at = 46 + entry.name.length;
    header.writeUInt16LE(ZIP64_EXTRA_FIELD, at);
    header.writeUInt16LE(8, at + 2);
    header.writeBigUInt64LE(BigInt(entry.offset), at + 4);
  }
  entry.extra?.copy(header, 46 + entry.name.length + zip64Extra);
  return header;
}

/**
 * The records after the central directory: the end of central directory, preceded by its ZIP64
 * version and locator when the count, size or offset does not fit the classic fields. The end record
 * announces a comment of `commentLength` bytes, which the caller appends after it.
 */
export function endOfCentralDirectory(
  entries: number,
  directoryOffset: number,
  directorySize: number,
  commentLength = 0,
): Buffer {
  const zip64 = entries >= UINT16_MAX || directoryOffset >= UINT32_MAX || directorySize >= UINT32_MAX;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  // Disk numbers stay zero.
  end.writeUInt16LE(Math.min(entries, UINT16_MAX), 8);
  end.writeUInt16LE(Math.min(entries, UINT16_MAX), 10);
  end.writeUInt32LE(Math.min(directorySize, UINT32_MAX), 12);
  end.writeUInt32LE(Math.min(directoryOffset, UINT32_MAX), 16);
  end.writeUInt16LE(commentLength, 20);
  if (!zip64) return end;

  const record = Buffer.alloc(56);
  record.writeUInt32LE(ZIP64_END_OF_CENTRAL_DIRECTORY, 0);
  record.writeBigUInt64LE(BigInt(record.length - 12), 4);
  record.writeUInt16LE(VERSION_MADE_BY, 12);
  record.writeUInt16LE(VERSION_ZIP64, 14);
  record.writeBigUInt64LE(BigInt(entries), 24);
  record.writeBigUInt64LE(BigInt(entries), 32);
  record.writeBigUInt64LE(BigInt(directorySize), 40);
  record.writeBigUInt64LE(BigInt(directoryOffset), 48);

  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(ZIP64_END_LOCATOR, 0);
  locator.writeBigUInt64LE(BigInt(directoryOffset + directorySize), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
}

function flagsOf(entry: ZipEntry): number {
  return FLAG_UTF8 | (entry.streamed ? FLAG_DATA_DESCRIPTOR : 0);
}
