import type { Chunking } from './corpus/chunks';
import { chunkLines, recordTexts, renderTranscript } from './corpus/formats';
import type { RecordTexts, RenderedTranscript } from './corpus/formats';
import { entryPath, FILE_FORMATS } from './corpus/naming';
import type { FileFormat } from './corpus/naming';
import type { ExportFormat, ExportVideo } from './corpus/types';
import type { BlockStream } from './reuse/block-streams';
import type { EntryFingerprints } from './reuse/entry-fingerprints';
import type { CopiedFile, PreviousCorpus } from './reuse/previous-corpus';
import { encodeReuseField, reuseFieldFor } from './reuse/reuse-field';
import type { VideoFacts } from './reuse/reuse-field';
import type { CompressedText } from './zip/compression';
import type { AtomicZipFile, CopiedEntry } from './zip/writer';

/** How the corpus's videos are written: the formats asked for and how passages are cut. */
export interface VideoSettings {
  formats: readonly ExportFormat[];
  chunking: Chunking;
  fingerprints: EntryFingerprints;
}

/**
 * What an ok video puts in the corpus: its facts, its files (a text to compress, or compressed ahead)
 * and its lines of transcripts.jsonl and chunks.jsonl (none when no block being written needs them).
 */
interface VideoContents {
  facts: VideoFacts;
  files: ReadonlyMap<FileFormat, string | CompressedText>;
  record: string | undefined;
  chunks: readonly string[];
}

/** A file a video may have, with the fingerprint of what it is made from (none: always rendered). */
interface Candidate {
  format: FileFormat;
  path: string;
  fingerprint: Buffer | undefined;
}

/**
 * Writes each ok video's files, and its lines of transcripts.jsonl and chunks.jsonl, into the ZIP: a file
 * the earlier export at the target holds unchanged is copied from it, compressed bytes and all; anything
 * else is rendered. A video is rendered only when something it contributes is missing or changed, and
 * then only its record (its json file, its lines in a block that changed) when its other files are
 * there. Either way the entries are the bytes an export from scratch writes.
 */
export class VideoFiles {
  /** Of the videos' files, how many were copied from the earlier export and how many rendered. */
  readonly counts = { copied: 0, written: 0 };
  readonly #zip: AtomicZipFile;
  readonly #settings: VideoSettings;
  readonly #previous: PreviousCorpus | undefined;
  readonly #transcripts: BlockStream;
  readonly #chunks: BlockStream | undefined;

  constructor(
    zip: AtomicZipFile,
    settings: VideoSettings,
    previous: PreviousCorpus | undefined,
    streams: { transcripts: BlockStream; chunks: BlockStream | undefined },
  ) {
    this.#zip = zip;
    this.#settings = settings;
    this.#previous = previous;
    this.#transcripts = streams.transcripts;
    this.#chunks = streams.chunks;
  }

  /**
   * Writes an ok video's files under `stem`; gives what index.csv and the datasheet need of it (found
   * out by rendering, derived ahead, or brought by the copied files) and the paths of its files.
   */
  async write(video: ExportVideo, stem: string): Promise<{ facts: VideoFacts; paths: string[] }> {
    const { formats, fingerprints } = this.#settings;
    await this.#transcripts.enter(video);
    await this.#chunks?.enter(video);
    const candidates = formats.flatMap((format): Candidate[] =>
      isFileFormat(format)
        ? [{ format, path: entryPath(format, stem), fingerprint: fingerprints.file(format, video) }]
        : [],
    );
    const found = await this.#previousFiles(candidates);
    // Files the previous export holds say what rendering found. A video whose files other than json
    // are all there renders at most its record (its json file, its lines in a block that changed),
    // without counting its words again; any other video is written from what its transcript derived
    // ahead of the export, or rendered whole.
    const expected = candidates.filter(({ format }) => found === undefined || hasFile(format, found.facts));
    const missing = expected.filter(({ format }) => found?.copies.has(format) !== true);
    const contents =
      found !== undefined && missing.every(({ format }) => format === 'json')
        ? this.#recordOnly(video, found.facts, missing.length > 0 || this.#needsLines)
        : this.#whole(video);
    const paths = await this.#addFiles(candidates, contents, found?.copies);
    await this.#writeLines(contents);
    return { facts: contents.facts, paths };
  }

  /** Whether the block being written of either stream needs this video's lines (it is not copied). */
  get #needsLines(): boolean {
    return this.#transcripts.needsLines || this.#chunks?.needsLines === true;
  }

  /** Everything the video puts in the corpus: from what its transcript derived ahead, else rendered. */
  #whole(video: ExportVideo): VideoContents {
    const { formats, chunking } = this.#settings;
    const { derived } = video;
    if (derived === undefined) {
      const rendered = renderTranscript(video, formats, chunking);
      return {
        facts: factsOf(rendered),
        files: new Map(rendered.files.map(({ format, content }) => [format, content])),
        record: rendered.record,
        chunks: rendered.chunks,
      };
    }
    const files = new Map<FileFormat, string | CompressedText>(
      Object.entries(derived.files) as Array<[FileFormat, CompressedText]>,
    );
    const record = recordTexts(video, derived.metadata, derived.recordTail);
    files.set('json', record.json);
    const { wordCount, spokenSeconds, timed } = derived;
    return {
      facts: { wordCount, spokenSeconds, timed },
      files,
      record: record.line,
      chunks: formats.includes('chunks') ? chunkLines(video, chunking) : [],
    };
  }

  /**
   * What a video whose other files are copied still needs: its record (its json file, and its lines
   * when `lines` says a block is written), with the facts the copies bring.
   */
  #recordOnly(video: ExportVideo, facts: VideoFacts, needed: boolean): VideoContents {
    const { formats, chunking } = this.#settings;
    if (!needed) return { facts, files: new Map(), record: undefined, chunks: [] };
    const { derived } = video;
    const record =
      derived === undefined
        ? recordOf(renderTranscript(video, ['json'], chunking, { wordCount: facts.wordCount }))
        : recordTexts(video, derived.metadata, derived.recordTail);
    return {
      facts,
      files: new Map([['json', record.json]]),
      record: record.line,
      chunks: formats.includes('chunks') ? chunkLines(video, chunking) : [],
    };
  }

  /** Adds each file the video has, copied when the previous export holds it, else as made. */
  async #addFiles(
    candidates: readonly Candidate[],
    { facts, files }: VideoContents,
    copies: ReadonlyMap<FileFormat, CopiedFile> | undefined,
  ): Promise<string[]> {
    const paths: string[] = [];
    for (const { format, path, fingerprint } of candidates) {
      if (!hasFile(format, facts)) continue;
      paths.push(path);
      const copy = copies?.get(format);
      if (copy !== undefined) {
        await this.#zip.addCopied(path, copy);
        this.counts.copied += 1;
        continue;
      }
      const content = files.get(format);
      if (content === undefined) throw new Error(`${path} was neither copied nor rendered`);
      if (typeof content === 'string') {
        await this.#zip.add(
          path,
          content,
          fingerprint === undefined ? undefined : reuseFieldFor(fingerprint, facts),
        );
      } else {
        await this.#zip.addCopied(path, derivedEntry(content, fingerprint, facts));
      }
      this.counts.written += 1;
    }
    return paths;
  }

  /** The video's lines of the streams whose block is written, not copied. */
  async #writeLines({ record, chunks }: VideoContents): Promise<void> {
    if (record !== undefined && this.#transcripts.needsLines) await this.#transcripts.write(record);
    if (this.#chunks?.needsLines === true) {
      for (const line of chunks) await this.#chunks.write(line);
    }
  }

  /**
   * The video's files that the previous export holds unchanged, with what rendering it found out;
   * undefined when it holds none (or another program's file is there).
   */
  async #previousFiles(
    candidates: readonly Candidate[],
  ): Promise<{ facts: VideoFacts; copies: Map<FileFormat, CopiedFile> } | undefined> {
    if (this.#previous === undefined) return undefined;
    const copies = new Map<FileFormat, CopiedFile>();
    for (const { format, path, fingerprint } of candidates) {
      const copy = fingerprint === undefined ? undefined : await this.#previous.file(path, fingerprint);
      if (copy !== undefined) copies.set(format, copy);
    }
    const facts = copies.values().next().value?.facts;
    return facts === undefined ? undefined : { facts, copies };
  }
}

function isFileFormat(format: ExportFormat): format is FileFormat {
  return (FILE_FORMATS as readonly string[]).includes(format);
}

/** Whether a video with these facts has a file in `format`: srt and vtt need times. */
function hasFile(format: FileFormat, facts: VideoFacts): boolean {
  return facts.timed || format === 'txt' || format === 'json';
}

function factsOf(rendered: RenderedTranscript): VideoFacts {
  return { wordCount: rendered.wordCount, spokenSeconds: rendered.spokenSeconds, timed: rendered.timed };
}

/** The record of a rendering that made its json file. */
function recordOf(rendered: RenderedTranscript): RecordTexts {
  const json = rendered.files.find((file) => file.format === 'json')?.content;
  if (json === undefined) throw new Error('the record was not rendered');
  return { line: rendered.record, json };
}

/**
 * A file its transcript derived ahead, as an entry to copy: its bytes as compressed then, and the reuse
 * field an export that compressed it now would give it.
 */
function derivedEntry(file: CompressedText, fingerprint: Buffer | undefined, facts: VideoFacts): CopiedEntry {
  const { crc, size, sha256, data, compressedCrc } = file;
  const extra =
    fingerprint === undefined
      ? Buffer.alloc(0)
      : encodeReuseField({ fingerprint, sha256, compressedCrc, facts });
  return { crc, size, compressedSize: data.length, sha256, extra, data };
}
