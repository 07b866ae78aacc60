import { createHash } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';

/** zlib's default trade-off (as `zip` uses); fixed so that the output never depends on the environment. */
export const COMPRESSION_LEVEL = 6;

/**
 * What compresses to the same bytes: zlib's version and the level. Compressed bytes kept from an
 * earlier run (a derived transcript's files) are used again only under the same compression.
 */
export const COMPRESSION = `zlib ${process.versions.zlib}, level ${COMPRESSION_LEVEL}`;

/** A file's text compressed once, with everything a ZIP entry and its reuse field say of it. */
export interface CompressedText {
  /** Its UTF-8 size. */
  size: number;
  /** The CRC-32 of its UTF-8 bytes. */
  crc: number;
  /** The SHA-256 of its UTF-8 bytes (for SHA256SUMS). */
  sha256: Buffer;
  /** Its raw deflate data. */
  data: Buffer;
  /** The CRC-32 of `data` (for the reuse field). */
  compressedCrc: number;
}

/**
 * Compresses a whole file on this thread, to exactly the bytes the compression thread makes of it
 * (deflate-worker.ts: one raw deflate stream at COMPRESSION_LEVEL), for a file compressed ahead of
 * any export (export/derived-transcript.ts).
 */
export function compressText(text: string): CompressedText {
  const bytes = Buffer.from(text, 'utf8');
  const data = deflateRawSync(bytes, { level: COMPRESSION_LEVEL });
  return {
    size: bytes.length,
    crc: crc32(bytes),
    sha256: createHash('sha256').update(bytes).digest(),
    data,
    compressedCrc: crc32(data),
  };
}
