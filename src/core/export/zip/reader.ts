import { constants as fsConstants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { MAX_ENTRIES, readDirectory } from './central-directory';
import type { Directory, ListedEntry, Listing, NameVisitor } from './central-directory';
import { FileWindow, readAt, WINDOW_BYTES } from './file-window';
import type { NameIndex } from './name-index';
import { NotAFileError, UnreadableMethodError, ZipFormatError } from './read-errors';
import { METHOD_BZIP2, METHOD_LZMA, methodName, readBzip2, readLzma } from './other-methods';
import { CENTRAL_HEADER_BYTES, FLAG_ENCRYPTED, LOCAL_HEADER, LOCAL_HEADER_BYTES } from './appnote';

/** An entry's local header (APPNOTE 4.3.7), and where its data starts. */
export interface LocalHeader {
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  dataStart: number;
}

/** Two entries whose bytes overlap, or one that runs past where entries may be (`next` undefined). */
export interface SpanProblem {
  entry: ListedEntry;
  next: ListedEntry | undefined;
}

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
   * call. Stored and deflated entries are read, and those other tools compress with bzip2 or LZMA
   * (zip/other-methods.ts). Rejects with ZipFormatError when its data cannot be read: a broken local
   * header or one naming another file, data running into the next entry, data that does not
   * decompress, or more or fewer bytes than the directory announces; with UnreadableMethodError when
   * it is compressed another way. Checking the CRC is left to the caller.
   */
  async read(entry: ListedEntry, consume: (piece: Buffer) => void): Promise<void> {
    if ((entry.flags & FLAG_ENCRYPTED) !== 0) throw new ZipFormatError('it is encrypted');
    const known = entry.method === 0 || entry.method === 8;
    if (!known && entry.method !== METHOD_BZIP2 && entry.method !== METHOD_LZMA) {
      throw new UnreadableMethodError(methodName(entry.method));
    }
    const { dataStart } = await this.localHeader(entry);
    if (!known) {
      const data = { fd: this.#file.fd, start: dataStart, length: entry.compressedSize };
      if (entry.method === METHOD_BZIP2) readBzip2(data, entry.size, consume);
      else readLzma(data, entry.size, consume);
      return;
    }
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
