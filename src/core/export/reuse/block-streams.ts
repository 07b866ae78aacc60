import type { ExportVideo } from '../corpus/types';
import type { CopiedBlock } from '../zip/entry-stream';
import type { AtomicZipFile, CopiedEntry, SpooledEntry } from '../zip/writer';
import { blockOf, SequenceFingerprint } from './entry-fingerprints';
import type { PreviousCorpus, PreviousStream } from './previous-corpus';
import { reuseFieldFor } from './reuse-field';

/**
 * The fingerprints of a streamed entry's blocks (transcripts.jsonl, chunks.jsonl: the lines of the ok
 * videos of BLOCK_VIDEOS corpus numbers each), gathered in the pass over the videos that reads no
 * transcript, so that the writing pass knows at once whether the previous export's entry can be copied
 * whole.
 */
export class BlockPlan {
  readonly #fingerprintOf: (video: ExportVideo) => Buffer | undefined;
  readonly #blocks = new Map<number, Buffer | undefined>();
  #current: { index: number; fingerprint: SequenceFingerprint } | undefined;
  /** Videos came out of corpus order, so a block would be split: then no block has a fingerprint. */
  #outOfOrder = false;
  /** The lowest block index that may come next. */
  #nextIndex = 0;

  /** @param fingerprintOf the fingerprint of a video's lines in the entry */
  constructor(fingerprintOf: (video: ExportVideo) => Buffer | undefined) {
    this.#fingerprintOf = fingerprintOf;
  }

  /** Adds an ok video, in corpus order. */
  note(video: ExportVideo): void {
    const index = blockOf(video);
    if (this.#current?.index !== index) {
      this.#close();
      if (index < this.#nextIndex) this.#outOfOrder = true;
      this.#current = { index, fingerprint: new SequenceFingerprint() };
    }
    this.#current.fingerprint.add(video.number, this.#fingerprintOf(video));
  }

  /** Whether the videos noted so far came in corpus order (no block split). */
  get inOrder(): boolean {
    return !this.#outOfOrder;
  }

  /** Block `index`'s fingerprint; undefined when one of its videos has none. */
  block(index: number): Buffer | undefined {
    this.#close();
    return this.#outOfOrder ? undefined : this.#blocks.get(index);
  }

  /** The whole entry's fingerprint; undefined when a block has none. */
  whole(): Buffer | undefined {
    this.#close();
    if (this.#outOfOrder) return undefined;
    const whole = new SequenceFingerprint();
    for (const [index, fingerprint] of this.#blocks) whole.add(index, fingerprint);
    return whole.digest();
  }

  #close(): void {
    if (this.#current === undefined) return;
    this.#blocks.set(this.#current.index, this.#current.fingerprint.digest());
    this.#nextIndex = this.#current.index + 1;
    this.#current = undefined;
  }
}

/**
 * Writes a streamed entry block by block: a block the previous export holds unchanged is copied, the
 * others are written from their lines; and when every block is unchanged the previous entry is copied
 * whole, its lines not even asked for.
 */
export class BlockStream {
  readonly #zip: AtomicZipFile;
  readonly #name: string;
  readonly #plan: BlockPlan;
  /** The previous export's entry, copied whole; or else the entry being written. */
  readonly #whole: CopiedEntry | undefined;
  readonly #spool: SpooledEntry | undefined;
  readonly #previous: PreviousStream | undefined;
  #block: { index: number; copied: CopiedBlock | undefined } | undefined;

  private constructor(
    zip: AtomicZipFile,
    name: string,
    plan: BlockPlan,
    whole: CopiedEntry | undefined,
    spool: SpooledEntry | undefined,
    previous: PreviousStream | undefined,
  ) {
    this.#zip = zip;
    this.#name = name;
    this.#plan = plan;
    this.#whole = whole;
    this.#spool = spool;
    this.#previous = previous;
  }

  static async start(
    zip: AtomicZipFile,
    name: string,
    plan: BlockPlan,
    previousCorpus: PreviousCorpus | undefined,
  ): Promise<BlockStream> {
    const previous = await previousCorpus?.stream(name);
    const fingerprint = plan.whole();
    const whole = fingerprint === undefined ? undefined : await previous?.whole(fingerprint);
    if (whole !== undefined) return new BlockStream(zip, name, plan, whole, undefined, undefined);
    return new BlockStream(zip, name, plan, undefined, await zip.spool(name), previous);
  }

  /** Whether the lines of the block being written are needed (it is neither copied nor part of a copy). */
  get needsLines(): boolean {
    return this.#whole === undefined && this.#block?.copied === undefined;
  }

  /** Moves on to the block of `video`, an ok video, ending the one before. */
  async enter(video: ExportVideo): Promise<void> {
    const index = blockOf(video);
    if (this.#whole !== undefined || this.#block?.index === index) return;
    await this.#endBlock();
    const fingerprint = this.#plan.block(index);
    const copied = fingerprint === undefined ? undefined : await this.#previous?.block(index, fingerprint);
    this.#block = { index, copied };
  }

  /** Adds a line of the block being written (only when needsLines). */
  async write(line: string): Promise<void> {
    await this.#spool?.write(line);
  }

  /** Ends the last block and stores the entry; says whether it was copied whole. */
  async finish(): Promise<{ copied: boolean }> {
    if (this.#whole !== undefined) {
      await this.#zip.addCopied(this.#name, this.#whole, { streamed: true });
      return { copied: true };
    }
    await this.#endBlock();
    const fingerprint = this.#plan.whole();
    if (this.#spool !== undefined) {
      await this.#zip.addSpooled(
        this.#spool,
        fingerprint === undefined ? {} : { extra: reuseFieldFor(fingerprint) },
      );
    }
    return { copied: false };
  }

  async #endBlock(): Promise<void> {
    if (this.#block === undefined || this.#spool === undefined) return;
    const { index, copied } = this.#block;
    this.#block = undefined;
    if (copied !== undefined) {
      await this.#spool.copyBlock(copied);
      return;
    }
    const fingerprint = this.#plan.block(index);
    if (fingerprint !== undefined) await this.#spool.endBlock(index, fingerprint);
  }
}
