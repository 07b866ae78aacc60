import { readSync } from 'node:fs';
import Bunzip from 'seek-bzip';
import { decompress as lzmaDecompress } from 'lzma1';
import { UnreadableMethodError, ZipFormatError } from './read-errors';

/**
 * The compression methods other tools write besides stored and deflated (APPNOTE 4.4.5), for reading a
 * corpus zipped again (`zip -Z bzip2`, Python's ZIP_BZIP2 and ZIP_LZMA, 7-Zip): bzip2 with seek-bzip
 * and LZMA with lzma1, both plain JavaScript; the others are named, so that a reader can say which
 * one it cannot read.
 */
export const METHOD_BZIP2 = 12;
export const METHOD_LZMA = 14;

const METHOD_NAMES: Readonly<Record<number, string>> = {
  1: 'Shrink',
  6: 'Implode',
  9: 'Deflate64',
  [METHOD_BZIP2]: 'bzip2',
  [METHOD_LZMA]: 'LZMA',
  93: 'Zstandard',
  95: 'xz',
  98: 'PPMd',
};

/** A method as a person reads it: "Deflate64", "method 77". */
export function methodName(method: number): string {
  return METHOD_NAMES[method] ?? `method ${method}`;
}

/** Where an entry's compressed bytes are: a file read by its descriptor, from `start`, `length` of them. */
export interface CompressedData {
  fd: number;
  start: number;
  length: number;
}

/**
 * Bytes are handed on in pieces of this size. Both decoders work synchronously, a piece of the
 * file read at a time (bzip2) or the entry whole (LZMA).
 */
const PIECE_BYTES = 64 * 1024;

/**
 * The most an LZMA entry may hold to be read: lzma1 reads an entry whole, so a larger one would take
 * more memory than verify may (docs/product.md, "Checking a corpus"). Such an entry is one verify
 * cannot read, never a damaged one.
 */
export const LARGEST_LZMA_ENTRY = 64 * 1024 * 1024;

/**
 * Hands the `size` bytes a bzip2 entry unpacks to, piece by piece, to `consume`; rejects with
 * ZipFormatError when its data does not unpack to exactly that many (a bzip2 bomb stops at the first
 * byte past them).
 */
export function readBzip2(data: CompressedData, size: number, consume: (piece: Buffer) => void): void {
  const output = new PieceOutput(size, consume);
  try {
    Bunzip.decode(new FileInput(data), output);
  } catch (error) {
    throw asFormatError(error);
  }
  output.end();
}

/**
 * Hands the `size` bytes an LZMA entry unpacks to, whole, to `consume`. ZIP's LZMA data starts with
 * the version of the LZMA SDK (2 bytes) and the size of the properties (2 bytes), then the
 * properties (5 bytes): lzma1 reads them in the ".lzma" header, which gives the size unpacked, so it
 * stops there. An entry past LARGEST_LZMA_ENTRY is refused with UnreadableMethodError.
 */
export function readLzma(data: CompressedData, size: number, consume: (piece: Buffer) => void): void {
  if (size > LARGEST_LZMA_ENTRY || data.length > LARGEST_LZMA_ENTRY) {
    throw new UnreadableMethodError(
      `LZMA, in a file of more than ${LARGEST_LZMA_ENTRY / 2 ** 20} MiB, which verify does not unpack in memory`,
    );
  }
  const bytes = Buffer.alloc(data.length);
  if (readSync(data.fd, bytes, 0, data.length, data.start) < data.length) {
    throw new ZipFormatError('its data runs past the end of the file');
  }
  const propertiesSize = bytes.length >= 4 ? bytes.readUInt16LE(2) : 0;
  if (propertiesSize !== 5 || bytes.length < 9) throw new ZipFormatError('its LZMA properties are missing');
  const header = Buffer.alloc(13);
  bytes.copy(header, 0, 4, 5);
  // The dictionary need hold no more than the entry (its size is what the decoder allocates).
  header.writeUInt32LE(Math.min(bytes.readUInt32LE(5), Math.max(size, 4096)), 1);
  header.writeUInt32LE(size % 2 ** 32, 5);
  header.writeUInt32LE(Math.floor(size / 2 ** 32), 9);
  let unpacked: Uint8Array;
  try {
    unpacked = lzmaDecompress(Buffer.concat([header, bytes.subarray(9)]));
  } catch (error) {
    throw asFormatError(error);
  }
  if (unpacked.length > size) throw new ZipFormatError('it holds more bytes than the directory says');
  if (unpacked.length < size) throw new ZipFormatError('it holds fewer bytes than the directory says');
  for (let at = 0; at < unpacked.length; at += PIECE_BYTES) {
    consume(
      Buffer.from(unpacked.buffer, unpacked.byteOffset + at, Math.min(PIECE_BYTES, unpacked.length - at)),
    );
  }
}

/** The compressed bytes, read from the file a piece at a time, byte by byte as seek-bzip asks. */
class FileInput {
  readonly #data: CompressedData;
  readonly #piece = Buffer.alloc(PIECE_BYTES);
  #pieceStart = 0;
  #pieceLength = 0;
  #at = 0;

  constructor(data: CompressedData) {
    this.#data = data;
  }

  readByte(): number {
    if (this.#at >= this.#data.length) throw new ZipFormatError('its data ends too soon');
    if (this.#at >= this.#pieceStart + this.#pieceLength) {
      this.#pieceStart = this.#at;
      const wanted = Math.min(PIECE_BYTES, this.#data.length - this.#at);
      this.#pieceLength = readSync(this.#data.fd, this.#piece, 0, wanted, this.#data.start + this.#at);
      if (this.#pieceLength === 0) throw new ZipFormatError('its data runs past the end of the file');
    }
    const byte = this.#piece[this.#at - this.#pieceStart] ?? 0;
    this.#at += 1;
    return byte;
  }

  /** `length` bytes into `buffer` at `offset`, as seek-bzip reads a stream's header; how many were read. */
  read(buffer: Uint8Array, offset: number, length: number): number {
    for (let i = 0; i < length; i++) {
      if (this.eof()) return i;
      buffer[offset + i] = this.readByte();
    }
    return length;
  }

  eof(): boolean {
    return this.#at >= this.#data.length;
  }
}

/** The unpacked bytes as seek-bzip writes them, byte by byte, handed on a piece at a time. */
class PieceOutput {
  readonly #size: number;
  readonly #consume: (piece: Buffer) => void;
  readonly #piece = Buffer.alloc(PIECE_BYTES);
  #filled = 0;
  #written = 0;

  constructor(size: number, consume: (piece: Buffer) => void) {
    this.#size = size;
    this.#consume = consume;
  }

  writeByte(byte: number): void {
    if (this.#written === this.#size) throw new ZipFormatError('it holds more bytes than the directory says');
    this.#written += 1;
    this.#piece[this.#filled++] = byte;
    if (this.#filled === PIECE_BYTES) this.#flush();
  }

  end(): void {
    this.#flush();
    if (this.#written < this.#size) throw new ZipFormatError('it holds fewer bytes than the directory says');
  }

  #flush(): void {
    if (this.#filled > 0) this.#consume(this.#piece.subarray(0, this.#filled));
    this.#filled = 0;
  }
}

function asFormatError(error: unknown): Error {
  if (error instanceof ZipFormatError || error instanceof UnreadableMethodError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ZipFormatError(`its data cannot be decompressed (${reason})`);
}
