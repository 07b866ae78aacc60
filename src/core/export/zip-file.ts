import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppendFile } from './append-file';
import { DeflateWorker } from './deflate-worker';
import type { Compressed } from './deflate-worker';
import { removeStaleTempFiles, tempPathBeside } from './temp-files';
import {
  centralHeader,
  checkEntrySize,
  dataDescriptor,
  endOfCentralDirectory,
  localHeader,
} from './zip-records';
import type { ZipEntry } from './zip-records';

/** zlib's default trade-off (as `zip` uses); fixed so that the output never depends on the environment. */
const COMPRESSION_LEVEL = 6;
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
/** Central directory headers are joined in groups of this many, so that each entry costs only its bytes. */
const HEADERS_PER_BLOCK = 1024;
/** A spool file is copied into the ZIP in reads of this size. */
const COPY_BYTES = 1024 * 1024;

/** An entry whose text comes in pieces; see AtomicZipFile.spool(). */
export interface SpooledEntry {
  /** Adds text at the end of the entry. */
  write(text: string): Promise<void>;
}

/**
 * A ZIP written entry by entry to a hidden temporary file beside its target
 * (`.<name>.<pid>.<random>.partial`), which replaces the target only once it is complete and on disk.
 *
 * Compression runs on a thread of its own while the caller prepares the next entries; entries are
 * still written in the order they were added. Memory holds a few batches of entries and the central
 * directory.
 */
export class AtomicZipFile {
  readonly #targetPath: string;
  readonly #tempPath: string;
  readonly #file: AppendFile;
  readonly #deflate: DeflateWorker;
  /** Files added but not yet sent to the compression thread. */
  #gathered: Array<{ name: string; content: string }> = [];
  #gatheredLength = 0;
  /** Batches sent to the compression thread, each as the step that writes its result once compressed. */
  #sent: Array<() => Promise<void>> = [];
  /** The entry being spooled, if any. */
  #spool: { path: string; file: AppendFile; stream: EntryStream } | undefined;
  /** Central directory headers, in blocks, and those of the block being filled. */
  readonly #directory: Buffer[] = [];
  #directoryHeaders: Buffer[] = [];
  #entries = 0;

  private constructor(targetPath: string, tempPath: string, file: AppendFile, deflate: DeflateWorker) {
    this.#targetPath = targetPath;
    this.#tempPath = tempPath;
    this.#file = file;
    this.#deflate = deflate;
  }

  /**
   * Deletes what killed writers of `targetPath` left beside it, creates the temporary file and starts
   * the compression thread; `targetPath` is not touched until commit().
   */
  static async create(targetPath: string): Promise<AtomicZipFile> {
    await removeStaleTempFiles(targetPath);
    const tempPath = tempPathBeside(targetPath, 'partial');
    const file = await AppendFile.create(tempPath);
    try {
      return new AtomicZipFile(targetPath, tempPath, file, new DeflateWorker(COMPRESSION_LEVEL));
    } catch (error) {
      await file.close();
      await rm(tempPath, { force: true });
      throw error;
    }
  }

  /** Adds one file whose whole content is at hand; it is written once compressed. */
  async add(name: string, content: string): Promise<void> {
    this.#gathered.push({ name, content });
    this.#gatheredLength += content.length;
    if (this.#gatheredLength >= BATCH_LENGTH || this.#gathered.length >= BATCH_FILES)
      await this.#sendGathered();
  }

  /**
   * Adds one entry compressed part by part as `chunks` yields its text, so that a large table is never
   * in memory whole. An error thrown by `chunks` rejects, and the ZIP must then be discarded.
   */
  async addStreamed(name: string, chunks: Iterable<string>): Promise<void> {
    await this.#writeAll();
    const entry = streamedEntry(name, this.#file.size);
    await this.#file.append(localHeader(entry));
    const stream = new EntryStream(entry, this.#file, this.#deflate, this.#send.bind(this));
    for (const chunk of chunks) await stream.write(chunk);
    await stream.flush();
    await this.#writeAll();
    await stream.close();
    await this.#finishStreamed(entry);
  }

  /**
   * Starts an entry whose text is written piece by piece while other entries are added, so that one
   * pass over the videos can fill a table and write their files. Its compressed data waits in a hidden
   * spool file beside the ZIP until addSpooled() puts the entry in the ZIP, after the entries added
   * meanwhile. One entry is spooled at a time.
   */
  async spool(name: string): Promise<SpooledEntry> {
    if (this.#spool !== undefined) throw new Error('another entry is being spooled');
    const path = tempPathBeside(this.#targetPath, 'spool');
    const file = await AppendFile.create(path);
    const stream = new EntryStream(streamedEntry(name, 0), file, this.#deflate, this.#send.bind(this));
    this.#spool = { path, file, stream };
    return { write: (text) => stream.write(text) };
  }

  /** Puts the spooled entry in the ZIP, after every entry added so far. */
  async addSpooled(): Promise<void> {
    const spool = this.#spool;
    if (spool === undefined) throw new Error('no entry is being spooled');
    await spool.stream.flush();
    await this.#writeAll();
    await spool.stream.close();
    // No need to wait for the disk: the spool is read straight back, then deleted.
    await spool.file.flush();
    await spool.file.close();
    const entry = spool.stream.entry;
    entry.offset = this.#file.size;
    await this.#file.append(localHeader(entry));
    await this.#copyFrom(spool.path);
    await this.#finishStreamed(entry);
    this.#spool = undefined;
    await rm(spool.path, { force: true });
  }

  /** Writes the central directory, flushes the ZIP to disk and renames it onto the target. */
  async commit(): Promise<{ bytes: number; entries: number }> {
    if (this.#spool !== undefined) throw new Error('an entry is still being spooled');
    await this.#writeAll();
    await this.#deflate.close();
    const directoryOffset = this.#file.size;
    this.#directory.push(Buffer.concat(this.#directoryHeaders));
    this.#directoryHeaders = [];
    for (const block of this.#directory) await this.#file.append(block);
    const directorySize = this.#file.size - directoryOffset;
    await this.#file.append(endOfCentralDirectory(this.#entries, directoryOffset, directorySize));
    await this.#file.finish();
    await rename(this.#tempPath, this.#targetPath);
    await syncDirectory(dirname(this.#targetPath));
    return { bytes: this.#file.size, entries: this.#entries };
  }

  /** Stops writing and deletes the temporary files; the target is left as it was. */
  async discard(): Promise<void> {
    // Should anything fail here, the error that stopped the export is still the one to report.
    await this.#deflate.close().catch(() => undefined);
    await removeFile(this.#file, this.#tempPath);
    if (this.#spool !== undefined) await removeFile(this.#spool.file, this.#spool.path);
  }

  async #sendGathered(): Promise<void> {
    const files = this.#gathered;
    this.#gathered = [];
    this.#gatheredLength = 0;
    if (files.length === 0) return;
    const compressed = this.#deflate.compressFiles(files.map((file) => file.content));
    await this.#send(compressed, async (results) => {
      for (const [index, { name }] of files.entries()) {
        const result = results[index];
        if (result === undefined) throw new Error(`the compression thread returned nothing for ${name}`);
        await this.#writeFile(name, result);
      }
    });
  }

  async #writeFile(name: string, { size, crc, data }: Compressed): Promise<void> {
    const entry: ZipEntry = {
      name: Buffer.from(name, 'utf8'),
      crc,
      size,
      compressedSize: data.length,
      offset: this.#file.size,
      streamed: false,
    };
    checkEntrySize(entry);
    await this.#file.append(localHeader(entry));
    await this.#file.append(data);
    this.#record(entry);
  }

  /** After a streamed entry's data: its sizes and CRC, and its place in the directory. */
  async #finishStreamed(entry: ZipEntry): Promise<void> {
    checkEntrySize(entry);
    await this.#file.append(dataDescriptor(entry));
    this.#record(entry);
  }

  async #copyFrom(path: string): Promise<void> {
    const source = await open(path, 'r');
    try {
      for (;;) {
        // A fresh buffer each time: the file may still hold the previous one in its batch.
        const { bytesRead, buffer } = await source.read(Buffer.allocUnsafe(COPY_BYTES), 0, COPY_BYTES, null);
        if (bytesRead === 0) break;
        await this.#file.append(buffer.subarray(0, bytesRead));
      }
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

  #record(entry: ZipEntry): void {
    this.#directoryHeaders.push(centralHeader(entry));
    if (this.#directoryHeaders.length === HEADERS_PER_BLOCK) {
      this.#directory.push(Buffer.concat(this.#directoryHeaders));
      this.#directoryHeaders = [];
    }
    this.#entries += 1;
  }
}

/** How AtomicZipFile queues a compression and the writing of its result. */
type Send = (compressed: Promise<Compressed>, write: (result: Compressed) => Promise<void>) => Promise<void>;

/**
 * The text of one streamed entry, compressed part by part as it comes: each part ends on a byte
 * boundary without closing the deflate stream (a sync flush), so the parts chain into one stream, which
 * close() ends with a final empty block. The compressed data goes to `destination`; the sizes and CRC
 * add up in `entry`.
 */
class EntryStream {
  /** Streams are told apart on the compression thread, which carries each one's CRC from part to part. */
  static #lastId = 0;
  readonly entry: ZipEntry;
  readonly #id = ++EntryStream.#lastId;
  readonly #destination: AppendFile;
  readonly #deflate: DeflateWorker;
  readonly #send: Send;
  #gathered: string[] = [];
  #gatheredLength = 0;
  #first = true;

  constructor(entry: ZipEntry, destination: AppendFile, deflate: DeflateWorker, send: Send) {
    this.entry = entry;
    this.#destination = destination;
    this.#deflate = deflate;
    this.#send = send;
  }

  async write(text: string): Promise<void> {
    this.#gathered.push(text);
    this.#gatheredLength += text.length;
    if (this.#gatheredLength >= BATCH_LENGTH) await this.flush();
  }

  /** Sends what is gathered as a part. */
  async flush(): Promise<void> {
    if (this.#gatheredLength === 0) return;
    const part = this.#gathered.join('');
    this.#gathered = [];
    this.#gatheredLength = 0;
    const compressed = this.#deflate.compressStreamPart(part, { stream: this.#id, first: this.#first });
    this.#first = false;
    await this.#send(compressed, async ({ size, crc, data }) => {
      this.entry.size += size;
      this.entry.crc = crc;
      this.entry.compressedSize += data.length;
      await this.#destination.append(data);
    });
  }

  /** Ends the deflate stream; call it once every part sent is written. */
  async close(): Promise<void> {
    this.entry.compressedSize += FINAL_EMPTY_BLOCK.length;
    await this.#destination.append(FINAL_EMPTY_BLOCK);
  }
}

function streamedEntry(name: string, offset: number): ZipEntry {
  return { name: Buffer.from(name, 'utf8'), crc: 0, size: 0, compressedSize: 0, offset, streamed: true };
}

/** Closes and deletes a temporary file, as far as it can. */
async function removeFile(file: AppendFile, path: string): Promise<void> {
  await file.close().catch(() => undefined);
  await rm(path, { force: true }).catch(() => undefined);
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
