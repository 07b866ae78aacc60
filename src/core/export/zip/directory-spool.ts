import { open } from 'node:fs/promises';
import type { AppendFile } from './append-file';
import { TempFile } from './temp-files';

/** A place kept in the central directory for an entry whose data is stored later. */
export interface DirectorySlot {
  header: Buffer | undefined;
}

/** Bytes of the spool file, from `from` up to `to`. */
interface SpooledRange {
  from: number;
  to: number;
}

/**
 * The central directory of a ZIP being written, its headers gathered in a hidden file beside the ZIP
 * as entries are stored, so that memory does not grow with their number (100,000 videos make 400,000
 * headers). Only the places kept for entries stored later, a handful, stay in memory.
 */
export class DirectorySpool {
  readonly #spool: TempFile;
  readonly #parts: Array<SpooledRange | DirectorySlot> = [];

  private constructor(spool: TempFile) {
    this.#spool = spool;
  }

  static async create(targetPath: string): Promise<DirectorySpool> {
    return new DirectorySpool(await TempFile.beside(targetPath, 'spool'));
  }

  /** Lists a header after those listed so far. */
  async add(header: Buffer): Promise<void> {
    const from = this.#spool.file.size;
    await this.#spool.file.append(header);
    const last = this.#parts.at(-1);
    if (last !== undefined && 'to' in last && last.to === from) last.to = this.#spool.file.size;
    else this.#parts.push({ from, to: this.#spool.file.size });
  }

  /** Keeps a place after the headers listed so far, for a header known later. */
  keepPlace(): DirectorySlot {
    const slot: DirectorySlot = { header: undefined };
    this.#parts.push(slot);
    return slot;
  }

  /** Appends the whole directory, in order, to `destination`; every kept place must be filled by now. */
  async writeTo(destination: AppendFile): Promise<void> {
    await this.#spool.file.flush();
    await this.#spool.file.close();
    const spooled = await open(this.#spool.path, 'r');
    try {
      for (const part of this.#parts) {
        if (!('to' in part)) {
          if (part.header === undefined) throw new Error('an entry was listed but never stored');
          await destination.append(part.header);
          continue;
        }
        await destination.copyFrom(spooled, part.from, part.to);
      }
    } finally {
      await spooled.close();
    }
  }

  /** Deletes the hidden file, as far as it can. */
  remove(): Promise<void> {
    return this.#spool.remove();
  }
}
