import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { TempFile } from './temp-files';

/**
 * A checksum list is read back in pieces of this size: small enough that each piece of text is an
 * ordinary object of V8's young generation. Pieces of 256 KiB were large objects, which pile up
 * between collections while the list is compressed at the end of an export (16 MiB of them).
 */
const READ_BYTES = 32 * 1024;

/** A line of a SHA256SUMS file. */
export function checksumLine(path: string, sha256: string): string {
  return `${sha256}  ${path}\n`;
}

/**
 * The lines of a SHA256SUMS file, `<sha256>  <path>` (sha256sum's text mode), gathered in a hidden file
 * beside the ZIP as its entries are written, so that memory does not grow with their number. Entry
 * paths hold no line break or backslash (naming.ts), the two characters sha256sum would escape.
 */
export class ChecksumList {
  readonly #spool: TempFile;

  private constructor(spool: TempFile) {
    this.#spool = spool;
  }

  static async create(targetPath: string): Promise<ChecksumList> {
    return new ChecksumList(await TempFile.beside(targetPath, 'spool'));
  }

  async add(path: string, sha256: string): Promise<void> {
    await this.#spool.file.append(Buffer.from(checksumLine(path, sha256), 'utf8'));
  }

  /**
   * Ends the list and yields its text, after `first` (lines to list before those added), in pieces (a
   * piece never splits a character), read one at a time into the same buffer: the next piece is read
   * only once the caller has taken the last.
   */
  async *text(first: readonly string[] = []): AsyncGenerator<string> {
    yield* first;
    await this.#spool.file.flush();
    await this.#spool.file.close();
    const file = await open(this.#spool.path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(READ_BYTES);
      const decoder = new StringDecoder('utf8');
      for (;;) {
        const { bytesRead } = await file.read(buffer, 0, READ_BYTES, null);
        if (bytesRead === 0) break;
        yield decoder.write(buffer.subarray(0, bytesRead));
      }
      const rest = decoder.end();
      if (rest !== '') yield rest;
    } finally {
      await file.close();
    }
  }

  /** Deletes the hidden file, as far as it can. */
  remove(): Promise<void> {
    return this.#spool.remove();
  }
}
