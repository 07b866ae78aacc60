import { resolve } from 'node:path';
import { ITEM_STATUS } from '../../shared/vocabulary';
import { DEFAULT_CHUNKING } from './corpus/chunks';
import { renderCitation } from './corpus/citation';
import { CompositionTally } from './corpus/composition';
import { renderDataPackage } from './corpus/data-package';
import { renderDatasheet } from './corpus/datasheet';
import { renderManifest } from './corpus/manifest';
import { FILE_FORMATS, StemNamer } from './corpus/naming';
import { CORPUS_ENTRY } from './corpus/schema';
import {
  CHANGES_CSV_HEADER,
  changeRow,
  csvHeader,
  errorsCsv,
  INDEX_CSV_HEADER,
  indexRow,
  MEMBERSHIPS_CSV_HEADER,
  membershipRow,
} from './corpus/tables';
import { EXPORT_FORMATS } from './corpus/types';
import type { ExportFormat, ExportInput, ExportOptions, ExportResult, ExportVideo } from './corpus/types';
import { ExportInterruptedError, toExportError, VideoReadError } from './errors';
import { BlockPlan, BlockStream } from './reuse/block-streams';
import { isIntact, readCommentRecord, recordComment } from './reuse/comment-record';
import type { CommentRecord } from './reuse/comment-record';
import { ContentsFingerprint, CorpusFingerprint, VideoListFingerprint } from './reuse/corpus-fingerprint';
import { EntryFingerprints } from './reuse/entry-fingerprints';
import { PreviousCorpus } from './reuse/previous-corpus';
import { VideoFiles } from './video-files';
import type { VideoSettings } from './video-files';
import { AtomicZipFile, COMPRESSION_LEVEL } from './zip/writer';
import type { SpooledEntry } from './zip/writer';

/** The entries besides the videos' files: the tables, the datasheet, the records... (a dozen), with room to spare. */
const OTHER_ENTRIES = 32;

/** What the export is asked to write, worked out once: formats, passages and the fingerprints of entries. */
interface CorpusSettings extends VideoSettings {
  withChunks: boolean;
  /** The fingerprints of each block of transcripts.jsonl and chunks.jsonl, gathered by the first pass. */
  recordPlan: BlockPlan;
  chunkPlan: BlockPlan;
}

/** What the first pass and the entries listed before the videos leave for the second pass. */
interface Head {
  /** The input as the version it is (ExportInput.release). */
  corpus: ExportInput;
  /** README.md and index.csv, listed already, written by the second pass. */
  readme: SpooledEntry;
  index: SpooledEntry;
  /** The fingerprint of the videos the first pass read, and of everything the corpus is written from. */
  plannedVideos: Buffer | undefined;
  fingerprint: Buffer | undefined;
}

/**
 * Writes the corpus ZIP described in docs/product.md ("ZIP layout") to `outPath`.
 *
 * Entries are listed in a fixed order: manifest.json, README.md, CITATION.cff, datapackage.json,
 * index.csv, errors.csv, memberships.csv, changes.csv, then, video by video, the files of each format
 * asked for (txt, json, srt, vtt), then transcripts.jsonl, chunks.jsonl (with the 'chunks' format) and
 * SHA256SUMS last.
 *
 * Memory stays flat, and each transcript is read once: errors.csv streams from a pass over
 * `input.videos()` that reads no transcript content, which also fingerprints what the corpus holds,
 * so that `input.release` names its version before the entries that give it are written; a second
 * pass writes the files while it fills index.csv (whose word counts and file names come from the
 * transcripts), transcripts.jsonl and chunks.jsonl in spool files beside the ZIP, and gathers the
 * composition README.md reports. README.md and index.csv are listed where they belong, though their
 * data is stored after the files (a ZIP's central directory, which readers show, may list entries in
 * any order). The same input always gives the same bytes.
 *
 * When `outPath` holds an export of the same inputs, whole (reuse/comment-record.ts), it is this corpus
 * byte for byte and is left as it is. When it holds another earlier export, what that holds unchanged
 * is copied from it (video-files.ts, reuse/block-streams.ts), and the result is the same bytes as an
 * export written from scratch.
 *
 * The ZIP appears at `outPath` only when complete; on any failure the temporary files are deleted, an
 * existing file at `outPath` is left as it was, and an ExportError says what to do.
 */
export async function writeCorpus(
  input: ExportInput,
  outPath: string,
  options: ExportOptions = {},
): Promise<ExportResult> {
  const { signal } = options;
  const targetPath = resolve(outPath);
  const settings = settingsOf(input);
  let zip: AtomicZipFile;
  try {
    zip = await AtomicZipFile.create(targetPath, { checksums: CORPUS_ENTRY.checksums });
  } catch (error) {
    throw toExportError(targetPath, error);
  }
  // What an earlier export left at the target stays there, untouched, until the new ZIP replaces it.
  const recorded = await readCommentRecord(targetPath);
  let previous: PreviousCorpus | undefined;
  try {
    const head = await writeHead(zip, input, settings, signal);
    // An export from the same inputs is there, whole: it is this corpus, byte for byte, and stays.
    if (recorded !== undefined && (await isUnchanged(targetPath, recorded, head.fingerprint))) {
      await zip.discard();
      const { record, size } = recorded;
      return { path: targetPath, bytes: size, entries: record.entries, copied: record.files, written: 0 };
    }
    const maxEntries = input.manifest.counts.videos * FILE_FORMATS.length + OTHER_ENTRIES;
    previous = await PreviousCorpus.open(targetPath, maxEntries);
    const written = await writeVideos(zip, input, settings, head, previous, options);
    signal?.throwIfAborted();
    // Closed first: a file still open cannot be replaced on Windows.
    await previous?.close();
    const { counts, videos } = written;
    // Recorded only when both passes read the same videos (nothing changed the job in between).
    const same = head.plannedVideos !== undefined && videos?.equals(head.plannedVideos) === true;
    const files = counts.copied + counts.written;
    const { fingerprint } = head;
    const { bytes, entries } = await zip.commit(
      same && fingerprint !== undefined ? recordComment({ fingerprint, files }) : undefined,
    );
    return { path: targetPath, bytes, entries, ...counts };
  } catch (error) {
    await previous?.close();
    await zip.discard();
    if (signal?.aborted) throw new ExportInterruptedError(targetPath);
    throw toExportError(targetPath, error);
  }
}

function settingsOf(input: ExportInput): CorpusSettings {
  // By default the four file formats; passages only when asked for.
  const wanted: readonly ExportFormat[] = input.formats ?? FILE_FORMATS;
  const formats = EXPORT_FORMATS.filter((format) => wanted.includes(format));
  const chunking = input.chunking ?? DEFAULT_CHUNKING;
  const fingerprints = new EntryFingerprints(input.manifest.tool.version, COMPRESSION_LEVEL, chunking);
  return {
    formats,
    chunking,
    fingerprints,
    withChunks: formats.includes('chunks'),
    recordPlan: new BlockPlan((video) => fingerprints.record(video)),
    chunkPlan: new BlockPlan((video) => fingerprints.chunks(video)),
  };
}

/**
 * The first pass and the entries listed before the videos' files. The pass that writes errors.csv
 * reads no transcript; it also gathers the fingerprints of the blocks and of the corpus's contents.
 * errors.csv and memberships.csv wait in spools until the entries listed before them, which name the
 * version these contents make, are written.
 */
async function writeHead(
  zip: AtomicZipFile,
  input: ExportInput,
  settings: CorpusSettings,
  signal: AbortSignal | undefined,
): Promise<Head> {
  const { recordPlan, chunkPlan, withChunks } = settings;
  const contentsFingerprint = new ContentsFingerprint(input);
  const videos = new VideoListFingerprint();
  const errors = await zip.spool(CORPUS_ENTRY.errors);
  const planned = noting(readVideos(input, signal), (video) => {
    videos.add(video);
    if (video.status !== ITEM_STATUS.ok) return;
    recordPlan.note(video);
    if (withChunks) chunkPlan.note(video);
  });
  for (const text of errorsCsv(planned, input.failedSources)) await errors.write(text);
  const membershipsTable = await zip.spool(CORPUS_ENTRY.memberships);
  const memberships = noting(input.memberships?.() ?? [], (row) => contentsFingerprint.membership(row));
  for (const text of withHeader(MEMBERSHIPS_CSV_HEADER, memberships, membershipRow)) {
    await membershipsTable.write(text);
  }
  const plannedVideos = videos.digest();
  const contents = contentsFingerprint.digest(plannedVideos);
  const corpus = asReleased(input, contents);

  await zip.add(CORPUS_ENTRY.manifest, renderManifest(corpus.manifest, corpus.syncs));
  const readme = await zip.spool(CORPUS_ENTRY.datasheet, { listNow: true });
  await zip.add(CORPUS_ENTRY.citation, renderCitation(corpus));
  await zip.add(CORPUS_ENTRY.dataPackage, renderDataPackage(corpus, withChunks));
  const index = await zip.spool(CORPUS_ENTRY.index, { listNow: true });
  await zip.addSpooled(errors);
  await zip.addSpooled(membershipsTable);
  const corpusFingerprint =
    contents === undefined ? undefined : new CorpusFingerprint(contents, corpus, COMPRESSION_LEVEL);
  const changes = noting(corpus.changes?.() ?? [], (row) => corpusFingerprint?.change(row));
  await zip.addStreamed(CORPUS_ENTRY.changes, withHeader(CHANGES_CSV_HEADER, changes, changeRow));
  return { corpus, readme, index, plannedVideos, fingerprint: corpusFingerprint?.digest() };
}

/**
 * The second pass: each video's files (video-files.ts) and its row of index.csv, then README.md (whose
 * composition the pass tallied), index.csv, transcripts.jsonl and chunks.jsonl. Gives how many files
 * were copied and written, and the fingerprint of the videos it read.
 */
async function writeVideos(
  zip: AtomicZipFile,
  input: ExportInput,
  settings: CorpusSettings,
  { corpus, readme, index }: Head,
  previous: PreviousCorpus | undefined,
  { signal, onProgress }: ExportOptions,
): Promise<{ counts: { copied: number; written: number }; videos: Buffer | undefined }> {
  const { formats, chunking, withChunks } = settings;
  const transcripts = await BlockStream.start(zip, CORPUS_ENTRY.transcripts, settings.recordPlan, previous);
  const chunks = withChunks
    ? await BlockStream.start(zip, CORPUS_ENTRY.chunks, settings.chunkPlan, previous)
    : undefined;
  const files = new VideoFiles(zip, settings, previous, { transcripts, chunks });
  const videos = new VideoListFingerprint();
  await index.write(csvHeader(INDEX_CSV_HEADER));
  const namer = new StemNamer(input.nameTemplate);
  const tally = new CompositionTally(input.manifest.sources);
  const progress = { done: 0, total: input.manifest.counts.videos };
  for (const video of readVideos(input, signal)) {
    videos.add(video);
    progress.done += 1;
    onProgress?.(progress);
    if (video.status !== ITEM_STATUS.ok) {
      tally.add(video, undefined);
      await index.write(indexRow(video, undefined));
      continue;
    }
    // Every ok video takes a stem, even one left without subtitles, so stems never depend on formats.
    const { facts, paths } = await files.write(video, namer.stemFor(video));
    await index.write(indexRow(video, { wordCount: facts.wordCount, files: paths }));
    tally.add(video, { words: facts.wordCount, seconds: facts.spokenSeconds, timed: facts.timed });
  }
  await readme.write(renderDatasheet(corpus, formats, chunking, tally));
  await zip.addSpooled(readme);
  await zip.addSpooled(index);
  const counts = { ...files.counts };
  for (const stream of chunks === undefined ? [transcripts] : [transcripts, chunks]) {
    const { copied } = await stream.finish();
    counts[copied ? 'copied' : 'written'] += 1;
  }
  return { counts, videos: videos.digest() };
}

/**
 * The caller's videos, with a failure of its iterator marked as such (not a disk problem), and the
 * export stopped between two videos once `signal` aborts.
 */
function* readVideos(input: ExportInput, signal: AbortSignal | undefined): Generator<ExportVideo> {
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

/** A CSV table: its header, then a row for each of `rows` (none when there are none). */
function* withHeader<T>(
  header: readonly string[],
  rows: Iterable<T> | undefined,
  row: (value: T) => string,
): Generator<string> {
  yield csvHeader(header);
  for (const value of rows ?? []) yield row(value);
}

/** The values, each handed to `note` as it passes. */
function* noting<T>(values: Iterable<T>, note: (value: T) => void): Generator<T> {
  for (const value of values) {
    note(value);
    yield value;
  }
}

/**
 * `input` as the version it is: with ExportInput.release, the version its contents make, with that
 * version's history and changes (released now, or as they were released); else as given.
 */
function asReleased(input: ExportInput, contents: Buffer | undefined): ExportInput {
  const release = input.release?.(contents?.toString('hex'));
  if (release === undefined) return input;
  return {
    ...input,
    manifest: {
      ...input.manifest,
      version: release.version,
      versions: release.versions,
      finished_at: release.finishedAt,
      credits_spent: release.creditsSpent,
      credits_possible: release.creditsPossible,
    },
    syncs: release.syncs,
    changes: () => release.changes(),
  };
}

/** Whether the file at `path` holds an export of the inputs `fingerprint` names, every byte as written. */
async function isUnchanged(
  path: string,
  { record, commentStart }: { record: CommentRecord; commentStart: number },
  fingerprint: Buffer | undefined,
): Promise<boolean> {
  return (
    fingerprint !== undefined &&
    record.fingerprint.equals(fingerprint) &&
    isIntact(path, record, commentStart)
  );
}
