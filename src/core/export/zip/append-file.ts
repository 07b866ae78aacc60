import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

/**
 * Bytes are handed to the file in batches of about this size: few system calls, little memory, and
 * the event loop gets a turn at every batch.
 */
const BATCH_BYTES = 256 * 1024;

/** A new file written from start to end, in batches. */
export class AppendFile {
  readonly #file: FileHandle;
  /** The SHA-256 of the bytes written so far, when asked for. */
  readonly #hash: Hash | undefined;
  #closing: Promise<void> | undefined;
  /** Bytes not yet handed to the file. */
  #batch: Buffer[] = [];
  #batchBytes = 0;
  #size = 0;

  private constructor(file: FileHandle, hashed: boolean) {
    this.#file = file;
    this.#hash = hashed ? createHash('sha256') : undefined;
  }

  /** Creates the file; fails if something already has its name. `hashed`: keep a SHA-256 of its bytes. */
  static async create(path: string, { hashed = false }: { hashed?: boolean } = {}): Promise<AppendFile> {
    return new AppendFile(await open(path, 'wx'), hashed);
  }

  /** The SHA-256 of the bytes appended so far (a hashed file only); the file may grow after. */
  async sha256(): Promise<Buffer> {
    if (this.#hash === undefined) throw new Error('this file keeps no SHA-256');
    await this.flush();
    return this.#hash.copy().digest();
  }

  /** Bytes appended so far, written or batched: the offset of the next byte. */
  get size(): number {
    return this.#size;
  }

  async append(bytes: Buffer): Promise<void> {
    this.#batch.push(bytes);
    this.#batchBytes += bytes.length;
    this.#size += bytes.length;
    if (this.#batchBytes >= BATCH_BYTES) await this.flush();
  }

  /**
   * Appends the bytes of `source` from `from` to `to` (its end when undefined), read into one buffer
   * used over and over: a fresh buffer for every read would leave a copied file's worth of garbage
   * for the collector (tens of MiB for a large spool).
   */
  async copyFrom(source: FileHandle, from: number, to = Number.POSITIVE_INFINITY): Promise<void> {
    await this.flush();
    const buffer = Buffer.allocUnsafe(BATCH_BYTES);
    for (let at = from; at < to;) {
      const length = Math.min(BATCH_BYTES, to - at);
      const { bytesRead } = await source.read(buffer, 0, length, at);
      if (bytesRead === 0) {
        if (to === Number.POSITIVE_INFINITY) return;
        throw new Error('a file being copied ended early');
      }
      await this.#write(buffer.subarray(0, bytesRead));
      this.#size += bytesRead;
      at += bytesRead;
    }
  }

  /** Writes what is batched. */
  async flush(): Promise<void> {
    // A batch of one buffer (a large piece, such as a copied spool file's) is written as it is.
    const bytes =
      this.#batch.length === 1 ? (this.#batch[0] as Buffer) : Buffer.concat(this.#batch, this.#batchBytes);
    this.#batch = [];
    this.#batchBytes = 0;
    await this.#write(bytes);
  }

  async #write(bytes: Buffer): Promise<void> {
    this.#hash?.update(bytes);
    // A write may take fewer bytes than given (a full disk reports ENOSPC on the next one).
    for (let written = 0; written < bytes.length;) {
      written += (await this.#file.write(bytes, written)).bytesWritten;
    }
  }

  /** Writes what is left, waits until the data is on the disk, and closes the file. */
  async finish(): Promise<void> {
    await this.flush();
    await this.#file.sync();
    await this.close();
  }

  /** Closes the file once, whoever asks first; batched bytes are dropped. */
  close(): Promise<void> {
    this.#closing ??= this.#file.close();
    return this.#closing;
  }
}
