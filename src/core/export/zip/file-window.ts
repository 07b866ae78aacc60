import type { FileHandle } from 'node:fs/promises';

/**
 * The directory and the entries are read through a window of this size, so that thousands of small
 * files cost one read. It holds a central header's three variable fields (at most 3 x 65,535 bytes).
 */
export const WINDOW_BYTES = 1024 * 1024;

/** Reads a file through a window of WINDOW_BYTES, so that many small records cost one read. */
export class FileWindow {
  readonly #file: FileHandle;
  readonly #buffer = Buffer.allocUnsafe(WINDOW_BYTES);
  #start = 0;
  #length = 0;

  constructor(file: FileHandle) {
    this.#file = file;
  }

  /** The `length` bytes at `position` (fewer at the end of the file), valid until the next call. */
  async bytes(position: number, length: number): Promise<Buffer> {
    if (length > WINDOW_BYTES) throw new Error(`a read of ${length} bytes does not fit the window`);
    if (position < this.#start || position + length > this.#start + this.#length) {
      this.#start = position;
      this.#length = (await readInto(this.#file, this.#buffer, position)).length;
    }
    const from = position - this.#start;
    return this.#buffer.subarray(from, Math.min(from + length, this.#length));
  }
}

async function readInto(file: FileHandle, buffer: Buffer, position: number): Promise<Buffer> {
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

export function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  return readInto(file, Buffer.alloc(length), position);
}
