import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { ChecksumList } from './checksum-list';
import { DeflateWorker } from './deflate-worker';
import type { Compressed } from './deflate-worker';
import { DirectorySpool } from './directory-spool';
import type { DirectorySlot } from './directory-spool';
import { BATCH_LENGTH, EntryStream, streamedEntry } from './entry-stream';
import type { CopiedBlock, StreamSums } from './entry-stream';
import { centralHeader, checkEntrySize, dataDescriptor, endOfCentralDirectory, localHeader } from './headers';
import type { ZipEntry } from './headers';
import { entryPathBytes } from './layout';
import { removeStaleTempFiles, TempFile } from './temp-files';

/** zlib's default trade-off (as `zip` uses); fixed so that the output never depends on the environment. */
export const COMPRESSION_LEVEL = 6;
/** Files go to the compression thread in batches of about BATCH_LENGTH characters, or of this many files. */
const BATCH_FILES = 256;
/** Batches sent and not yet written: a few queued up keep the thread busy when rendering comes in bursts. */
const BATCHES_AHEAD = 4;

/** An entry whose text comes in pieces; see AtomicZipFile.spool(). */
export interface SpooledEntry {
  /** Adds text at the end of the entry. */
  write(text: string): Promise<void>;
  /**
   * Ends a block (entry-stream.ts, StreamBlock): the text written since the last block ends is
   * compressed apart from the rest, and listed under `index` and `fingerprint` in the sums that
   * addSpooled() hands to its extra field.
   */
  endBlock(index: number, fingerprint: Buffer): Promise<void>;
  /** Adds a block copied from another ZIP, as endBlock would have written it. */
  copyBlock(block: CopiedBlock): Promise<void>;
}

/** What an entry's bytes are once compressed, for an extra field that records them. */
export interface EntrySums {
  /** The SHA-256 of the entry's content. */
  sha256: Buffer;
  /** The CRC-32 of its compressed bytes. */
  compressedCrc: number;
}

/**
 * Makes an entry's extra field for its central directory header (PKWARE APPNOTE 4.5), from what its
 * bytes turned out to be; the export's reuse field (reuse/reuse-field.ts) is one.
 */
export type ExtraField<Sums = EntrySums> = (sums: Sums) => Buffer;

/**
 * An entry of another ZIP, checked by the caller, to be written again as it was: its compressed bytes,
 * what its headers said of them, the SHA-256 of its content and its extra field.
 */
export interface CopiedEntry {
  crc: number;
  size: number;
  compressedSize: number;
  sha256: Buffer;
  extra: Buffer;
  /** Its compressed bytes, at hand or read again piece by piece from the other file. */
  data: Buffer | (() => AsyncIterable<Buffer>);
}

/**
 * The ZIP's comment, written last (readers show it, e.g. `unzip -l`), from what the ZIP holds: its
 * number of entries and the SHA-256 of every byte before the comment. Its length must not depend on
 * that SHA-256, which is known only once the end record announcing the length is written.
 */
export type ZipComment = (written: { entries: number; sha256: Buffer }) => Buffer;

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
  #gathered: Array<{ name: Buffer; content: string; extra: ExtraField | undefined }> = [];
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
    // Hashed as it is written, for a comment that records the SHA-256 of the bytes before it.
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
   * Adds one file whose whole content is at hand; it is written once compressed. With `extra`, its
   * directory header carries the extra field it makes of the compressed bytes.
   */
  async add(name: string, content: string, extra?: ExtraField): Promise<void> {
    this.#gathered.push({ name: entryPathBytes(name), content, extra });
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
   * Adds an entry copied from another ZIP: its compressed bytes as they were, its headers written again
   * (they are the same: nothing in them depends on where the entry lies), after the entries added so
   * far. `streamed` entries are written as addStreamed() writes them, with a data descriptor.
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
        extra: copied.extra,
      };
      checkEntrySize(entry);
      await this.#partial.file.append(localHeader(entry));
      if (Buffer.isBuffer(copied.data)) await this.#partial.file.append(copied.data);
      else for await (const piece of copied.data()) await this.#partial.file.append(piece);
      if (streamed) await this.#partial.file.append(dataDescriptor(entry));
      await this.#record(entry, { sha256: copied.sha256.toString('hex') });
    });
    // Bytes still to be read from the other file are copied now, while the caller holds it open.
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
   * Stores a spooled entry in the ZIP, after every entry added so far. With `extra`, its directory
   * header carries the extra field it makes of the stream's sums (its blocks among them).
   */
  async addSpooled(handle: SpooledEntry, { extra }: { extra?: ExtraField<StreamSums> } = {}): Promise<void> {
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
    if (extra !== undefined) spool.stream.entry.extra = extra(spool.stream.sums());
    await this.#finishStreamed(spool.stream, { sha256: spool.stream.sha256, slot: spool.slot });
    this.#spools.delete(handle);
    await rm(spool.temp.path, { force: true });
  }

  /**
   * Adds the checksum entry if asked for, writes the central directory, flushes the ZIP to disk and
   * renames it onto the target. With `comment`, the ZIP ends with the comment it makes.
   */
  async commit(comment?: ZipComment): Promise<{ bytes: number; entries: number }> {
    if (this.#spools.size > 0) throw new Error('an entry is still being spooled');
    if (this.#checksums !== undefined) await this.#addChecksums(this.#checksums);
    await this.#writeAll();
    await this.#deflate.close();
    const directoryOffset = this.#partial.file.size;
    await this.#directory.writeTo(this.#partial.file);
    await this.#directory.remove();
    const directorySize = this.#partial.file.size - directoryOffset;
    const entries = this.#entries;
    // The comment's length does not depend on the SHA-256 it is given.
    const commentLength = comment === undefined ? 0 : comment({ entries, sha256: Buffer.alloc(32) }).length;
    await this.#partial.file.append(
      endOfCentralDirectory(entries, directoryOffset, directorySize, commentLength),
    );
    if (comment !== undefined) {
      const sha256 = await this.#partial.file.sha256();
      await this.#partial.file.append(comment({ entries, sha256 }));
    }
    await this.#partial.file.finish();
    await rename(this.#partial.path, this.#targetPath);
    await fsyncDirectory(dirname(this.#targetPath));
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
      for (const [index, { name, extra }] of files.entries()) {
        const result = results[index];
        if (result === undefined)
          throw new Error(`the compression thread returned nothing for ${name.toString('utf8')}`);
        await this.#writeFile(name, result, extra);
      }
    });
  }

  async #writeFile(name: Buffer, { size, crc, sha256, data }: Compressed, extra?: ExtraField): Promise<void> {
    const entry: ZipEntry = {
      name,
      crc,
      size,
      compressedSize: data.length,
      offset: this.#partial.file.size,
      streamed: false,
    };
    if (extra !== undefined)
      entry.extra = extra({ sha256: Buffer.from(sha256, 'hex'), compressedCrc: crc32(data) });
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

/** Makes the rename itself durable (fsync). Best effort: some platforms (Windows) cannot open a folder. */
async function fsyncDirectory(directory: string): Promise<void> {
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
