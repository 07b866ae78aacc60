import { ITEM_STATUS } from '../../shared/vocabulary';
import { CompositionTally } from './corpus/composition';
import { renderDatasheet } from './corpus/datasheet';
import { StemNamer } from './corpus/naming';
import { CORPUS_ENTRY } from './corpus/schema';
import { csvHeader, INDEX_CSV_HEADER, indexRow } from './corpus/tables';
import type { ExportInput, ExportOptions, ExportVideo } from './corpus/types';
import { VideoReadError } from './errors';
import type { BlockPlan } from './reuse/block-streams';
import { BlockStream } from './reuse/block-streams';
import { VideoListFingerprint } from './reuse/corpus-fingerprint';
import type { PreviousCorpus } from './reuse/previous-corpus';
import { VideoFiles } from './video-files';
import type { VideoSettings } from './video-files';
import type { AtomicZipFile, SpooledEntry } from './zip/writer';

/** What a pass that writes the videos is asked to write: their formats, passages, and the blocks' plans. */
export interface PassSettings extends VideoSettings {
  withChunks: boolean;
  recordPlan: BlockPlan;
  chunkPlan: BlockPlan;
}

/** What a pass does besides writing the videos' files and index.csv, video by video. */
export interface PassHooks {
  /** A video that is not ok, before its row of index.csv. */
  notOk?(video: ExportVideo): Promise<void>;
  /** An ok video, once its files are written. */
  written?(video: ExportVideo): void;
}

/**
 * A pass over the videos that writes each ok video's files (video-files.ts, copying what `previous`
 * holds unchanged) and its lines of transcripts.jsonl and chunks.jsonl, fills index.csv, tallies the
 * composition README.md reports and fingerprints the videos it read. Memory stays flat: every table
 * waits in a spool file beside the ZIP.
 */
export class VideoPass {
  readonly #zip: AtomicZipFile;
  readonly #settings: PassSettings;
  readonly #index: SpooledEntry;
  readonly #files: VideoFiles;
  readonly #streams: BlockStream[];
  readonly #videos = new VideoListFingerprint();
  #tally: CompositionTally | undefined;

  private constructor(
    zip: AtomicZipFile,
    settings: PassSettings,
    index: SpooledEntry,
    files: VideoFiles,
    streams: BlockStream[],
  ) {
    this.#zip = zip;
    this.#settings = settings;
    this.#index = index;
    this.#files = files;
    this.#streams = streams;
  }

  /** Starts the streams and index.csv (`index`, spooled by the caller). */
  static async start(
    zip: AtomicZipFile,
    settings: PassSettings,
    index: SpooledEntry,
    previous: PreviousCorpus | undefined,
  ): Promise<VideoPass> {
    const transcripts = await BlockStream.start(zip, CORPUS_ENTRY.transcripts, settings.recordPlan, previous);
    const chunks = settings.withChunks
      ? await BlockStream.start(zip, CORPUS_ENTRY.chunks, settings.chunkPlan, previous)
      : undefined;
    const files = new VideoFiles(zip, settings, previous, { transcripts, chunks });
    await index.write(csvHeader(INDEX_CSV_HEADER));
    const streams = chunks === undefined ? [transcripts] : [transcripts, chunks];
    return new VideoPass(zip, settings, index, files, streams);
  }

  /** Writes every video, in the order given, telling `hooks` and `onProgress`. */
  async run(input: ExportInput, { signal, onProgress }: ExportOptions, hooks: PassHooks = {}): Promise<void> {
    const namer = new StemNamer(input.nameTemplate);
    const tally = new CompositionTally(input.manifest.sources);
    this.#tally = tally;
    const progress = { done: 0, total: input.manifest.counts.videos };
    for (const video of readVideos(input, signal)) {
      this.#videos.add(video);
      progress.done += 1;
      onProgress?.(progress);
      if (video.status !== ITEM_STATUS.ok) {
        await hooks.notOk?.(video);
        tally.add(video, undefined);
        await this.#index.write(indexRow(video, undefined));
        continue;
      }
      // Every ok video takes a stem, even one left without subtitles, so stems never depend on formats.
      const { facts, paths } = await this.#files.write(video, namer.stemFor(video));
      hooks.written?.(video);
      await this.#index.write(indexRow(video, { wordCount: facts.wordCount, files: paths }));
      tally.add(video, { words: facts.wordCount, seconds: facts.spokenSeconds, timed: facts.timed });
    }
  }

  /** The fingerprint of the videos the pass read (none when one of them has none). */
  videos(): Buffer | undefined {
    return this.#videos.digest();
  }

  /**
   * Stores README.md (the datasheet of `corpus`, with the composition the pass tallied), index.csv,
   * transcripts.jsonl and chunks.jsonl; gives how many of the videos' files and streams were copied
   * from the earlier export and how many written.
   */
  async finish(readme: SpooledEntry, corpus: ExportInput): Promise<{ copied: number; written: number }> {
    const { formats, chunking } = this.#settings;
    if (this.#tally === undefined) throw new Error('the pass over the videos has not run');
    await readme.write(renderDatasheet(corpus, formats, chunking, this.#tally));
    await this.#zip.addSpooled(readme);
    await this.#zip.addSpooled(this.#index);
    const counts = { ...this.#files.counts };
    for (const stream of this.#streams) {
      const { copied } = await stream.finish();
      counts[copied ? 'copied' : 'written'] += 1;
    }
    return counts;
  }
}

/**
 * The caller's videos, with a failure of its iterator marked as such (not a disk problem), and the
 * export stopped between two videos once `signal` aborts.
 */
export function* readVideos(input: ExportInput, signal: AbortSignal | undefined): Generator<ExportVideo> {
  let videos: Iterator<ExportVideo>;
  try {
    videos = input.videos()[Symbol.iterator]();
  } catch (error) {
    throw new VideoReadError(error);
  }
  for (;;) {
    signal?.throwIfAborted();
    let next: IteratorResult<ExportVideo>;
    try {
      next = videos.next();
    } catch (error) {
      throw new VideoReadError(error);
    }
    if (next.done === true) return;
    yield next.value;
  }
}
