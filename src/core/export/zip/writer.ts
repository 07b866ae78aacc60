import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import type { AppendFile } from './append-file';
import { ChecksumList } from './checksum-list';
import { DeflateWorker } from './deflate-worker';
import { DirectorySpool } from './directory-spool';
import type { DirectorySlot } from './directory-spool';
import type { Compressed } from './deflate-worker';
import type { CopiedBlock, CopiedEntry } from '../reuse/previous-corpus';
import { encodeReuseField } from '../reuse/reuse-field';
import type { BlockRecord, VideoFacts } from '../reuse/reuse-field';
import { corpusComment } from '../reuse/comment-record';
import { removeStaleTempFiles, TempFile } from './temp-files';
import { centralHeader, checkEntrySize, dataDescriptor, endOfCentralDirectory, localHeader } from './headers';
import type { ZipEntry } from './headers';
import { entryPathBytes } from './layout';

/** zlib's default trade-off (as `zip` uses); fixed so that the output never depends on the environment. */
export const COMPRESSION_LEVEL = 6;
/**
 * Files, or parts of a streamed entry, go to the compression thread in batches of about this many
 * characters, or of this many files.
 */
const BATCH_LENGTH = 128 * 1024;
const BATCH_FILES = 256;
/** Batches sent and not yet written: a few queued up keep the thread busy when rendering comes in bursts. */
const BATCHES_AHEAD = 4;
/** A final deflate block holding no data (fixed Huffman codes, end of block): closes a deflate stream. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);
/** The SHA-256 of no bytes at all: that of an entry to which nothing was written. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** An entry whose text comes in pieces; see AtomicZipFile.spool(). */
export interface SpooledEntry {
  /** Adds text at the end of the entry. */
  write(text: string): Promise<void>;
  /**
   * Ends a block: the text written since the last block ends is compressed apart from the rest, and
   * listed in the entry's reuse field under `index` and `fingerprint`, so that a later export may copy it.
   */
  endBlock(index: number, fingerprint: Buffer): Promise<void>;
  /** Adds a block copied from an earlier export, as endBlock would have written it. */
  copyBlock(block: CopiedBlock): Promise<void>;
}

/** What a later export needs to tell whether it may copy an entry: see reuse-field.ts. */
export interface Reusable {
  fingerprint: Buffer;
  facts?: VideoFacts;
}

export interface ZipOptions {
  /**
   * The name of a last entry listing the SHA-256 of every other entry, in sha256sum's format, e.g.
   * 'SHA256SUMS'; none when absent.
   */
  checksums?: string;
}

/** Where a stored entry is listed, and its SHA-256 for the checksum list (none for that list itself). */
interface Listing {
  sha256?: string;
  slot?: DirectorySlot | undefined;
}

/** What AtomicZipFile keeps of an entry being spooled. */
interface Spool {
  temp: TempFile;
  stream: EntryStream;
  /** Where the entry is listed, when it was asked to be listed where spool() was called. */
  slot: DirectorySlot | undefined;
}

/**
 * A ZIP written entry by entry to a hidden temporary file beside its target
 * (`.<name>.<pid>.<random>.partial`), which replaces the target only once it is complete and on disk.
 *
 * Compression (and, with `checksums`, hashing) runs on a thread of its own while the caller prepares
 * the next entries; entries are still written in the order they were added. Memory holds a few
 * batches of entries; spooled entries, the central directory and the checksum lines wait in hidden
 * files beside the ZIP.
 */
export class AtomicZipFile {
  readonly #targetPath: string;
  /** The ZIP being written. */
  readonly #partial: TempFile;
  readonly #deflate: DeflateWorker;
  readonly #checksums: { name: string; list: ChecksumList } | undefined;
  /** Files added but not yet sent to the compression thread, each with its path as the ZIP stores it. */
  #gathered: Array<{ name: Buffer; content: string; reusable: Reusable | undefined }> = [];
  #gatheredLength = 0;
  /** Batches sent to the compression thread, each as the step that writes its result once compressed. */
  #sent: Array<() => Promise<void>> = [];
  /** The entries being spooled, by the handle their writer holds. */
  readonly #spools = new Map<SpooledEntry, Spool>();
  readonly #directory: DirectorySpool;
  #entries = 0;

  private constructor(
    targetPath: string,
    partial: TempFile,
    deflate: DeflateWorker,
    directory: DirectorySpool,
    checksums: { name: string; list: ChecksumList } | undefined,
  ) {
    this.#targetPath = targetPath;
    this.#partial = partial;
    this.#deflate = deflate;
    this.#directory = directory;
    this.#checksums = checksums;
  }

  /**
   * Deletes what killed writers of `targetPath` left beside it, creates the temporary files and starts
   * the compression thread; `targetPath` is not touched until commit().
   */
  static async create(targetPath: string, options: ZipOptions = {}): Promise<AtomicZipFile> {
    await removeStaleTempFiles(targetPath);
    // Hashed as it is written, for the record a later export checks (corpus-record.ts).
    const partial = await TempFile.beside(targetPath, 'partial', { hashed: true });
    const name = options.checksums;
    let checksums: { name: string; list: ChecksumList } | undefined;
    let directory: DirectorySpool | undefined;
    try {
      directory = await DirectorySpool.create(targetPath);
      if (name !== undefined) checksums = { name, list: await ChecksumList.create(targetPath) };
      const deflate = new DeflateWorker(COMPRESSION_LEVEL);
      return new AtomicZipFile(targetPath, partial, deflate, directory, checksums);
    } catch (error) {
      await directory?.remove();
      await checksums?.list.remove();
      await partial.remove();
      throw error;
    }
  }

  /**
   * Adds one file whose whole content is at hand; it is written once compressed. With `reusable`, its
   * directory header carries a reuse field (a later export may copy it).
   */
  async add(name: string, content: string, reusable?: Reusable): Promise<void> {
    this.#gathered.push({ name: entryPathBytes(name), content, reusable });
    this.#gatheredLength += content.length;
    if (this.#gatheredLength >= BATCH_LENGTH || this.#gathered.length >= BATCH_FILES)
      await this.#sendGathered();
  }

  /**
   * Adds one entry compressed part by part as `chunks` yields its text, so that a large table is never
   * in memory whole. An error thrown by `chunks` rejects, and the ZIP must then be discarded.
   */
  async addStreamed(name: string, chunks: Iterable<string> | AsyncIterable<string>): Promise<void> {
    const stream = await this.#streamEntry(name, chunks);
    await this.#finishStreamed(stream, { sha256: stream.sha256 });
  }

  /**
   * Adds an entry copied from an earlier export: its compressed bytes as they were, its headers written
   * again (they are the same: nothing in them depends on where the entry lies), after the entries added
   * so far. `streamed` entries are written as addStreamed() writes them, with a data descriptor.
   */
  async addCopied(
    name: string,
    copied: CopiedEntry,
    { streamed = false }: { streamed?: boolean } = {},
  ): Promise<void> {
    await this.#sendGathered();
    this.#sent.push(async () => {
      const entry: ZipEntry = {
        name: entryPathBytes(name),
        crc: copied.crc,
        size: copied.size,
        compressedSize: copied.compressedSize,
        offset: this.#partial.file.size,
        streamed,
        extra: copied.encodedField ?? encodeReuseField(copied.field),
      };
      checkEntrySize(entry);
      await this.#partial.file.append(localHeader(entry));
      if (Buffer.isBuffer(copied.data)) await this.#partial.file.append(copied.data);
      else for await (const piece of copied.data()) await this.#partial.file.append(piece);
      if (streamed) await this.#partial.file.append(dataDescriptor(entry));
      await this.#record(entry, { sha256: copied.field.sha256.toString('hex') });
    });
    // Bytes still to be read from the earlier file are copied now, while the caller holds it open.
    if (!Buffer.isBuffer(copied.data)) await this.#writeAll();
    while (this.#sent.length > BATCHES_AHEAD) await this.#writeOldest();
  }

  /**
   * Starts an entry whose text is written piece by piece while other entries are added, so that one
   * pass over the videos can fill several tables and write their files. Its compressed data waits in
   * a hidden spool file beside the ZIP until addSpooled() stores it, after the entries added meanwhile.
   *
   * It is listed in the central directory (the order in which readers show entries) where its data is
   * stored, or with `listNow` where spool() was called: then it is shown before the entries added
   * meanwhile, though its data follows theirs.
   */
  async spool(name: string, { listNow = false }: { listNow?: boolean } = {}): Promise<SpooledEntry> {
    let slot: DirectorySlot | undefined;
    if (listNow) {
      // The entries added so far are listed first: write them, so that their headers are in place.
      await this.#writeAll();
      slot = this.#directory.keepPlace();
    }
    const temp = await TempFile.beside(this.#targetPath, 'spool');
    const stream = new EntryStream(streamedEntry(name, 0), temp.file, this.#deflate, this.#send.bind(this));
    const handle: SpooledEntry = {
      write: (text) => stream.write(text),
      endBlock: (index, fingerprint) => stream.endBlock(index, fingerprint),
      copyBlock: (block) => stream.copyBlock(block),
    };
    this.#spools.set(handle, { temp, stream, slot });
    return handle;
  }

  /**
   * Stores a spooled entry in the ZIP, after every entry added so far. With a `fingerprint`, and blocks
   * ended or copied from its first text to its last, its directory header carries a reuse field listing
   * them.
   */
  async addSpooled(handle: SpooledEntry, { fingerprint }: { fingerprint?: Buffer } = {}): Promise<void> {
    const spool = this.#spools.get(handle);
    if (spool === undefined) throw new Error('that entry is not being spooled in this ZIP');
    await spool.stream.flush();
    await this.#writeAll();
    await spool.stream.close();
    // No need to wait for the disk: the spool is read straight back, then deleted.
    await spool.temp.file.flush();
    await spool.temp.file.close();
    spool.stream.entry.offset = this.#partial.file.size;
    await this.#partial.file.append(localHeader(spool.stream.entry));
    await this.#copyFrom(spool.temp.path);
    if (fingerprint !== undefined) spool.stream.entry.extra = spool.stream.reuseField(fingerprint);
    await this.#finishStreamed(spool.stream, { sha256: spool.stream.sha256, slot: spool.slot });
    this.#spools.delete(handle);
    await rm(spool.temp.path, { force: true });
  }

  /**
   * Adds the checksum entry if asked for, writes the central directory, flushes the ZIP to disk and
   * renames it onto the target. With `record`, the ZIP's comment records the fingerprint of the corpus's
   * inputs and the SHA-256 of every byte before the comment (corpus-record.ts).
   */
  async commit(record?: { fingerprint: Buffer; files: number }): Promise<{ bytes: number; entries: number }> {
    if (this.#spools.size > 0) throw new Error('an entry is still being spooled');
    if (this.#checksums !== undefined) await this.#addChecksums(this.#checksums);
    await this.#writeAll();
    await this.#deflate.close();
    const directoryOffset = this.#partial.file.size;
    await this.#directory.writeTo(this.#partial.file);
    await this.#directory.remove();
    const directorySize = this.#partial.file.size - directoryOffset;
    const entries = this.#entries;
    // The comment's length does not depend on the SHA-256 it holds (hexadecimal, fixed width).
    const commentLength =
      record === undefined ? 0 : corpusComment({ ...record, entries, sha256: Buffer.alloc(32) }).length;
    await this.#partial.file.append(
      endOfCentralDirectory(entries, directoryOffset, directorySize, commentLength),
    );
    if (record !== undefined) {
      const sha256 = await this.#partial.file.sha256();
      await this.#partial.file.append(corpusComment({ ...record, entries, sha256 }));
    }
    await this.#partial.file.finish();
    await rename(this.#partial.path, this.#targetPath);
    await syncDirectory(dirname(this.#targetPath));
    return { bytes: this.#partial.file.size, entries };
  }

  /** Stops writing and deletes the temporary files; the target is left as it was. */
  async discard(): Promise<void> {
    // Should anything fail here, the error that stopped the export is still the one to report.
    await this.#deflate.close().catch(() => undefined);
    await this.#partial.remove();
    for (const spool of this.#spools.values()) await spool.temp.remove();
    await this.#directory.remove();
    await this.#checksums?.list.remove();
  }

  /** The checksum entry: its own line is not in it (it cannot hold its own hash). */
  async #addChecksums({ name, list }: { name: string; list: ChecksumList }): Promise<void> {
    try {
      await this.#finishStreamed(await this.#streamEntry(name, list.text()), {});
    } finally {
      await list.remove();
    }
  }

  /** Writes a streamed entry's local header and data, up to its data descriptor. */
  async #streamEntry(name: string, chunks: Iterable<string> | AsyncIterable<string>): Promise<EntryStream> {
    await this.#writeAll();
    const entry = streamedEntry(name, this.#partial.file.size);
    await this.#partial.file.append(localHeader(entry));
    const stream = new EntryStream(entry, this.#partial.file, this.#deflate, this.#send.bind(this));
    for await (const chunk of chunks) await stream.write(chunk);
    await stream.flush();
    await this.#writeAll();
    await stream.close();
    return stream;
  }

  async #sendGathered(): Promise<void> {
    const files = this.#gathered;
    this.#gathered = [];
    this.#gatheredLength = 0;
    if (files.length === 0) return;
    const compressed = this.#deflate.compressFiles(files.map((file) => file.content));
    await this.#send(compressed, async (results) => {
      for (const [index, { name, reusable }] of files.entries()) {
        const result = results[index];
        if (result === undefined)
          throw new Error(`the compression thread returned nothing for ${name.toString('utf8')}`);
        await this.#writeFile(name, result, reusable);
      }
    });
  }

  async #writeFile(
    name: Buffer,
    { size, crc, sha256, data }: Compressed,
    reusable?: Reusable,
  ): Promise<void> {
    const entry: ZipEntry = {
      name,
      crc,
      size,
      compressedSize: data.length,
      offset: this.#partial.file.size,
      streamed: false,
    };
    if (reusable !== undefined) {
      const field = { ...reusable, sha256: Buffer.from(sha256, 'hex'), compressedCrc: crc32(data) };
      entry.extra = encodeReuseField(field);
    }
    checkEntrySize(entry);
    await this.#partial.file.append(localHeader(entry));
    await this.#partial.file.append(data);
    await this.#record(entry, { sha256 });
  }

  /** After a streamed entry's data: its sizes and CRC, and its place in the directory. */
  async #finishStreamed(stream: EntryStream, listing: Listing): Promise<void> {
    checkEntrySize(stream.entry);
    await this.#partial.file.append(dataDescriptor(stream.entry));
    await this.#record(stream.entry, listing);
  }

  async #copyFrom(path: string): Promise<void> {
    const source = await open(path, 'r');
    try {
      await this.#partial.file.copyFrom(source, 0);
    } finally {
      await source.close();
    }
  }

  /** Queues the writing of a compression's result, then writes the oldest results while too many are out. */
  async #send<T>(compressed: Promise<T>, write: (result: T) => Promise<void>): Promise<void> {
    // It is awaited in its turn; this only keeps an early failure from counting as unhandled.
    compressed.catch(() => undefined);
    this.#sent.push(async () => write(await compressed));
    while (this.#sent.length > BATCHES_AHEAD) await this.#writeOldest();
  }

  async #writeOldest(): Promise<void> {
    await this.#sent.shift()?.();
  }

  /** Sends what is gathered and writes every result. */
  async #writeAll(): Promise<void> {
    await this.#sendGathered();
    while (this.#sent.length > 0) await this.#writeOldest();
  }

  /**
   * Lists a stored entry in the central directory (in its kept place if it has one) and its SHA-256 in
   * the checksum list. The list is a plain file of its own, so writing to it here, in the middle of
   * writing a batch, cannot reorder the ZIP's entries.
   */
  async #record(entry: ZipEntry, { sha256, slot }: Listing): Promise<void> {
    const header = centralHeader(entry);
    if (slot !== undefined) slot.header = header;
    else await this.#directory.add(header);
    this.#entries += 1;
    if (sha256 !== undefined) await this.#checksums?.list.add(entry.name.toString('utf8'), sha256);
  }
}

/** How AtomicZipFile queues a compression and the writing of its result, in the order they were sent. */
type Send = <T>(compressed: Promise<T>, write: (result: T) => Promise<void>) => Promise<void>;

/**
 * The text of one streamed entry, compressed part by part as it comes: each part ends on a byte
 * boundary without closing the deflate stream (a sync flush), so the parts chain into one stream, which
 * close() ends with a final empty block. The compressed data goes to `destination`; the sizes and CRC
 * add up in `entry`, the SHA-256 in `sha256`.
 */
class EntryStream {
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
  /** The CRC-32 of the compressed bytes written so far, for the reuse field. */
  #compressedCrc = 0;
  /** The blocks ended so far, and the one being written (its compressed bytes and text so far). */
  readonly #blocks: BlockRecord[] = [];
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

  /** Adds a block copied from an earlier export: its text goes to the thread to be hashed, its bytes as they are. */
  async copyBlock({ record, data, text }: CopiedBlock): Promise<void> {
    await this.flush();
    const hashed = this.#deflate.hashStreamPart(text, { stream: this.#id, first: this.#first });
    this.#first = false;
    await this.#send(hashed, async (result) => {
      await this.#append(result, data);
      this.#closeBlock(record.index, record.fingerprint);
    });
  }

  #closeBlock(index: number, fingerprint: Buffer): void {
    this.#blocks.push({ index, fingerprint, ...this.#block });
    this.#block = { offset: this.entry.compressedSize, compressedSize: 0, compressedCrc: 0, size: 0 };
  }

  /**
   * The entry's reuse field, once closed: its blocks are listed when they cover all its text (every
   * part was sent within a block).
   */
  reuseField(fingerprint: Buffer): Buffer {
    const tiled = this.#block.offset + FINAL_EMPTY_BLOCK.length === this.entry.compressedSize;
    return encodeReuseField({
      fingerprint,
      sha256: Buffer.from(this.sha256, 'hex'),
      compressedCrc: this.#compressedCrc,
      ...(tiled && { blocks: this.#blocks }),
    });
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

function streamedEntry(name: string, offset: number): ZipEntry {
  return { name: entryPathBytes(name), crc: 0, size: 0, compressedSize: 0, offset, streamed: true };
}

/** Makes the rename itself durable. Best effort: some platforms (Windows) cannot open a folder. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The ZIP is complete and in place; only its durability across a power cut is less certain.
  }
}
