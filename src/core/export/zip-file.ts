import archiver from 'archiver';
import type { Archiver } from 'archiver';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';

/** Every entry gets this date (DOS time starts in 1980), so exports of the same job are byte-identical. */
const ENTRY_DATE = new Date('1980-01-01T00:00:00Z');
/** rw-r--r--, whatever the umask of the machine that exported. */
const ENTRY_MODE = 0o644;
/** zlib's default trade-off; fixed so that the output never depends on the environment. */
const COMPRESSION_LEVEL = 6;

/**
 * A ZIP written entry by entry to a hidden temporary file beside its target
 * (`.<name>.<random>.partial`), which replaces the target only once it is complete and on disk.
 */
export class AtomicZipFile {
  readonly #targetPath: string;
  readonly #tempPath: string;
  readonly #archive: Archiver;
  readonly #output: WriteStream;
  /** Rejects with the first error of the archive or the file; never resolves. */
  readonly #failure: Promise<never>;
  /** Set as soon as #failure rejects, so that a step that happened to finish anyway still fails. */
  #failed = false;
  #entries = 0;

  /** Starts writing; `targetPath` is not touched until commit(). */
  constructor(targetPath: string) {
    this.#targetPath = targetPath;
    const suffix = randomBytes(6).toString('hex');
    this.#tempPath = join(dirname(targetPath), `.${basename(targetPath)}.${suffix}.partial`);
    // flush: the data reaches the disk before the file is closed, and so before the rename.
    this.#output = createWriteStream(this.#tempPath, { flags: 'wx', flush: true });
    this.#archive = archiver('zip', { zlib: { level: COMPRESSION_LEVEL } });
    this.#failure = new Promise<never>((_, reject) => {
      const fail = (error: unknown): void => {
        this.#failed = true;
        reject(error);
      };
      this.#output.on('error', fail);
      this.#archive.on('error', fail);
    });
    // Failures are observed by whichever step is waiting; this keeps an unobserved one from crashing Node.
    this.#failure.catch(() => undefined);
    this.#archive.pipe(this.#output);
  }

  /**
   * Appends one entry and waits until the archive has consumed it, so that at most one entry's
   * content is held in memory. A stream's error rejects, as does any failure of the archive or file.
   */
  async add(name: string, content: Buffer | Readable): Promise<void> {
    const consumed = new Promise<void>((resolve, reject) => {
      this.#archive.once('entry', () => resolve());
      // archiver pipes a stream through a PassThrough that does not forward errors: listen here.
      if (content instanceof Readable) content.once('error', reject);
    });
    this.#archive.append(content, { name, date: ENTRY_DATE, mode: ENTRY_MODE });
    await this.#unlessFailed(consumed);
    this.#entries += 1;
  }

  /** Finishes the ZIP, flushes it to disk and renames it onto the target. */
  async commit(): Promise<{ bytes: number; entries: number }> {
    const closed = once(this.#output, 'close');
    await this.#unlessFailed(this.#archive.finalize());
    await this.#unlessFailed(closed);
    await rename(this.#tempPath, this.#targetPath);
    await syncDirectory(dirname(this.#targetPath));
    return { bytes: this.#archive.pointer(), entries: this.#entries };
  }

  /** Waits for `step`, but throws the archive's or the file's error as soon as there is one. */
  async #unlessFailed<T>(step: Promise<T>): Promise<T> {
    const result = await Promise.race([step, this.#failure]);
    if (this.#failed) await this.#failure;
    return result;
  }

  /** Stops writing and deletes the temporary file; the target is left as it was. */
  async discard(): Promise<void> {
    this.#archive.abort();
    if (!this.#output.closed) {
      const closed = once(this.#output, 'close').catch(() => undefined);
      this.#output.destroy();
      await closed;
    }
    try {
      await rm(this.#tempPath, { force: true });
    } catch {
      // The file was never created (its folder is missing or is a file), or cannot be removed: either
      // way, the error that stopped the export is the one worth reporting.
    }
  }
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
