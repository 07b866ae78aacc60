import { MAX_ENTRY_PATH_BYTES } from '../zip/layout';

/** A SHA256SUMS line: 64 hex digits, two characters, and a path of at most MAX_ENTRY_PATH_BYTES. */
export const LONGEST_CHECKSUM_LINE = 64 + 2 + MAX_ENTRY_PATH_BYTES;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A SHA256SUMS line as `sha256sum` writes it: 64 lower-case hex digits, a space, a space or '*', the path. */
export function parseChecksumLine(line: Buffer): { digest: Buffer; path: Buffer } | undefined {
  const SPACE = 0x20;
  const STAR = 0x2a;
  if (line.length < 67 || line[64] !== SPACE || (line[65] !== SPACE && line[65] !== STAR)) return undefined;
  const hex = line.toString('latin1', 0, 64);
  return SHA256_HEX.test(hex) ? { digest: Buffer.from(hex, 'hex'), path: line.subarray(66) } : undefined;
}
