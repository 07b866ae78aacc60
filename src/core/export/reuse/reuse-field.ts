import type { StreamBlock, StreamSums } from '../zip/entry-stream';

/**
 * The reuse field: an extra field of the central directory (PKWARE APPNOTE 4.5) that the writer puts on
 * each entry a later export may copy instead of rendering again. It says what the entry's bytes were
 * made from (a fingerprint, entry-fingerprints.ts), what a copy needs without unpacking it (the SHA-256
 * of its content, for SHA256SUMS) and how to tell its compressed bytes are still those written (their
 * CRC-32).
 * Readers of ZIPs skip extra fields they do not know, and it is written by every export, from scratch or
 * not, so that both give the same bytes.
 */

/** The field's header ID: "Sc". IDs below 0x8000 are no standard's; this one is none that zip tools use. */
const FIELD_ID = 0x6353;
const FIELD_VERSION = 1;
const FINGERPRINT_BYTES = 16;
const SHA256_BYTES = 32;
const HEADER_BYTES = 4;
/** version, fingerprint, SHA-256, CRC-32 of the compressed data, kind */
const COMMON_BYTES = 1 + FINGERPRINT_BYTES + SHA256_BYTES + 4 + 1;
const FACTS_BYTES = 4 + 8 + 1;
const BLOCK_BYTES = 4 + FINGERPRINT_BYTES + 4 + 4 + 4 + 4;
/** An entry's extra fields add up to at most 65,535 bytes (a 16-bit length), ZIP64's 12 among them. */
const MAX_FIELD_BYTES = 0xffff - 12;
/** The most blocks a field lists; a longer stream is listed without them (it can then only be copied whole). */
export const MAX_LISTED_BLOCKS = Math.floor(
  (MAX_FIELD_BYTES - HEADER_BYTES - COMMON_BYTES - 4) / BLOCK_BYTES,
);

const KIND_PLAIN = 0;
const KIND_FACTS = 1;
const KIND_BLOCKS = 2;

/** What rendering a video found out that index.csv and the datasheet need: kept so a copy needs none. */
export interface VideoFacts {
  wordCount: number;
  /** How far its captions reach, in seconds. */
  spokenSeconds: number;
  /** Every segment has times, so it has srt and vtt files (when asked for) and passages. */
  timed: boolean;
}

export interface ReuseField {
  fingerprint: Buffer;
  /** The SHA-256 of the entry's content. */
  sha256: Buffer;
  /** The CRC-32 of the entry's compressed bytes. */
  compressedCrc: number;
  facts?: VideoFacts;
  /**
   * A streamed entry's (transcripts.jsonl, chunks.jsonl) blocks, each holding the lines of one block of
   * videos (its index: corpus numbers 1 to BLOCK_VIDEOS are block 0, and so on); a later export copies
   * a block whose fingerprint is unchanged.
   */
  blocks?: readonly StreamBlock[];
}

export function encodeReuseField(field: ReuseField): Buffer {
  const blocks =
    field.blocks !== undefined && field.blocks.length <= MAX_LISTED_BLOCKS ? field.blocks : undefined;
  const kindBytes =
    field.facts !== undefined ? FACTS_BYTES : blocks !== undefined ? 4 + blocks.length * BLOCK_BYTES : 0;
  const data = Buffer.alloc(HEADER_BYTES + COMMON_BYTES + kindBytes);
  data.writeUInt16LE(FIELD_ID, 0);
  data.writeUInt16LE(data.length - HEADER_BYTES, 2);
  let at = HEADER_BYTES;
  data.writeUInt8(FIELD_VERSION, at);
  at += 1;
  at += field.fingerprint.copy(data, at, 0, FINGERPRINT_BYTES);
  at += field.sha256.copy(data, at, 0, SHA256_BYTES);
  at = data.writeUInt32LE(field.compressedCrc, at);
  if (field.facts !== undefined) {
    at = data.writeUInt8(KIND_FACTS, at);
    at = data.writeUInt32LE(field.facts.wordCount, at);
    at = data.writeDoubleLE(field.facts.spokenSeconds, at);
    data.writeUInt8(field.facts.timed ? 1 : 0, at);
  } else if (blocks !== undefined) {
    at = data.writeUInt8(KIND_BLOCKS, at);
    at = data.writeUInt32LE(blocks.length, at);
    for (const block of blocks) {
      at = data.writeUInt32LE(block.index, at);
      at += block.fingerprint.copy(data, at, 0, FINGERPRINT_BYTES);
      at = data.writeUInt32LE(block.offset, at);
      at = data.writeUInt32LE(block.compressedSize, at);
      at = data.writeUInt32LE(block.compressedCrc, at);
      at = data.writeUInt32LE(block.size, at);
    }
  } else {
    data.writeUInt8(KIND_PLAIN, at);
  }
  return data;
}

/**
 * The reuse field of an entry written now, made by the ZIP writer once it knows the entry's bytes (its
 * SHA-256, the CRC-32 of its compressed bytes, a stream's blocks): see AtomicZipFile's ExtraField.
 */
export function reuseFieldFor(fingerprint: Buffer, facts?: VideoFacts): (sums: StreamSums) => Buffer {
  return (sums) => encodeReuseField({ fingerprint, ...(facts !== undefined && { facts }), ...sums });
}

/**
 * The reuse field among an entry's extra fields, or undefined when there is none or it does not read
 * as one (a file from anywhere may hold anything here). Its fingerprints are views of `extra`, which
 * the caller must not change.
 */
export function decodeReuseField(extra: Buffer): ReuseField | undefined {
  for (let at = 0; at + HEADER_BYTES <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    const start = at + HEADER_BYTES;
    if (start + length > extra.length) return undefined;
    if (id === FIELD_ID) return readField(extra.subarray(start, start + length));
    at = start + length;
  }
  return undefined;
}

function readField(data: Buffer): ReuseField | undefined {
  if (data.length < COMMON_BYTES || data.readUInt8(0) !== FIELD_VERSION) return undefined;
  let at = 1;
  const fingerprint = data.subarray(at, (at += FINGERPRINT_BYTES));
  const sha256 = data.subarray(at, (at += SHA256_BYTES));
  const compressedCrc = data.readUInt32LE(at);
  const kind = data.readUInt8(at + 4);
  at += 5;
  const common = { fingerprint, sha256, compressedCrc };
  if (kind === KIND_PLAIN) return data.length === at ? common : undefined;
  if (kind === KIND_FACTS) {
    if (data.length !== at + FACTS_BYTES) return undefined;
    const spokenSeconds = data.readDoubleLE(at + 4);
    if (!Number.isFinite(spokenSeconds)) return undefined;
    return {
      ...common,
      facts: { wordCount: data.readUInt32LE(at), spokenSeconds, timed: data.readUInt8(at + 12) === 1 },
    };
  }
  if (kind !== KIND_BLOCKS || data.length < at + 4) return undefined;
  const count = data.readUInt32LE(at);
  at += 4;
  if (data.length !== at + count * BLOCK_BYTES) return undefined;
  const blocks: StreamBlock[] = [];
  for (let block = 0; block < count; block++) {
    const index = data.readUInt32LE(at);
    const blockFingerprint = data.subarray(at + 4, at + 4 + FINGERPRINT_BYTES);
    at += 4 + FINGERPRINT_BYTES;
    blocks.push({
      index,
      fingerprint: blockFingerprint,
      offset: data.readUInt32LE(at),
      compressedSize: data.readUInt32LE(at + 4),
      compressedCrc: data.readUInt32LE(at + 8),
      size: data.readUInt32LE(at + 12),
    });
    at += 16;
  }
  return { ...common, blocks };
}

/**
 * Whether `extra`, from which `field` (a video file's) was decoded, is that field alone, byte for byte
 * as encodeReuseField(field) writes it: then a copy may write `extra` again instead of encoding it.
 * decodeReuseField took the field at its start, of exactly this length, and its finite length in
 * seconds reads back to the same bits; only the `timed` byte could have read as false from another value.
 */
export function isEncodingOf(extra: Buffer, field: ReuseField): boolean {
  return (
    field.facts !== undefined &&
    extra.length === HEADER_BYTES + COMMON_BYTES + FACTS_BYTES &&
    extra.readUInt16LE(0) === FIELD_ID &&
    extra[extra.length - 1] === (field.facts.timed ? 1 : 0)
  );
}
