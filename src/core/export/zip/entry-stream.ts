import { crc32 } from 'node:zlib';
import type { AppendFile } from './append-file';
import type { Compressed, DeflateWorker } from './deflate-worker';
import { entryPathBytes } from './layout';
import type { ZipEntry } from './headers';

/**
 * Files, or parts of a streamed entry, go to the compression thread in batches of about this many
 * characters.
 */
export const BATCH_LENGTH = 128 * 1024;
/** A final deflate block holding no data (fixed Huffman codes, end of block): closes a deflate stream. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);
/** The SHA-256 of no bytes at all: that of an entry to which nothing was written. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/**
 * A block of a streamed entry: text compressed apart from the rest, ending on a byte boundary without
 * closing the deflate stream (a sync flush), so that its bytes unpack alone and may be copied into
 * another stream. `index` and `fingerprint` are what the writer's caller names it by; the writer only
 * lists them.
 */
export interface StreamBlock {
  index: number;
  fingerprint: Buffer;
  /** Where its compressed bytes start, from the start of the entry's data. */
  offset: number;
  compressedSize: number;
  compressedCrc: number;
  /** Its text's size in bytes. */
  size: number;
}

/** A block of another ZIP's streamed entry, checked by the caller: its compressed bytes and the text they hold. */
export interface CopiedBlock {
  block: StreamBlock;
  data: Buffer;
  text: Buffer;
}

/** What a closed stream's bytes are, for an extra field that records them. */
export interface StreamSums {
  /** The SHA-256 of its text. */
  sha256: Buffer;
  /** The CRC-32 of its compressed bytes. */
  compressedCrc: number;
  /** Its blocks, when they cover all its text (every part was written within a block). */
  blocks?: readonly StreamBlock[];
}

/** How the writer queues a compression and the writing of its result, in the order they were sent. */
export type Send = <T>(compressed: Promise<T>, write: (result: T) => Promise<void>) => Promise<void>;

/** A streamed entry's record before its data: sizes and CRC still zero, given later by a data descriptor. */
export function streamedEntry(name: string, offset: number): ZipEntry {
  return { name: entryPathBytes(name), crc: 0, size: 0, compressedSize: 0, offset, streamed: true };
}

/**
 * The text of one streamed entry, compressed part by part as it comes: each part ends on a byte
 * boundary without closing the deflate stream (a sync flush), so the parts chain into one stream, which
 * close() ends with a final empty block. The compressed data goes to `destination`; the sizes and CRC
 * add up in `entry`, the SHA-256 in `sha256`.
 */
export class EntryStream {
  /** Streams are told apart on the compression thread, which carries each one's CRC from part to part. */
  static #lastId = 0;
  readonly entry: ZipEntry;
  /** The SHA-256 (hex) of the text written so far. */
  sha256 = EMPTY_SHA256;
  readonly #id = ++EntryStream.#lastId;
  readonly #destination: AppendFile;
  readonly #deflate: DeflateWorker;
  readonly #send: Send;
  #gathered: string[] = [];
  #gatheredLength = 0;
  #first = true;
  /** The CRC-32 of the compressed bytes written so far. */
  #compressedCrc = 0;
  /** The blocks ended so far, and the one being written (its compressed bytes and text so far). */
  readonly #blocks: StreamBlock[] = [];
  #block = { offset: 0, compressedSize: 0, compressedCrc: 0, size: 0 };

  constructor(entry: ZipEntry, destination: AppendFile, deflate: DeflateWorker, send: Send) {
    this.entry = entry;
    this.#destination = destination;
    this.#deflate = deflate;
    this.#send = send;
  }

  async write(text: string): Promise<void> {
    this.#gathered.push(text);
    this.#gatheredLength += text.length;
    while (this.#gatheredLength >= BATCH_LENGTH) await this.#sendPart(this.#takePart());
  }

  /** Sends what is gathered as the last part. */
  async flush(): Promise<void> {
    if (this.#gatheredLength === 0) return;
    const part = this.#gathered;
    this.#gathered = [];
    this.#gatheredLength = 0;
    await this.#sendPart(part);
  }

  /**
   * Takes the next part off what is gathered: its first BATCH_LENGTH characters, as the pieces they
   * came in. Parts are cut at fixed places in the entry's text, never where the writer's pieces
   * happened to end (a file read back comes in pieces that depend on timing), so the same text always
   * gives the same bytes; a cut never splits a surrogate pair. The pieces are joined on the compression
   * thread: joined here, every part would be a string too large for V8's young generation, and at the
   * end of an export, when little else is allocated, they pile up until a collection (16 MiB of them).
   */
  #takePart(): string[] {
    const part: string[] = [];
    let length = 0;
    let index = 0;
    for (; index < this.#gathered.length; index++) {
      const piece = this.#gathered[index] as string;
      if (length + piece.length < BATCH_LENGTH) {
        part.push(piece);
        length += piece.length;
        continue;
      }
      let cut = BATCH_LENGTH - length;
      if (isHighSurrogate(piece.charCodeAt(cut - 1))) cut -= 1;
      part.push(piece.slice(0, cut));
      this.#gathered[index] = piece.slice(cut);
      length += cut;
      break;
    }
    this.#gathered.splice(0, index);
    this.#gatheredLength -= length;
    return part;
  }

  async #sendPart(pieces: string[]): Promise<void> {
    const compressed = this.#deflate.compressStreamPart(pieces, { stream: this.#id, first: this.#first });
    this.#first = false;
    await this.#send(compressed, (result) => this.#append(result, result.data));
  }

  /** Writes a part's compressed bytes, and adds them and what they hold to the entry's and block's sums. */
  async #append({ size, crc, sha256 }: Compressed, data: Buffer): Promise<void> {
    this.entry.size += size;
    this.entry.crc = crc;
    this.sha256 = sha256;
    this.entry.compressedSize += data.length;
    this.#compressedCrc = crc32(data, this.#compressedCrc);
    this.#block.compressedSize += data.length;
    this.#block.compressedCrc = crc32(data, this.#block.compressedCrc);
    this.#block.size += size;
    await this.#destination.append(data);
  }

  /** Sends what is gathered as the block's last part, then lists the block once its parts are written. */
  async endBlock(index: number, fingerprint: Buffer): Promise<void> {
    await this.flush();
    await this.#send(Promise.resolve(), async () => this.#closeBlock(index, fingerprint));
  }

  /** Adds a block copied from another ZIP: its text goes to the thread to be hashed, its bytes as they are. */
  async copyBlock({ block, data, text }: CopiedBlock): Promise<void> {
    await this.flush();
    const hashed = this.#deflate.hashStreamPart(text, { stream: this.#id, first: this.#first });
    this.#first = false;
    await this.#send(hashed, async (result) => {
      await this.#append(result, data);
      this.#closeBlock(block.index, block.fingerprint);
    });
  }

  #closeBlock(index: number, fingerprint: Buffer): void {
    this.#blocks.push({ index, fingerprint, ...this.#block });
    this.#block = { offset: this.entry.compressedSize, compressedSize: 0, compressedCrc: 0, size: 0 };
  }

  /** What the stream's bytes are, once closed: its blocks are listed when they cover all its text. */
  sums(): StreamSums {
    const tiled = this.#block.offset + FINAL_EMPTY_BLOCK.length === this.entry.compressedSize;
    return {
      sha256: Buffer.from(this.sha256, 'hex'),
      compressedCrc: this.#compressedCrc,
      ...(tiled && { blocks: this.#blocks }),
    };
  }

  /** Ends the deflate stream; call it once every part sent is written. */
  async close(): Promise<void> {
    this.entry.compressedSize += FINAL_EMPTY_BLOCK.length;
    this.#compressedCrc = crc32(FINAL_EMPTY_BLOCK, this.#compressedCrc);
    await this.#destination.append(FINAL_EMPTY_BLOCK);
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
