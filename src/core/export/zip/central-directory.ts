import type { FileHandle } from 'node:fs/promises';
import { FileWindow, readAt } from './file-window';
import { NameIndex } from './name-index';
import { ZipFormatError, ZipLimitError } from './read-errors';
import {
  CENTRAL_HEADER,
  CENTRAL_HEADER_BYTES,
  END_OF_CENTRAL_DIRECTORY,
  END_RECORD_BYTES,
  UINT16_MAX,
  UINT32_MAX,
  ZIP64_END_LOCATOR,
  ZIP64_END_OF_CENTRAL_DIRECTORY,
  ZIP64_EXTRA_FIELD,
} from './appnote';

/*
 * A ZIP's central directory (PKWARE APPNOTE 4.3.12, 4.3.14-16), read from its end records into a
 * compact listing: one typed array a field, names kept as digests (name-index.ts).
 */

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

/**
 * The most entries a ZIP may list here: far above any corpus (100,000 videos in four formats make
 * 400,000), and small enough that their listing takes about 100 MB.
 */
export const MAX_ENTRIES = 1_000_000;

/** Told of each name the central directory lists, and of an earlier entry with the same name. */
export type NameVisitor = (index: number, name: Buffer, sameAs: number | undefined) => void;

/** The end record follows the central directory, and at most a 65,535-byte comment follows it. */
const END_SEARCH_BYTES = END_RECORD_BYTES + UINT16_MAX;

/** The central directory's fields, one typed array each: no object per entry. */
export class Listing {
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
export interface Directory {
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
  let at = tail.length - END_RECORD_BYTES;
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
export async function readDirectory(
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
