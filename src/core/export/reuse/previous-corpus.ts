import { constants, crc32, inflateRawSync } from 'node:zlib';
import type { CopiedBlock, StreamBlock } from '../zip/entry-stream';
import { ZipReader } from '../zip/reader';
import type { ListedEntry } from '../zip/central-directory';
import type { CopiedEntry } from '../zip/writer';
import { decodeReuseField, encodeReuseField, isEncodingOf } from './reuse-field';
import type { ReuseField, VideoFacts } from './reuse-field';

/**
 * The most compressed bytes copied from one entry or block in one piece, and the most text a block's
 * bytes may unpack to: far above any file Scriptorium writes (an answer is read up to 64 MiB), so that
 * a hostile file cannot make a copy hold more. Anything larger is rendered instead.
 */
const MAX_COPIED_BYTES = 64 * 1024 * 1024;
/** An entry of ours: deflated, UTF-8 name; a streamed one gives its sizes in a data descriptor. */
const METHOD_DEFLATE = 8;
const FLAGS_FILE = 0x0800;
const FLAGS_STREAMED = 0x0808;
/** How every streamed entry's data ends (zip/entry-stream.ts): a final empty deflate block. */
const STREAM_END_BYTES = 2;

/** A video's file in the previous export, checked and ready to be written again, with what rendering it found out. */
export interface CopiedFile extends CopiedEntry {
  data: Buffer;
  facts: VideoFacts;
}

/**
 * The ZIP an earlier export left at the target, read so that the next export can copy what has not
 * changed instead of rendering it again. It may be anything (another program's file, a damaged or a
 * hostile one), so nothing in it is trusted: an entry is copied only when its name, its fingerprint and
 * its reuse field match what the new export would write, its local header agrees with the central
 * directory, and its compressed bytes still have the CRC-32 they were written with. Whatever fails is
 * rendered instead, silently. Reading is bounded as verify's is: the directory by zip/reader.ts, the
 * entries by MAX_COPIED_BYTES, and a file listing more entries than the new corpus can hold is not read.
 */
export class PreviousCorpus {
  readonly #reader: ZipReader;

  private constructor(reader: ZipReader) {
    this.#reader = reader;
  }

  /** The file at `path` when it is a ZIP that lists at most `maxEntries` entries; undefined otherwise. */
  static async open(path: string, maxEntries: number): Promise<PreviousCorpus | undefined> {
    try {
      return new PreviousCorpus(await ZipReader.open(path, undefined, { maxEntries }));
    } catch {
      return undefined; // nothing there, not a file, not a ZIP, too many entries: nothing to copy
    }
  }

  /** The video file named `path`, when it was written from the same inputs (`fingerprint`) and is intact. */
  async file(path: string, fingerprint: Buffer): Promise<CopiedFile | undefined> {
    const found = await this.#entry(path, fingerprint, FLAGS_FILE);
    const facts = found?.field.facts;
    if (found === undefined || facts === undefined) return undefined;
    const { entry, field, extra, dataStart } = found;
    try {
      const data = await this.#reader.rawBytes(dataStart, entry.compressedSize);
      if (data.length !== entry.compressedSize || crc32(data) !== field.compressedCrc) return undefined;
      const { crc, size, compressedSize } = entry;
      // The field as the previous file holds it, when that is how encodeReuseField writes it.
      const written = isEncodingOf(extra, field) ? extra : encodeReuseField(field);
      return { crc, size, compressedSize, sha256: field.sha256, extra: written, facts, data };
    } catch {
      return undefined; // the file could not be read there
    }
  }

  /** The streamed entry `name`, to be copied whole or block by block; undefined when it cannot be. */
  async stream(name: string): Promise<PreviousStream | undefined> {
    const found = await this.#entry(name, undefined, FLAGS_STREAMED);
    if (found === undefined) return undefined;
    return new PreviousStream(this.#reader, found.entry, found.field, found.dataStart);
  }

  async close(): Promise<void> {
    await this.#reader.close().catch(() => undefined);
  }

  /**
   * The entry `name` when its reuse field reads, its fingerprint is `fingerprint` (when given), and its
   * headers are those Scriptorium writes and agree with each other.
   */
  async #entry(
    name: string,
    fingerprint: Buffer | undefined,
    flags: number,
  ): Promise<{ entry: ListedEntry; field: ReuseField; extra: Buffer; dataStart: number } | undefined> {
    const nameBytes = Buffer.from(name, 'utf8');
    const entry = this.#reader.find(nameBytes);
    if (entry === undefined || entry.repeated || entry.method !== METHOD_DEFLATE || entry.flags !== flags) {
      return undefined;
    }
    if (entry.compressedSize > MAX_COPIED_BYTES && flags === FLAGS_FILE) return undefined;
    try {
      const extra = await this.#reader.extraOf(entry);
      const field = decodeReuseField(extra);
      if (field === undefined || (fingerprint !== undefined && !field.fingerprint.equals(fingerprint))) {
        return undefined;
      }
      const local = await this.#reader.localHeader(entry, nameBytes);
      // A streamed entry's local header leaves its CRC and sizes at zero: they follow its data.
      const expected = flags === FLAGS_STREAMED ? { crc: 0, compressedSize: 0, size: 0 } : entry;
      const agrees =
        local.flags === entry.flags &&
        local.method === entry.method &&
        local.crc === expected.crc &&
        local.compressedSize === expected.compressedSize &&
        local.size === expected.size;
      return agrees ? { entry, field, extra, dataStart: local.dataStart } : undefined;
    } catch {
      return undefined; // a damaged header or directory
    }
  }
}

/** A streamed entry of the previous export (transcripts.jsonl, chunks.jsonl) and its blocks. */
export class PreviousStream {
  readonly #reader: ZipReader;
  readonly #entry: ListedEntry;
  readonly #field: ReuseField;
  readonly #dataStart: number;
  /** Its blocks by index, when the field lists them and they tile its data. */
  readonly #blocks: Map<number, StreamBlock>;

  constructor(reader: ZipReader, entry: ListedEntry, field: ReuseField, dataStart: number) {
    this.#reader = reader;
    this.#entry = entry;
    this.#field = field;
    this.#dataStart = dataStart;
    this.#blocks = tiledBlocks(field.blocks ?? [], entry);
  }

  /**
   * The whole entry, when it was written from the same inputs (`fingerprint`) and its compressed bytes
   * are intact (read once here to check them, and again when copied).
   */
  async whole(fingerprint: Buffer): Promise<CopiedEntry | undefined> {
    if (!this.#field.fingerprint.equals(fingerprint)) return undefined;
    const data = (): AsyncIterable<Buffer> =>
      this.#reader.rawPieces(this.#dataStart, this.#entry.compressedSize);
    let crc = 0;
    let length = 0;
    try {
      for await (const piece of data()) {
        crc = crc32(piece, crc);
        length += piece.length;
      }
    } catch {
      return undefined;
    }
    if (length !== this.#entry.compressedSize || crc !== this.#field.compressedCrc) return undefined;
    const { crc: entryCrc, size, compressedSize } = this.#entry;
    const extra = encodeReuseField(this.#field);
    return { crc: entryCrc, size, compressedSize, sha256: this.#field.sha256, extra, data };
  }

  /** Block `index`, when it was written from the same inputs and its bytes are intact. */
  async block(index: number, fingerprint: Buffer): Promise<CopiedBlock | undefined> {
    const block = this.#blocks.get(index);
    if (block === undefined || !block.fingerprint.equals(fingerprint)) return undefined;
    if (block.compressedSize > MAX_COPIED_BYTES || block.size > MAX_COPIED_BYTES) return undefined;
    try {
      const data = await this.#reader.rawBytes(this.#dataStart + block.offset, block.compressedSize);
      if (data.length !== block.compressedSize || crc32(data) !== block.compressedCrc) return undefined;
      // A block ends on a byte boundary without closing the stream (a sync flush): it unpacks alone.
      const text = inflateRawSync(data, {
        finishFlush: constants.Z_SYNC_FLUSH,
        maxOutputLength: block.size + 1,
      });
      return text.length === block.size ? { block, data, text } : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * The blocks by index when, one after another, they cover the entry's data up to its final empty
 * block and add up to its size; none otherwise (a table that does not describe the data is ignored).
 */
function tiledBlocks(blocks: readonly StreamBlock[], entry: ListedEntry): Map<number, StreamBlock> {
  let offset = 0;
  let size = 0;
  for (const block of blocks) {
    if (block.offset !== offset) return new Map();
    offset += block.compressedSize;
    size += block.size;
  }
  if (offset + STREAM_END_BYTES !== entry.compressedSize || size !== entry.size) return new Map();
  return new Map(blocks.map((block) => [block.index, block]));
}
