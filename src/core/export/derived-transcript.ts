import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { deriveTranscript } from './corpus/formats';
import { WORD_COUNT_METHOD } from './corpus/plain-text';
import type { DerivedTranscript, ExportSegment, TranscriptFileFormat } from './corpus/types';
import { RENDERING_VERSION } from './reuse/entry-fingerprints';
import { COMPRESSION, COMPRESSION_LEVEL } from './zip/compression';
import type { CompressedText } from './zip/compression';

/**
 * Bump when what is kept of a derived transcript changes (its fields, or how they are encoded here):
 * every stored transcript is then derived again, in the background, and exports meanwhile render
 * what is not derived yet.
 */
const DERIVATION_VERSION = 1;

/**
 * Names how a derived transcript was made: this encoding, the rendering (RENDERING_VERSION), the
 * compression (zlib's version and level) and the ICU that counts its words (WORD_COUNT_METHOD: the
 * desktop app's and the CLI's may differ). A transcript derived another way counts as not derived, so
 * that nothing an export copies differs from what it would render now.
 */
export const DERIVATION =
  `derivation ${DERIVATION_VERSION}, rendering ${RENDERING_VERSION}, ${COMPRESSION}, ` +
  `ICU ${WORD_COUNT_METHOD.icu ?? 'none'}`;

/**
 * A derived transcript as the database keeps it (store/derived-transcripts.ts): a few columns and two
 * blobs, beside the DERIVATION that made it.
 */
export interface StoredDerivedTranscript {
  wordCount: number;
  spokenSeconds: number;
  timed: boolean;
  title: string | null;
  authorName: string | null;
  /** The record's tail, compressed (it is JSON text, which compresses to a fifth). */
  recordTail: Buffer;
  /** The compressed files, one after another (FILE_CODES), each with its sizes and sums. */
  files: Buffer;
}

/** Each file's code in the files blob. */
const FILE_CODES: Record<TranscriptFileFormat, number> = { txt: 1, srt: 2, vtt: 3 };
const FORMAT_OF_CODE = new Map(Object.entries(FILE_CODES).map(([format, code]) => [code, format]));
/** code, size, CRC-32, SHA-256, CRC-32 of the data, the data's length */
const FILE_HEADER_BYTES = 1 + 4 + 4 + 32 + 4 + 4;

/** Derives a stored transcript from its segments and metadata (formats.ts), as the database keeps it. */
export function deriveStoredTranscript(
  segments: readonly ExportSegment[],
  metadata: Record<string, unknown> | undefined,
): StoredDerivedTranscript {
  return encodeDerivedTranscript(deriveTranscript(segments, metadata));
}

export function encodeDerivedTranscript(derived: DerivedTranscript): StoredDerivedTranscript {
  const parts: Buffer[] = [];
  for (const [format, file] of Object.entries(derived.files) as Array<
    [TranscriptFileFormat, CompressedText]
  >) {
    const header = Buffer.alloc(FILE_HEADER_BYTES);
    let at = header.writeUInt8(FILE_CODES[format], 0);
    at = header.writeUInt32LE(file.size, at);
    at = header.writeUInt32LE(file.crc, at);
    at += file.sha256.copy(header, at);
    at = header.writeUInt32LE(file.compressedCrc, at);
    header.writeUInt32LE(file.data.length, at);
    parts.push(header, file.data);
  }
  return {
    wordCount: derived.wordCount,
    spokenSeconds: derived.spokenSeconds,
    timed: derived.timed,
    title: derived.metadata.title,
    authorName: derived.metadata.authorName,
    recordTail: deflateRawSync(Buffer.from(derived.recordTail, 'utf8'), { level: COMPRESSION_LEVEL }),
    files: Buffer.concat(parts),
  };
}

/**
 * A derived transcript as the database kept it; its files are views of `stored.files`. Throws when a
 * blob does not read as this version wrote it (the caller then renders the transcript instead).
 */
export function decodeDerivedTranscript(stored: StoredDerivedTranscript): DerivedTranscript {
  const { files: blob } = stored;
  const files: DerivedTranscript['files'] = {};
  for (let at = 0; at < blob.length;) {
    if (at + FILE_HEADER_BYTES > blob.length) throw new Error('a derived transcript ends early');
    const format = FORMAT_OF_CODE.get(blob.readUInt8(at)) as TranscriptFileFormat | undefined;
    const length = blob.readUInt32LE(at + 45);
    const dataStart = at + FILE_HEADER_BYTES;
    if (format === undefined || dataStart + length > blob.length)
      throw new Error('a derived transcript does not read as this version wrote it');
    files[format] = {
      size: blob.readUInt32LE(at + 1),
      crc: blob.readUInt32LE(at + 5),
      sha256: blob.subarray(at + 9, at + 41),
      compressedCrc: blob.readUInt32LE(at + 41),
      data: blob.subarray(dataStart, dataStart + length),
    };
    at = dataStart + length;
  }
  return {
    wordCount: stored.wordCount,
    spokenSeconds: stored.spokenSeconds,
    timed: stored.timed,
    metadata: { title: stored.title, authorName: stored.authorName },
    recordTail: inflateRawSync(stored.recordTail).toString('utf8'),
    files,
  };
}
