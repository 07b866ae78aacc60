import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { ITEM_STATUS } from '../../shared/vocabulary';
import { RENDERING_VERSION } from './fingerprints';
import type { ExportChange, ExportInput, ExportMembership, ExportVideo } from './types';

/**
 * Bump when anything a corpus holds besides a transcript's own files is written differently: the
 * tables, the datasheet, the manifest, the citation, the data package, the checksums, the order or the
 * headers of the entries. An export compares a fingerprint of its inputs with the one the earlier
 * export at its path recorded, and keeps that file as it is when they match: without a new version, a
 * change to what is written would never reach a corpus whose job did not change.
 * tests/core/export/corpus-fingerprint.test.ts fails, naming this constant, when a corpus changes without it.
 */
export const CORPUS_VERSION = 2;

/** The first 16 bytes of a SHA-256, as the entries' fingerprints (fingerprints.ts). */
const FINGERPRINT_BYTES = 16;

/** What a video's transcript says: its key names it whole (ExportVideo.contentKey). */
type ContentField = 'segments' | 'metadata';
/** Every other field of a video, each required here, so that a field added to ExportVideo must be added. */
type VideoInputs = { [Field in Exclude<keyof ExportVideo, ContentField>]-?: ExportVideo[Field] | null };

/** The input's settings (its every field but the three that give rows), each required for the same reason. */
type InputSettings = {
  [Field in Exclude<keyof ExportInput, 'videos' | 'memberships' | 'changes'>]-?: ExportInput[Field] | null;
};

function settingsOf(input: ExportInput): InputSettings {
  return {
    manifest: input.manifest,
    formats: input.formats ?? null,
    nameTemplate: input.nameTemplate ?? null,
    failedSources: input.failedSources ?? null,
    citation: input.citation ?? null,
    chunking: input.chunking ?? null,
    syncs: input.syncs ?? null,
    filters: input.filters ?? null,
    languages: input.languages ?? null,
    skippedByFilter: input.skippedByFilter ?? null,
    sourceDetails: input.sourceDetails ?? null,
  };
}

function inputsOf(video: ExportVideo): VideoInputs {
  return {
    number: video.number,
    videoId: video.videoId,
    title: video.title,
    position: video.position ?? null,
    currentPosition: video.currentPosition ?? null,
    source: video.source,
    status: video.status,
    language: video.language ?? null,
    segmentCount: video.segmentCount ?? null,
    httpStatus: video.httpStatus ?? null,
    code: video.code ?? null,
    message: video.message ?? null,
    listing: video.listing ?? null,
    listedAt: video.listedAt ?? null,
    memberOf: video.memberOf ?? null,
    requestedLanguage: video.requestedLanguage ?? null,
    fetchedAt: video.fetchedAt ?? null,
    contentKey: video.contentKey ?? null,
  };
}

/** One JSON value per line, after a tag: no two different sequences hash alike. */
function addLine(hash: Hash, tag: string, value: unknown): void {
  hash.update(`${tag} ${JSON.stringify(value)}\n`);
}

/**
 * The videos of one pass, in the order given. A video without a contentKey leaves the list without a
 * fingerprint (its transcript cannot be named), as it leaves its files without one.
 */
export class VideoListFingerprint {
  readonly #hash = createHash('sha256');
  #known = true;
  /** Lines not yet hashed: a call to the hash per video cost more than the hashing. */
  #pending = '';

  add(video: ExportVideo): void {
    if (video.status === ITEM_STATUS.ok && video.contentKey === undefined) this.#known = false;
    // The values alone, in VideoInputs' order: the keys would only make each line longer to hash.
    this.#pending += `${JSON.stringify(Object.values(inputsOf(video)))}\n`;
    if (this.#pending.length >= PENDING_LENGTH) this.#flush();
  }

  digest(): Buffer | undefined {
    this.#flush();
    const digest = this.#hash.digest();
    return this.#known ? digest : undefined;
  }

  #flush(): void {
    this.#hash.update(this.#pending);
    this.#pending = '';
  }
}

const PENDING_LENGTH = 64 * 1024;

/**
 * A fingerprint of everything a corpus is written from: the rendering (CORPUS_VERSION,
 * RENDERING_VERSION, the tool's version, zlib's version and level), the input's settings, every video
 * (VideoListFingerprint) and the rows of memberships.csv and changes.csv. Equal fingerprints mean
 * equal corpora, byte for byte: an export writes the same bytes for the same input.
 */
export class CorpusFingerprint {
  readonly #hash = createHash('sha256');

  constructor(input: ExportInput, compressionLevel: number) {
    addLine(this.#hash, 'rendering', [
      CORPUS_VERSION,
      RENDERING_VERSION,
      input.manifest.tool.version,
      process.versions.zlib,
      compressionLevel,
    ]);
    addLine(this.#hash, 'settings', settingsOf(input));
  }

  membership(row: ExportMembership): void {
    addLine(this.#hash, 'membership', row);
  }

  change(row: ExportChange): void {
    addLine(this.#hash, 'change', row);
  }

  /** The fingerprint, given the videos' (none when they have none). */
  digest(videos: Buffer | undefined): Buffer | undefined {
    if (videos === undefined) return undefined;
    return this.#hash.update(videos).digest().subarray(0, FINGERPRINT_BYTES);
  }
}
