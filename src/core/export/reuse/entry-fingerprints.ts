import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import type { Chunking } from '../corpus/chunks';
import { WORD_COUNT_METHOD } from '../corpus/plain-text';
import type { FileFormat } from '../corpus/naming';
import type { ExportVideo } from '../corpus/types';

/**
 * Bump when anything a transcript's files, record or passages are rendered from changes (formats.ts,
 * json-records.ts, chunks.ts, cues.ts, plain-text.ts, json-text.ts, how a stored transcript is read): the
 * next export then renders every file again instead of copying one from an older export.
 * tests/core/export/reuse/entry-fingerprints.test.ts fails, naming this constant, when a rendering changes without it.
 */
export const RENDERING_VERSION = 1;

/** The corpus numbers of one block: the videos whose lines a streamed entry compresses together. */
export const BLOCK_VIDEOS = 128;

export function blockOf(video: ExportVideo): number {
  return Math.floor((video.number - 1) / BLOCK_VIDEOS);
}

/** Fingerprints are the first 16 bytes of a SHA-256: far beyond any chance collision. */
const FINGERPRINT_BYTES = 16;

function digest(hash: Hash): Buffer {
  return hash.digest().subarray(0, FINGERPRINT_BYTES);
}

/**
 * What each entry of a video is made from, as a fingerprint: equal fingerprints mean equal bytes, so an
 * entry of an earlier export with the same name and fingerprint may be copied. Every fingerprint covers
 * the rendering (RENDERING_VERSION, the tool's version, the ICU that counts words) and the compression
 * (zlib's version and level),
 * then only what that entry reads: txt, srt and vtt the transcript alone, so a sync that changes a
 * video's listing leaves them as they were; json and the record the listing too; passages the chunk
 * settings. A video whose transcript has no `contentKey` has none, and is always rendered.
 */
export class EntryFingerprints {
  readonly #base: string;
  readonly #chunking: readonly number[];
  /** The fingerprints of the last video asked about: its files are asked about one after another. */
  #last: { video: ExportVideo; content?: Buffer; record?: Buffer } | undefined;

  constructor(toolVersion: string, compressionLevel: number, chunking: Chunking) {
    // The ICU that counts words: a word count is only copied from an export that counted it alike.
    this.#base = JSON.stringify([
      RENDERING_VERSION,
      toolVersion,
      process.versions.zlib,
      compressionLevel,
      WORD_COUNT_METHOD.icu,
    ]);
    this.#chunking = [chunking.targetSeconds, chunking.overlapSeconds];
  }

  /** The fingerprint of the video's file in `format`. */
  file(format: FileFormat, video: ExportVideo): Buffer | undefined {
    if (format === 'json') return this.record(video);
    const content = this.#content(video);
    if (content === undefined) return undefined;
    const slice = CONTENT_SLICES[format] * FINGERPRINT_BYTES;
    return content.subarray(slice, slice + FINGERPRINT_BYTES);
  }

  /** The fingerprint of the video's record: its json file and its line of transcripts.jsonl. */
  record(video: ExportVideo): Buffer | undefined {
    if (video.contentKey === undefined) return undefined;
    const last = this.#lastFor(video);
    if (last.record !== undefined) return last.record;
    const { listing } = video;
    const inputs = [
      this.#base,
      'record',
      video.contentKey,
      video.number,
      video.videoId,
      video.title,
      video.source,
      video.position ?? null,
      listing?.channelId ?? null,
      listing?.channelTitle ?? null,
      listing?.published ?? null,
      listing?.durationSeconds ?? null,
      listing?.viewCount ?? null,
      video.listedAt ?? null,
      video.language ?? null,
      video.requestedLanguage ?? null,
      video.fetchedAt ?? null,
    ];
    last.record = digest(createHash('sha256').update(JSON.stringify(inputs)));
    return last.record;
  }

  /** The fingerprint of the video's lines of chunks.jsonl. */
  chunks(video: ExportVideo): Buffer | undefined {
    if (video.contentKey === undefined) return undefined;
    const { videoId, title, language } = video;
    const inputs = [this.#base, 'chunks', this.#chunking, video.contentKey, videoId, title, language ?? null];
    return digest(createHash('sha256').update(JSON.stringify(inputs)));
  }

  /**
   * What the transcript alone makes (txt, srt, vtt), one SHA-512 for the three: each format's
   * fingerprint is a slice of its own.
   */
  #content(video: ExportVideo): Buffer | undefined {
    if (video.contentKey === undefined) return undefined;
    const last = this.#lastFor(video);
    last.content ??= createHash('sha512')
      .update(JSON.stringify([this.#base, 'content', video.contentKey]))
      .digest();
    return last.content;
  }

  #lastFor(video: ExportVideo): { video: ExportVideo; content?: Buffer; record?: Buffer } {
    if (this.#last?.video !== video) this.#last = { video };
    return this.#last;
  }
}

/** Which 16 bytes of a transcript's SHA-512 fingerprint each of its own formats. */
const CONTENT_SLICES: Record<Exclude<FileFormat, 'json'>, number> = { txt: 0, srt: 1, vtt: 2 };

/**
 * The fingerprint of a sequence of parts (a block's videos, a stream's blocks), each with its number;
 * none when a part has none.
 */
export class SequenceFingerprint {
  readonly #hash = createHash('sha256');
  #known = true;

  add(index: number, fingerprint: Buffer | undefined): void {
    if (fingerprint === undefined) {
      this.#known = false;
      return;
    }
    const position = Buffer.alloc(8);
    position.writeDoubleLE(index);
    this.#hash.update(position).update(fingerprint);
  }

  digest(): Buffer | undefined {
    return this.#known ? digest(this.#hash) : undefined;
  }
}
