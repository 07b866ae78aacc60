import { open } from 'node:fs/promises';
import type { AppendFile } from './append-file';
import type { DirectorySpool } from './directory-spool';
import { centralHeader, type ZipEntry } from './headers';
import { TempFile } from './temp-files';

/** Bytes read back from the records at a time. */
const READ_BYTES = 256 * 1024;
/** A record without its name and extra field: their lengths, CRC, sizes, offset, streamed. */
const FIXED_BYTES = 2 + 2 + 4 + 4 + 4 + 8 + 1;

/**
 * Entries a ZIP stores before the entries listed and stored ahead of them are known
 * (AtomicZipFile.deferHead): their bytes wait in a hidden file beside the ZIP, and what each one's
 * directory header says in another, its offset counted from the first file's start. Once the entries
 * ahead of them are written, joinTo() copies their bytes after them and lists each, its offset moved
 * by as much. Memory holds none of them, whatever their number.
 */
export class DeferredBody {
  readonly #bytes: TempFile;
  readonly #records: TempFile;

  private constructor(bytes: TempFile, records: TempFile) {
    this.#bytes = bytes;
    this.#records = records;
  }

  static async create(targetPath: string): Promise<DeferredBody> {
    const bytes = await TempFile.beside(targetPath, 'spool');
    try {
      return new DeferredBody(bytes, await TempFile.beside(targetPath, 'spool'));
    } catch (error) {
      await bytes.remove();
      throw error;
    }
  }

  /** Where the entries' bytes go, one after another. */
  get file(): AppendFile {
    return this.#bytes.file;
  }

  /** Keeps an entry stored in `file`, its offset counted from the start of `file`. */
  async record(entry: ZipEntry): Promise<void> {
    const extra = entry.extra ?? Buffer.alloc(0);
    const record = Buffer.alloc(FIXED_BYTES + entry.name.length + extra.length);
    let at = record.writeUInt16LE(entry.name.length, 0);
    at = record.writeUInt16LE(extra.length, at);
    at = record.writeUInt32LE(entry.crc, at);
    at = record.writeUInt32LE(entry.size, at);
    at = record.writeUInt32LE(entry.compressedSize, at);
    at = record.writeDoubleLE(entry.offset, at);
    at = record.writeUInt8(entry.streamed ? 1 : 0, at);
    at += entry.name.copy(record, at);
    extra.copy(record, at);
    await this.#records.file.append(record);
  }

  /** Appends the entries' bytes to `zip` and lists them in `directory`, their offsets moved to where they now lie. */
  async joinTo(zip: AppendFile, directory: DirectorySpool): Promise<void> {
    const shift = zip.size;
    await this.#bytes.file.flush();
    await this.#bytes.file.close();
    const bytes = await open(this.#bytes.path, 'r');
    try {
      await zip.copyFrom(bytes, 0);
    } finally {
      await bytes.close();
    }
    for await (const entry of this.#entries()) {
      await directory.add(centralHeader({ ...entry, offset: entry.offset + shift }));
    }
  }

  /** Deletes the hidden files, as far as it can. */
  async remove(): Promise<void> {
    await this.#bytes.remove();
    await this.#records.remove();
  }

  /** The entries recorded, in order, read back a piece at a time. */
  async *#entries(): AsyncGenerator<ZipEntry> {
    await this.#records.file.flush();
    await this.#records.file.close();
    const records = await open(this.#records.path, 'r');
    try {
      let pending = Buffer.alloc(0);
      const buffer = Buffer.allocUnsafe(READ_BYTES);
      for (;;) {
        const { bytesRead } = await records.read(buffer, 0, READ_BYTES, null);
        if (bytesRead === 0) break;
        pending = Buffer.concat([pending, buffer.subarray(0, bytesRead)]);
        let at = 0;
        while (at + FIXED_BYTES <= pending.length) {
          const nameLength = pending.readUInt16LE(at);
          const extraLength = pending.readUInt16LE(at + 2);
          const end = at + FIXED_BYTES + nameLength + extraLength;
          if (end > pending.length) break;
          const nameStart = at + FIXED_BYTES;
          yield {
            crc: pending.readUInt32LE(at + 4),
            size: pending.readUInt32LE(at + 8),
            compressedSize: pending.readUInt32LE(at + 12),
            offset: pending.readDoubleLE(at + 16),
            streamed: pending.readUInt8(at + 24) === 1,
            // Copies: `pending` is cut and refilled.
            name: Buffer.from(pending.subarray(nameStart, nameStart + nameLength)),
            ...(extraLength > 0 && { extra: Buffer.from(pending.subarray(nameStart + nameLength, end)) }),
          };
          at = end;
        }
        pending = pending.subarray(at);
      }
      if (pending.length > 0) throw new Error('the deferred entries end in the middle of a record');
    } finally {
      await records.close();
    }
  }
}
