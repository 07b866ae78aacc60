import { Worker } from 'node:worker_threads';
import { z } from 'zod';

/** Text compressed: its UTF-8 size, the CRC-32 and SHA-256 (hex) of those bytes, and their raw deflate data. */
export interface Compressed {
  size: number;
  crc: number;
  sha256: string;
  data: Buffer;
}

/**
 * The worker's whole program. It lives inline, so that it needs no file of its own beside the bundle
 * of the CLI or of the desktop app. Messages are answered in the order they came, which is what lets
 * the parts of a stream carry its CRC and SHA-256 from one to the next (a corpus has a handful of
 * streams, so their running sums stay until the thread ends).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { constants, crc32, deflateRawSync } = require('node:zlib');
const streamSums = new Map();
parentPort.on('message', ({ id, texts, copied, stream, first }) => {
  const finishFlush = stream === undefined ? constants.Z_FINISH : constants.Z_SYNC_FLUSH;
  // A part of a stream comes as the pieces it was written in, joined here (see compressStreamPart);
  // a part copied from an earlier export comes as its bytes, only to be hashed (see hashStreamPart).
  const inputs = copied !== undefined ? [Buffer.from(copied.buffer, copied.byteOffset, copied.byteLength)] : stream === undefined ? texts : [texts.join('')];
  const outputs = inputs.map((input) => {
    const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
    const data = copied !== undefined ? Buffer.alloc(0) : deflateRawSync(bytes, { level: workerData.level, finishFlush });
    if (stream === undefined) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      return { size: bytes.length, crc: crc32(bytes), sha256, data };
    }
    const sums = first ? { crc: 0, hash: createHash('sha256') } : streamSums.get(stream);
    sums.crc = crc32(bytes, sums.crc);
    sums.hash.update(bytes);
    streamSums.set(stream, sums);
    // A copy gives the digest of the stream so far and leaves the running hash open for the next part.
    return { size: bytes.length, crc: sums.crc, sha256: sums.hash.copy().digest('hex'), data };
  });
  // All the data in one buffer of its own (never a slice of Node's shared pool), handed over, not copied.
  const data = new Uint8Array(outputs.reduce((total, output) => total + output.data.length, 0));
  let offset = 0;
  for (const output of outputs) {
    data.set(output.data, offset);
    offset += output.data.length;
  }
  const results = outputs.map((output) => ({
    size: output.size,
    crc: output.crc,
    sha256: output.sha256,
    compressedSize: output.data.length,
  }));
  parentPort.postMessage({ id, results, data }, [data.buffer]);
});
`;

const ReplySchema = z.object({
  id: z.number(),
  results: z.array(
    z.object({ size: z.number(), crc: z.number(), sha256: z.string(), compressedSize: z.number() }),
  ),
  data: z.instanceof(Uint8Array),
});

interface Waiting {
  resolve: (results: Compressed[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Compresses text on a thread of its own, so that the caller can render the next files meanwhile:
 * deflate is most of an export's work. Call close() when done, or the thread keeps the process alive.
 */
export class DeflateWorker {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 0;
  /** Set once the thread has failed or been closed; every later call rejects with it. */
  #stopped: Error | undefined;

  /** @param level zlib compression level, 0 to 9. */
  constructor(level: number) {
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { level },
      // It holds a few batches at a time: a small heap keeps the process's memory down.
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 },
    });
    this.#worker.on('message', (message: unknown) => this.#answer(message));
    this.#worker.on('error', (error) => this.#stop(error));
    this.#worker.on('exit', (code) =>
      this.#stop(new Error(`the compression thread stopped (exit code ${code})`)),
    );
  }

  /** Compresses each text as a whole file: a complete raw deflate stream. */
  compressFiles(texts: readonly string[]): Promise<Compressed[]> {
    return this.#post({ texts });
  }

  /**
   * Compresses the next part of a long stream of text, ending on a byte boundary without closing the
   * deflate stream (a sync flush), so that the parts chain into one stream; its `crc` is that of the
   * stream so far, and so is its `sha256`. `stream` tells streams apart; each one's parts go in order, the first marked so.
   * The part's text is `pieces` joined: the thread joins them, so that the caller never holds the part
   * as one large string.
   */
  async compressStreamPart(
    pieces: readonly string[],
    part: { stream: number; first: boolean },
  ): Promise<Compressed> {
    const [result] = await this.#post({ texts: pieces, ...part });
    if (result === undefined) throw new Error('the compression thread returned nothing');
    return result;
  }

  /**
   * Adds a part of a long stream that is already compressed (copied from an earlier export) to the
   * stream's CRC and SHA-256, as compressStreamPart would: `bytes` is the part's text, handed over to
   * the thread (the caller must not use it again). The result's `data` is empty: the caller has it.
   */
  async hashStreamPart(bytes: Uint8Array, part: { stream: number; first: boolean }): Promise<Compressed> {
    const own =
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
    const [result] = await this.#post({ copied: own, ...part }, [own.buffer as ArrayBuffer]);
    if (result === undefined) throw new Error('the compression thread returned nothing');
    return result;
  }

  /** Stops the thread; compressions still under way reject. */
  async close(): Promise<void> {
    this.#stop(new Error('the compression thread was closed'));
    await this.#worker.terminate();
  }

  #post(
    request: { texts?: readonly string[]; copied?: Uint8Array; stream?: number; first?: boolean },
    transfer: ArrayBuffer[] = [],
  ): Promise<Compressed[]> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ id, ...request }, transfer);
    });
  }

  #answer(message: unknown): void {
    const reply = ReplySchema.safeParse(message);
    if (!reply.success) {
      this.#stop(new Error('the compression thread sent an unreadable answer'));
      return;
    }
    const { id, results, data } = reply.data;
    const waiting = this.#waiting.get(id);
    this.#waiting.delete(id);
    let offset = data.byteOffset;
    waiting?.resolve(
      results.map(({ size, crc, sha256, compressedSize }) => {
        const compressed = { size, crc, sha256, data: Buffer.from(data.buffer, offset, compressedSize) };
        offset += compressedSize;
        return compressed;
      }),
    );
  }

  #stop(error: Error): void {
    this.#stopped ??= error;
    for (const waiting of this.#waiting.values()) waiting.reject(this.#stopped);
    this.#waiting.clear();
  }
}
