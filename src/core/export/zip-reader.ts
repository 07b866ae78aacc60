import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';

/** An entry as the central directory lists it (PKWARE APPNOTE 4.3.12). */
export interface ListedEntry {
  name: string;
  /** 0 stored, 8 deflated; any other method cannot be read here. */
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's local header. */
  offset: number;
}

/** The file is not a ZIP this reader can read; the message says why, in plain words. */
export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA_FIELD = 0x0001;
const FLAG_ENCRYPTED = 0x0001;
const UINT16_MAX = 0xffff;
const UINT32_MAX = 0xffffffff;
/** The end record (22 bytes) follows the central directory, and at most a 65,535-byte comment follows it. */
const END_SEARCH_BYTES = 22 + UINT16_MAX;
/** Entries are read in pieces of this size. */
const READ_BYTES = 256 * 1024;

/**
 * Reads a ZIP's central directory (with its ZIP64 records) and then its entries one at a time, each
 * inflated as a stream in pieces: memory holds the directory's listing, never an entry whole.
 */
export class ZipReader {
  readonly entries: readonly ListedEntry[];
  readonly #file: FileHandle;
  readonly #fileSize: number;

  private constructor(file: FileHandle, fileSize: number, entries: ListedEntry[]) {
    this.#file = file;
    this.#fileSize = fileSize;
    this.entries = entries;
  }

  /** Opens a ZIP; a file system error (ENOENT, EACCES…) rejects as such, an unreadable ZIP as ZipFormatError. */
  static async open(path: string): Promise<ZipReader> {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      return new ZipReader(file, size, await readDirectory(file, size));
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  /**
   * Hands `entry`'s bytes, decompressed, to `consume` piece by piece. Rejects with ZipFormatError when
   * its data cannot be read: a broken local header, data that does not inflate, or more or fewer
   * bytes than the directory announces. Checking the CRC is left to the caller.
   */
  async read(entry: ListedEntry, consume: (piece: Buffer) => void): Promise<void> {
    if ((entry.flags & FLAG_ENCRYPTED) !== 0) throw new ZipFormatError('it is encrypted');
    if (entry.method !== 0 && entry.method !== 8) {
      throw new ZipFormatError(`it uses compression method ${entry.method}, which this reader cannot read`);
    }
    const header = await this.#bytes(entry.offset, 30);
    if (header.length < 30 || header.readUInt32LE(0) !== LOCAL_HEADER) {
      throw new ZipFormatError('its local header is missing');
    }
    const dataStart = entry.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    if (dataStart + entry.compressedSize > this.#fileSize)
      throw new ZipFormatError('its data runs past the end of the file');
    let produced = 0;
    const sink = new Writable({
      write(piece: Buffer, _encoding, done) {
        produced += piece.length;
        if (produced > entry.size) {
          done(new ZipFormatError('it holds more bytes than the directory says'));
          return;
        }
        consume(piece);
        done();
      },
    });
    const source = Readable.from(this.#range(dataStart, entry.compressedSize));
    try {
      if (entry.method === 0) await pipeline(source, sink);
      else await pipeline(source, createInflateRaw(), sink);
    } catch (error) {
      if (error instanceof ZipFormatError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ZipFormatError(`its data cannot be decompressed (${reason})`);
    }
    if (produced !== entry.size) throw new ZipFormatError('it holds fewer bytes than the directory says');
  }

  async close(): Promise<void> {
    await this.#file.close();
  }

  async *#range(start: number, length: number): AsyncGenerator<Buffer> {
    for (let at = start; at < start + length; at += READ_BYTES) {
      const piece = await this.#bytes(at, Math.min(READ_BYTES, start + length - at));
      if (piece.length === 0) return;
      yield piece;
    }
  }

  #bytes(position: number, length: number): Promise<Buffer> {
    return readAt(this.#file, position, length);
  }
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await file.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** Where the central directory is and how many entries it lists, from the end records. */
interface DirectoryPlace {
  entries: number;
  offset: number;
  size: number;
}

async function findDirectory(file: FileHandle, fileSize: number): Promise<DirectoryPlace> {
  const tailStart = Math.max(0, fileSize - END_SEARCH_BYTES);
  const tail = await readAt(file, tailStart, fileSize - tailStart);
  let at = tail.length - 22;
  while (at >= 0 && tail.readUInt32LE(at) !== END_OF_CENTRAL_DIRECTORY) at -= 1;
  if (at < 0)
    throw new ZipFormatError(
      'it has no end of central directory record: it is not a ZIP, or it was cut short',
    );
  const place = {
    entries: tail.readUInt16LE(at + 10),
    size: tail.readUInt32LE(at + 12),
    offset: tail.readUInt32LE(at + 16),
  };
  const endOffset = tailStart + at;
  const usesZip64 = place.entries === UINT16_MAX || place.size === UINT32_MAX || place.offset === UINT32_MAX;
  if (!usesZip64 || endOffset < 20) return place;
  const locator = await readAt(file, endOffset - 20, 20);
  if (locator.readUInt32LE(0) !== ZIP64_END_LOCATOR) return place;
  const record = await readAt(file, Number(locator.readBigUInt64LE(8)), 56);
  if (record.length < 56 || record.readUInt32LE(0) !== ZIP64_END_OF_CENTRAL_DIRECTORY) {
    throw new ZipFormatError('its ZIP64 end record is missing');
  }
  return {
    entries: Number(record.readBigUInt64LE(32)),
    size: Number(record.readBigUInt64LE(40)),
    offset: Number(record.readBigUInt64LE(48)),
  };
}

async function readDirectory(file: FileHandle, fileSize: number): Promise<ListedEntry[]> {
  const place = await findDirectory(file, fileSize);
  if (place.offset + place.size > fileSize)
    throw new ZipFormatError('its central directory runs past the end of the file');
  const directory = await readAt(file, place.offset, place.size);
  const entries: ListedEntry[] = [];
  let at = 0;
  for (let index = 0; index < place.entries; index++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_HEADER) {
      throw new ZipFormatError('its central directory is damaged');
    }
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const nameEnd = at + 46 + nameLength;
    if (nameEnd + extraLength + commentLength > directory.length)
      throw new ZipFormatError('its central directory is damaged');
    const entry: ListedEntry = {
      name: directory.toString('utf8', at + 46, nameEnd),
      flags: directory.readUInt16LE(at + 8),
      method: directory.readUInt16LE(at + 10),
      crc: directory.readUInt32LE(at + 16),
      compressedSize: directory.readUInt32LE(at + 20),
      size: directory.readUInt32LE(at + 24),
      offset: directory.readUInt32LE(at + 42),
    };
    applyZip64Extra(entry, directory.subarray(nameEnd, nameEnd + extraLength));
    entries.push(entry);
    at = nameEnd + extraLength + commentLength;
  }
  return entries;
}

/**
 * The ZIP64 extra field holds, in this order, each of size, compressed size and offset whose 32-bit
 * field is 0xffffffff (APPNOTE 4.5.3).
 */
function applyZip64Extra(entry: ListedEntry, extra: Buffer): void {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === ZIP64_EXTRA_FIELD) {
      let field = at + 4;
      const next = (): number => {
        if (field + 8 > at + 4 + length)
          throw new ZipFormatError(`the ZIP64 field of ${entry.name} is too short`);
        const value = Number(extra.readBigUInt64LE(field));
        field += 8;
        return value;
      };
      if (entry.size === UINT32_MAX) entry.size = next();
      if (entry.compressedSize === UINT32_MAX) entry.compressedSize = next();
      if (entry.offset === UINT32_MAX) entry.offset = next();
      return;
    }
    at += 4 + length;
  }
}
