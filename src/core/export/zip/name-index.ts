import { hash } from 'node:crypto';

const DIGEST_BYTES = 32;
const FREE = -1;
/** Bits of the quick filter per name: about one absent name in 16 needs its SHA-256 to be told apart. */
const FILTER_BITS_PER_NAME = 16;
/** Text is encoded here to be looked up, when it fits; it fits unless it is far longer than any path. */
const SCRATCH_BYTES = 64 * 1024;

/**
 * The paths of a ZIP's entries, held as their SHA-256 digests: 32 bytes a path whatever its length, in
 * typed arrays the garbage collector never walks, so that a million entries take about 40 MB. Two
 * paths count as one only when their SHA-256 digests are equal, which nobody can arrange; and since
 * the table's slots come from those digests, no crafted set of paths can make its lookups slow.
 *
 * A quick filter (a bit per path, set by a cheap hash) answers most lookups of absent paths without
 * computing their SHA-256: a table naming millions of missing files is checked fast.
 */
export class NameIndex {
  /** Entry i's digest at i * DIGEST_BYTES. */
  readonly #digests: Buffer;
  /** An open-addressing table (linear probing) of entry indexes, or FREE. */
  readonly #slots: Int32Array;
  readonly #mask: number;
  readonly #filter: Uint32Array;
  readonly #scratch = Buffer.alloc(SCRATCH_BYTES);

  constructor(capacity: number) {
    this.#digests = Buffer.alloc(capacity * DIGEST_BYTES);
    this.#slots = new Int32Array(powerOfTwoAtLeast(capacity * 2)).fill(FREE);
    this.#mask = this.#slots.length - 1;
    this.#filter = new Uint32Array(powerOfTwoAtLeast((capacity * FILTER_BITS_PER_NAME) / 32));
  }

  /**
   * Records `name` as entry `index`'s path. Returns the index of an earlier entry with the same path,
   * which keeps its place in lookups; undefined when the path is new.
   */
  add(index: number, name: Uint8Array): number | undefined {
    const [word, bit] = this.#filterBit(name);
    this.#filter[word] = (this.#filter[word] ?? 0) | bit;
    const digest = digestOf(name);
    digest.copy(this.#digests, index * DIGEST_BYTES);
    const slot = this.#slotOf(digest);
    const earlier = this.#slots[slot] ?? FREE;
    if (earlier !== FREE) return earlier;
    this.#slots[slot] = index;
    return undefined;
  }

  /** The index of the (first) entry whose path is `name`; undefined when there is none. */
  find(name: string | Uint8Array): number | undefined {
    const bytes = typeof name === 'string' ? this.#utf8(name) : name;
    const [word, bit] = this.#filterBit(bytes);
    if (((this.#filter[word] ?? 0) & bit) === 0) return undefined;
    const found = this.#slots[this.#slotOf(digestOf(bytes))] ?? FREE;
    return found === FREE ? undefined : found;
  }

  /** Whether entry `index`'s path is `name`. */
  is(index: number, name: Uint8Array): boolean {
    const at = index * DIGEST_BYTES;
    return digestOf(name).equals(this.#digests.subarray(at, at + DIGEST_BYTES));
  }

  /** The slot holding `digest`, or the free slot where it would go. */
  #slotOf(digest: Buffer): number {
    for (let slot = digest.readUInt32LE(0) & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const index = this.#slots[slot] ?? FREE;
      if (index === FREE) return slot;
      const at = index * DIGEST_BYTES;
      if (digest.equals(this.#digests.subarray(at, at + DIGEST_BYTES))) return slot;
    }
  }

  /** The word and bit of the filter that `bytes` sets: FNV-1a, 32 bits. */
  #filterBit(bytes: Uint8Array): [number, number] {
    let fnv = 0x811c9dc5;
    for (let at = 0; at < bytes.length; at++) fnv = Math.imul(fnv ^ (bytes[at] ?? 0), 0x01000193);
    const bitIndex = (fnv >>> 0) & (this.#filter.length * 32 - 1);
    return [bitIndex >>> 5, 1 << (bitIndex & 31)];
  }

  /** `text` as UTF-8, in the scratch buffer when it fits (valid until the next call). */
  #utf8(text: string): Uint8Array {
    if (text.length * 3 > SCRATCH_BYTES) return Buffer.from(text, 'utf8');
    return this.#scratch.subarray(0, this.#scratch.write(text, 'utf8'));
  }
}

function powerOfTwoAtLeast(value: number): number {
  let size = 1;
  while (size < value) size *= 2;
  return size;
}

function digestOf(name: Uint8Array): Buffer {
  return hash('sha256', name, 'buffer');
}
