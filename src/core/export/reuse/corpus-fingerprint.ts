import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { ITEM_STATUS } from '../../../shared/vocabulary';
import { RENDERING_VERSION } from './entry-fingerprints';
import type {
  ExportChange,
  ExportInput,
  ExportManifest,
  ExportMembership,
  ExportVideo,
} from '../corpus/types';

/**
 * Bump when anything a corpus holds besides a transcript's own files is written differently: the
 * tables, the datasheet, the manifest, the citation, the data package, the checksums, the order or the
 * headers of the entries. An export compares a fingerprint of its inputs with the one the earlier
 * export at its path recorded, and keeps that file as it is when they match: without a new version, a
 * change to what is written would never reach a corpus whose job did not change.
 * tests/core/export/reuse/corpus-fingerprint.test.ts fails, naming this constant, when a corpus changes without it.
 */
export const CORPUS_VERSION = 4;

/** The first 16 bytes of a SHA-256, as the entries' fingerprints (entry-fingerprints.ts). */
const FINGERPRINT_BYTES = 16;

/** What a video's transcript says: its key names it whole (ExportVideo.contentKey). */
type ContentField = 'segments' | 'metadata';
/** Every other field of a video, each required here, so that a field added to ExportVideo must be added. */
type VideoInputs = { [Field in Exclude<keyof ExportVideo, ContentField>]-?: ExportVideo[Field] | null };

/**
 * What is not the corpus's contents: the rows of three tables (hashed as they stream), its version,
 * and the job's history as the version gives it (finish time, credits, syncs; ExportInput.release).
 */
type NotContents = 'videos' | 'memberships' | 'changes' | 'release' | 'syncs';
type VersionFields = 'version' | 'versions' | 'finished_at' | 'credits_spent' | 'credits_possible';

/** The input's settings (its every field but those), each required, so that a field added must be added here. */
type InputSettings = {
  [Field in Exclude<keyof ExportInput, NotContents | 'manifest'>]-?: ExportInput[Field] | null;
} & { manifest: Omit<ExportManifest, VersionFields> };

function settingsOf(input: ExportInput): InputSettings {
  const {
    version: _version,
    versions: _versions,
    finished_at: _finishedAt,
    credits_spent: _creditsSpent,
    credits_possible: _creditsPossible,
    ...manifest
  } = input.manifest;
  return {
    manifest,
    formats: input.formats ?? null,
    nameTemplate: input.nameTemplate ?? null,
    failedSources: input.failedSources ?? null,
    citation: input.citation ?? null,
    chunking: input.chunking ?? null,
    filters: input.filters ?? null,
    languages: input.languages ?? null,
    skippedByFilter: input.skippedByFilter ?? null,
    sourceDetails: input.sourceDetails ?? null,
  };
}

/** The version and the job's history, as the corpus writes them (after ExportInput.release). */
function versionOf(input: ExportInput): unknown {
  const { version, versions, finished_at, credits_spent, credits_possible } = input.manifest;
  return [version, versions, finished_at, credits_spent, credits_possible, input.syncs ?? null];
}

function inputsOf(video: ExportVideo): VideoInputs {
  return {
    number: video.number,
    videoId: video.videoId,
    title: video.title,
    position: video.position ?? null,
    latestRead: video.latestRead ?? null,
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
 * A fingerprint of what a corpus holds: what it is written by (CORPUS_VERSION, RENDERING_VERSION, the
 * tool's version), the input's settings, every video (VideoListFingerprint) and the rows of
 * memberships.csv; not its version, the job's history, changes.csv nor how it is compressed. Equal
 * fingerprints mean a corpus whose files say the same but for those: the same version of it
 * (store/versions.ts releases a new one when they differ).
 */
export class ContentsFingerprint {
  readonly #hash = createHash('sha256');

  constructor(input: ExportInput) {
    addLine(this.#hash, 'rendering', [CORPUS_VERSION, RENDERING_VERSION, input.manifest.tool.version]);
    addLine(this.#hash, 'settings', settingsOf(input));
  }

  membership(row: ExportMembership): void {
    addLine(this.#hash, 'membership', row);
  }

  /** The fingerprint, given the videos' (none when they have none). */
  digest(videos: Buffer | undefined): Buffer | undefined {
    if (videos === undefined) return undefined;
    return this.#hash.update(videos).digest().subarray(0, FINGERPRINT_BYTES);
  }
}

/**
 * A fingerprint of everything a corpus is written from: its contents (ContentsFingerprint), how they
 * are compressed (zlib's version and level), its version with the job's history, and the rows of
 * changes.csv. Equal fingerprints mean equal corpora, byte for byte: an export writes the same bytes
 * for the same input (comment-record.ts).
 */
export class CorpusFingerprint {
  readonly #hash = createHash('sha256');

  /** `input` as written: its version and history named (ExportInput.release). */
  constructor(contents: Buffer, input: ExportInput, compressionLevel: number) {
    addLine(this.#hash, 'contents', contents.toString('hex'));
    addLine(this.#hash, 'compression', [process.versions.zlib, compressionLevel]);
    addLine(this.#hash, 'version', versionOf(input));
  }

  change(row: ExportChange): void {
    addLine(this.#hash, 'change', row);
  }

  digest(): Buffer {
    return this.#hash.digest().subarray(0, FINGERPRINT_BYTES);
  }
}
