import { constants as fsConstants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { NameIndex } from './name-index';

/** An entry as the central directory lists it (PKWARE APPNOTE 4.3.12). */
export interface ListedEntry {
  /** Its place in the central directory, from 0. */
  index: number;
  /** 0 stored, 8 deflated; any other method cannot be read here. */
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's local header. */
  offset: number;
  /** An entry listed before it has the same name. */
  repeated: boolean;
}

/** An entry's local header (APPNOTE 4.3.7), and where its data starts. */
export interface LocalHeader {
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  dataStart: number;
}

/** The file is not a ZIP this reader can read; the message says why, in plain words. */
export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

/** The ZIP lists more entries than this reader holds (MAX_ENTRIES). */
export class ZipLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipLimitError';
  }
}

/** The path names something other than a regular file (a folder, a named pipe, a device), which is not read. */
export class NotAFileError extends Error {
  constructor(readonly what: string) {
    super(`it is ${what}, not a file`);
    this.name = 'NotAFileError';
  }
}

/**
 * The most entries a ZIP may list here: far above any corpus (100,000 videos in four formats make
 * 400,000), and small enough that their listing takes about 100 MB.
 */
export const MAX_ENTRIES = 1_000_000;

/** Two entries whose bytes overlap, or one that runs past where entries may be (`next` undefined). */
export interface SpanProblem {
  entry: ListedEntry;
  next: ListedEntry | undefined;
}

/** Told of each name the central directory lists, and of an earlier entry with the same name. */
export type NameVisitor = (index: number, name: Buffer, sameAs: number | undefined) => void;

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const CENTRAL_HEADER = 0x02014b50;
const CENTRAL_HEADER_BYTES = 46;
const LOCAL_HEADER = 0x04034b50;
const LOCAL_HEADER_BYTES = 30;
const ZIP64_EXTRA_FIELD = 0x0001;
const FLAG_ENCRYPTED = 0x0001;
const UINT16_MAX = 0xffff;
const UINT32_MAX = 0xffffffff;
/** The end record (22 bytes) follows the central directory, and at most a 65,535-byte comment follows it. */
const END_SEARCH_BYTES = 22 + UINT16_MAX;
/**
 * The directory and the entries are read through a window of this size, so that thousands of small
 * files cost one read. It holds a central header's three variable fields (at most 3 x 65,535 bytes).
 */
const WINDOW_BYTES = 1024 * 1024;
/** An entry at most this large once inflated, whose data fits the window, is inflated in one call. */
const WHOLE_ENTRY_BYTES = 8 * 1024 * 1024;
/** rawBytes() reads this much or less through the window. */
const SMALL_READ_BYTES = 64 * 1024;
/** Larger entries are read in pieces of this size and inflated as a stream. */
const PIECE_BYTES = 256 * 1024;

/**
 * Reads a ZIP's central directory (with its ZIP64 records) and then its entries, each inflated in
 * pieces no larger than the directory announces. Memory holds a compact listing (about 100 bytes an
 * entry, names kept as digests) and a window of the file, never an entry whole; a file that is not
 * a regular one is refused before it is opened for reading, so a named pipe cannot hold it up.
 */
export class ZipReader {
  readonly count: number;
  readonly fileSize: number;
  /** The sum of the entries' announced sizes: what reading them all would inflate. */
  readonly inflatedBytes: number;
  readonly #file: FileHandle;
  readonly #window: FileWindow;
  /** For reading the directory again (extraOf) while #window reads entries elsewhere in the file. */
  readonly #directoryWindow: FileWindow;
  readonly #listing: Listing;
  readonly #names: NameIndex;
  /** Entry indexes by offset: the order of their bytes in the file. */
  readonly #fileOrder: Uint32Array;
  /** Where the central directory starts: every entry's bytes end before it. */
  readonly #directoryOffset: number;

  private constructor(file: FileHandle, fileSize: number, directory: Directory) {
    this.#file = file;
    this.fileSize = fileSize;
    this.#window = directory.window;
    this.#directoryWindow = new FileWindow(file);
    this.#listing = directory.listing;
    this.#names = directory.names;
    this.count = directory.listing.count;
    this.inflatedBytes = directory.listing.inflatedBytes();
    this.#fileOrder = directory.listing.fileOrder();
    this.#directoryOffset = directory.offset;
  }

  /**
   * Opens a ZIP and reads its central directory, telling `visit` of each name. A path that is not a
   * regular file rejects with NotAFileError, a file system error (ENOENT, EACCES…) as such, a ZIP
   * this reader cannot read with ZipFormatError, one listing more than `maxEntries` (at most
   * MAX_ENTRIES) with ZipLimitError, before any entry is listed.
   */
  static async open(
    path: string,
    visit: NameVisitor = () => undefined,
    { maxEntries = MAX_ENTRIES }: { maxEntries?: number } = {},
  ): Promise<ZipReader> {
    refuseNonFile(await stat(path));
    // Non-blocking: should a named pipe take the file's place meanwhile, opening it returns at once.
    const file = await open(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    try {
      const stats = await file.stat();
      refuseNonFile(stats);
      const directory = await readDirectory(file, stats.size, visit, Math.min(maxEntries, MAX_ENTRIES));
      return new ZipReader(file, stats.size, directory);
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  entry(index: number): ListedEntry {
    return this.#listing.entry(index);
  }

  /** The (first) entry named `name`; undefined when the directory lists none. */
  find(name: string | Uint8Array): ListedEntry | undefined {
    const index = this.#names.find(name);
    return index === undefined ? undefined : this.entry(index);
  }

  /** Every entry, in the order of their bytes in the file, so that reading them all reads it forwards. */
  *inFileOrder(): Generator<ListedEntry> {
    for (const index of this.#fileOrder) yield this.entry(index);
  }

  /** The entry's name as the central directory stores it (read again from the file). */
  async nameOf(entry: ListedEntry): Promise<Buffer> {
    const at = this.#listing.headerOffsets[entry.index] ?? 0;
    const nameLength = (await this.#window.bytes(at + 28, 2)).readUInt16LE(0);
    return Buffer.from(await this.#window.bytes(at + CENTRAL_HEADER_BYTES, nameLength));
  }

  /**
   * Entries whose bytes overlap the next one's (a ZIP bomb reads the same bytes for many entries) or
   * run past where entries may be, judged by the shortest span each can have: its local header, its
   * name and its compressed data.
   */
  *spanProblems(): Generator<SpanProblem> {
    for (const [at, index] of this.#fileOrder.entries()) {
      const entry = this.entry(index);
      const next = this.#fileOrder[at + 1];
      const shortestEnd =
        entry.offset + LOCAL_HEADER_BYTES + (this.#listing.nameLengths[index] ?? 0) + entry.compressedSize;
      const nextStart = next === undefined ? Infinity : (this.#listing.offsets[next] ?? 0);
      if (shortestEnd <= Math.min(nextStart, this.#directoryOffset)) continue;
      yield { entry, next: shortestEnd > nextStart && next !== undefined ? this.entry(next) : undefined };
    }
  }

  /**
   * What `entry`'s local header says, once checked: it is there, names the file the central directory
   * does, and its data ends before the next entry and the directory. Rejects with ZipFormatError when
   * not. Its CRC and sizes are as written: zero in an entry whose data descriptor gives them.
   * `knownName`, the name `entry` was found by (find()), saves hashing the local header's name.
   */
  async localHeader(entry: ListedEntry, knownName?: Uint8Array): Promise<LocalHeader> {
    const header = await this.#window.bytes(entry.offset, LOCAL_HEADER_BYTES);
    if (header.length < LOCAL_HEADER_BYTES || header.readUInt32LE(0) !== LOCAL_HEADER) {
      throw new ZipFormatError('its local header is missing');
    }
    const fields = {
      flags: header.readUInt16LE(6),
      method: header.readUInt16LE(8),
      crc: header.readUInt32LE(14),
      compressedSize: header.readUInt32LE(18),
      size: header.readUInt32LE(22),
    };
    const nameLength = header.readUInt16LE(26);
    const extraLength = header.readUInt16LE(28);
    const name = await this.#window.bytes(entry.offset + LOCAL_HEADER_BYTES, nameLength);
    const sameName = knownName !== undefined ? name.equals(knownName) : this.#names.is(entry.index, name);
    if (!sameName) throw new ZipFormatError('its local header names another file than the central directory');
    const dataStart = entry.offset + LOCAL_HEADER_BYTES + nameLength + extraLength;
    if (dataStart + entry.compressedSize > this.#limitOf(entry)) {
      throw new ZipFormatError('its data runs into the next entry, or past the end of the file');
    }
    return { ...fields, dataStart };
  }

  /** The extra fields the central directory gives `entry` (read again from the file, through a window of their own). */
  async extraOf(entry: ListedEntry): Promise<Buffer> {
    const at = this.#listing.headerOffsets[entry.index] ?? 0;
    const lengths = await this.#directoryWindow.bytes(at + 28, 4);
    const nameLength = lengths.readUInt16LE(0);
    const extraLength = lengths.readUInt16LE(2);
    return Buffer.from(
      await this.#directoryWindow.bytes(at + CENTRAL_HEADER_BYTES + nameLength, extraLength),
    );
  }

  /**
   * The file's bytes from `position` on, `length` of them at most (fewer at its end), in a buffer of
   * their own: a small read goes through the entries' window, so that neighbouring entries cost one
   * read of the file; a larger one is read by itself, leaving the window where it was.
   */
  async rawBytes(position: number, length: number): Promise<Buffer> {
    if (length <= SMALL_READ_BYTES) return Buffer.from(await this.#window.bytes(position, length));
    return readAt(this.#file, position, length);
  }

  /** The file's bytes from `start` on, `length` of them, in pieces of PIECE_BYTES at most. */
  async *rawPieces(start: number, length: number): AsyncGenerator<Buffer> {
    for (let at = start; at < start + length; at += PIECE_BYTES) {
      const piece = await readAt(this.#file, at, Math.min(PIECE_BYTES, start + length - at));
      if (piece.length === 0) return;
      yield piece;
    }
  }

  /**
   * Hands `entry`'s bytes, decompressed, to `consume` piece by piece; a piece is only valid during the
   * call. Rejects with ZipFormatError when its data cannot be read: a broken local header or one naming
   * another file, data running into the next entry, data that does not inflate, or more or fewer
   * bytes than the directory announces. Checking the CRC is left to the caller.
   */
  async read(entry: ListedEntry, consume: (piece: Buffer) => void): Promise<void> {
    if ((entry.flags & FLAG_ENCRYPTED) !== 0) throw new ZipFormatError('it is encrypted');
    if (entry.method !== 0 && entry.method !== 8) {
      throw new ZipFormatError(`it uses compression method ${entry.method}, which this reader cannot read`);
    }
    const { dataStart } = await this.localHeader(entry);
    if (entry.method === 0 && entry.size !== entry.compressedSize) {
      throw new ZipFormatError('it is stored uncompressed, yet its two sizes differ');
    }
    if (entry.compressedSize <= WINDOW_BYTES && entry.size <= WHOLE_ENTRY_BYTES) {
      consume(inflateWhole(entry, await this.#window.bytes(dataStart, entry.compressedSize)));
    } else {
      await this.#inflatePieces(entry, dataStart, consume);
    }
  }

  async close(): Promise<void> {
    await this.#file.close();
  }

  /** Where `entry`'s bytes must end: where the next entry in the file starts, and never past the directory. */
  #limitOf(entry: ListedEntry): number {
    // The first entry in file order that starts after this one, by binary search.
    let low = 0;
    let high = this.#fileOrder.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#listing.offsets[this.#fileOrder[middle] ?? 0] ?? 0) <= entry.offset) low = middle + 1;
      else high = middle;
    }
    const next = this.#fileOrder[low];
    return next === undefined
      ? this.#directoryOffset
      : Math.min(this.#listing.offsets[next] ?? 0, this.#directoryOffset);
  }

  async #inflatePieces(
    entry: ListedEntry,
    dataStart: number,
    consume: (piece: Buffer) => void,
  ): Promise<void> {
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
    const source = Readable.from(this.rawPieces(dataStart, entry.compressedSize));
    try {
      if (entry.method === 0) await pipeline(source, sink);
      else await pipeline(source, createInflateRaw(), sink);
    } catch (error) {
      throw asFormatError(error);
    }
    if (produced !== entry.size) throw new ZipFormatError('it holds fewer bytes than the directory says');
  }
}

/** A small entry's bytes, inflated in one call that stops at the size the directory announces. */
function inflateWhole(entry: ListedEntry, data: Buffer): Buffer {
  if (data.length < entry.compressedSize) throw new ZipFormatError('its data runs past the end of the file');
  if (entry.method === 0) return data;
  let inflated: Buffer;
  try {
    // One byte more than announced is enough to tell that it holds more.
    inflated = inflateRawSync(data, {
      maxOutputLength: entry.size + 1,
      chunkSize: Math.max(64, entry.size + 1),
    });
  } catch (error) {
    throw asFormatError(error);
  }
  if (inflated.length > entry.size) throw new ZipFormatError('it holds more bytes than the directory says');
  if (inflated.length < entry.size) throw new ZipFormatError('it holds fewer bytes than the directory says');
  return inflated;
}

function asFormatError(error: unknown): ZipFormatError {
  if (error instanceof ZipFormatError) return error;
  if (error instanceof RangeError) return new ZipFormatError('it holds more bytes than the directory says');
  const reason = error instanceof Error ? error.message : String(error);
  return new ZipFormatError(`its data cannot be decompressed (${reason})`);
}

function refuseNonFile(stats: Stats): void {
  if (stats.isFile()) return;
  if (stats.isDirectory()) throw new NotAFileError('a folder');
  if (stats.isFIFO()) throw new NotAFileError('a named pipe');
  if (stats.isSocket()) throw new NotAFileError('a socket');
  if (stats.isCharacterDevice() || stats.isBlockDevice()) throw new NotAFileError('a device');
  throw new NotAFileError('something other than a regular file');
}

/** Reads a file through a window of WINDOW_BYTES, so that many small records cost one read. */
class FileWindow {
  readonly #file: FileHandle;
  readonly #buffer = Buffer.allocUnsafe(WINDOW_BYTES);
  #start = 0;
  #length = 0;

  constructor(file: FileHandle) {
    this.#file = file;
  }

  /** The `length` bytes at `position` (fewer at the end of the file), valid until the next call. */
  async bytes(position: number, length: number): Promise<Buffer> {
    if (length > WINDOW_BYTES) throw new Error(`a read of ${length} bytes does not fit the window`);
    if (position < this.#start || position + length > this.#start + this.#length) {
      this.#start = position;
      this.#length = (await readInto(this.#file, this.#buffer, position)).length;
    }
    const from = position - this.#start;
    return this.#buffer.subarray(from, Math.min(from + length, this.#length));
  }
}

async function readInto(file: FileHandle, buffer: Buffer, position: number): Promise<Buffer> {
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  return readInto(file, Buffer.alloc(length), position);
}

/** The central directory's fields, one typed array each: no object per entry. */
class Listing {
  readonly count: number;
  readonly headerOffsets: Float64Array;
  readonly offsets: Float64Array;
  readonly compressedSizes: Float64Array;
  readonly sizes: Float64Array;
  readonly crcs: Uint32Array;
  readonly methods: Uint16Array;
  readonly flags: Uint16Array;
  readonly nameLengths: Uint16Array;
  /** 1 for an entry whose name an earlier one has. */
  readonly repeats: Uint8Array;

  constructor(count: number) {
    this.count = count;
    this.headerOffsets = new Float64Array(count);
    this.offsets = new Float64Array(count);
    this.compressedSizes = new Float64Array(count);
    this.sizes = new Float64Array(count);
    this.crcs = new Uint32Array(count);
    this.methods = new Uint16Array(count);
    this.flags = new Uint16Array(count);
    this.nameLengths = new Uint16Array(count);
    this.repeats = new Uint8Array(count);
  }

  entry(index: number): ListedEntry {
    return {
      index,
      method: this.methods[index] ?? 0,
      flags: this.flags[index] ?? 0,
      crc: this.crcs[index] ?? 0,
      compressedSize: this.compressedSizes[index] ?? 0,
      size: this.sizes[index] ?? 0,
      offset: this.offsets[index] ?? 0,
      repeated: this.repeats[index] === 1,
    };
  }

  inflatedBytes(): number {
    return this.sizes.reduce((sum, size) => sum + size, 0);
  }

  fileOrder(): Uint32Array {
    const order = new Uint32Array(this.count).map((_, index) => index);
    return order.sort((a, b) => (this.offsets[a] ?? 0) - (this.offsets[b] ?? 0) || a - b);
  }
}

/** What reading the central directory gives. */
interface Directory {
  listing: Listing;
  names: NameIndex;
  window: FileWindow;
  /** Where the central directory starts: entries must end before it. */
  offset: number;
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

/** Reads the central directory a window at a time into a Listing, its names into a NameIndex. */
async function readDirectory(
  file: FileHandle,
  fileSize: number,
  visit: NameVisitor,
  maxEntries: number,
): Promise<Directory> {
  const place = await findDirectory(file, fileSize);
  if (place.offset + place.size > fileSize)
    throw new ZipFormatError('its central directory runs past the end of the file');
  if (place.entries > maxEntries) {
    throw new ZipLimitError(
      `it lists ${place.entries.toLocaleString('en-US')} files, more than the ` +
        `${maxEntries.toLocaleString('en-US')} a corpus may hold`,
    );
  }
  if (place.entries * CENTRAL_HEADER_BYTES > place.size)
    throw new ZipFormatError('its central directory is damaged');
  const window = new FileWindow(file);
  const listing = new Listing(place.entries);
  const names = new NameIndex(place.entries);
  const end = place.offset + place.size;
  let at = place.offset;
  for (let index = 0; index < place.entries; index++) {
    const header = await window.bytes(at, CENTRAL_HEADER_BYTES);
    if (header.length < CENTRAL_HEADER_BYTES || header.readUInt32LE(0) !== CENTRAL_HEADER) {
      throw new ZipFormatError('its central directory is damaged');
    }
    const nameLength = header.readUInt16LE(28);
    const extraLength = header.readUInt16LE(30);
    const commentLength = header.readUInt16LE(32);
    listing.headerOffsets[index] = at;
    listing.flags[index] = header.readUInt16LE(8);
    listing.methods[index] = header.readUInt16LE(10);
    listing.crcs[index] = header.readUInt32LE(16);
    listing.compressedSizes[index] = header.readUInt32LE(20);
    listing.sizes[index] = header.readUInt32LE(24);
    listing.offsets[index] = header.readUInt32LE(42);
    listing.nameLengths[index] = nameLength;
    const fieldsEnd = at + CENTRAL_HEADER_BYTES + nameLength + extraLength + commentLength;
    if (fieldsEnd > end) throw new ZipFormatError('its central directory is damaged');
    const fields = await window.bytes(at + CENTRAL_HEADER_BYTES, nameLength + extraLength);
    const name = fields.subarray(0, nameLength);
    const sameAs = names.add(index, name);
    if (sameAs !== undefined) listing.repeats[index] = 1;
    visit(index, name, sameAs);
    applyZip64Extra(listing, index, fields.subarray(nameLength));
    at = fieldsEnd;
  }
  return { listing, names, window, offset: place.offset };
}

/**
 * The ZIP64 extra field holds, in this order, each of size, compressed size and offset whose 32-bit
 * field is 0xffffffff (APPNOTE 4.5.3).
 */
function applyZip64Extra(listing: Listing, index: number, extra: Buffer): void {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === ZIP64_EXTRA_FIELD) {
      let field = at + 4;
      const next = (): number => {
        if (field + 8 > at + 4 + length || field + 8 > extra.length)
          throw new ZipFormatError('the ZIP64 field of an entry is too short');
        const value = Number(extra.readBigUInt64LE(field));
        field += 8;
        return value;
      };
      if (listing.sizes[index] === UINT32_MAX) listing.sizes[index] = next();
      if (listing.compressedSizes[index] === UINT32_MAX) listing.compressedSizes[index] = next();
      if (listing.offsets[index] === UINT32_MAX) listing.offsets[index] = next();
      return;
    }
    at += 4 + length;
  }
}
