import { resolve } from 'node:path';
import { ITEM_STATUS } from '../../shared/vocabulary';
import { DEFAULT_CHUNKING } from './corpus/chunks';
import { renderCitation } from './corpus/citation';
import { renderDataPackage } from './corpus/data-package';
import { renderManifest } from './corpus/manifest';
import { FILE_FORMATS } from './corpus/naming';
import { CORPUS_ENTRY } from './corpus/schema';
import {
  CHANGES_CSV_HEADER,
  changeRow,
  csvHeader,
  errorRow,
  errorsCsv,
  errorsCsvHead,
  MEMBERSHIPS_CSV_HEADER,
  membershipRow,
} from './corpus/tables';
import { EXPORT_FORMATS } from './corpus/types';
import type { ExportFormat, ExportInput, ExportOptions, ExportResult } from './corpus/types';
import { ExportInterruptedError, toExportError } from './errors';
import { BlockPlan } from './reuse/block-streams';
import { isIntact, readCommentRecord, recordComment } from './reuse/comment-record';
import type { CommentRecord } from './reuse/comment-record';
import { ContentsFingerprint, CorpusFingerprint, VideoListFingerprint } from './reuse/corpus-fingerprint';
import { EntryFingerprints } from './reuse/entry-fingerprints';
import { PreviousCorpus } from './reuse/previous-corpus';
import { readVideos, VideoPass, type PassSettings } from './video-pass';
import { COMPRESSION_LEVEL } from './zip/compression';
import { AtomicZipFile } from './zip/writer';
import type { SpooledEntry } from './zip/writer';

/** The entries besides the videos' files: the tables, the datasheet, the records... (a dozen), with room to spare. */
const OTHER_ENTRIES = 32;

/**
 * What the export is asked to write, worked out once: formats, passages, the fingerprints of entries,
 * and those of each block of transcripts.jsonl and chunks.jsonl, gathered by a pass over the videos.
 */
type CorpusSettings = PassSettings;

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
  const targetPath = resolve(outPath);
  const settings = settingsOf(input);
  // What an earlier export left at the target stays there, untouched, until the new ZIP replaces it.
  const recorded = await readCommentRecord(targetPath);
  const maxEntries = input.manifest.counts.videos * FILE_FORMATS.length + OTHER_ENTRIES;
  const previous = recorded === undefined ? await PreviousCorpus.open(targetPath, maxEntries) : undefined;
  try {
    if (recorded === undefined && previous === undefined) {
      try {
        return await writing(targetPath, options, (zip) => writeInOnePass(zip, input, settings, options));
      } catch (error) {
        // Videos out of corpus order would split a block before one pass could know: two passes do.
        if (!(error instanceof VideosOutOfOrder)) throw error;
      }
    }
    return await writing(targetPath, options, (zip) =>
      writeInTwoPasses(zip, input, settings, { targetPath, recorded, previous }, options),
    );
  } finally {
    await previous?.close();
  }
}

/**
 * Creates the ZIP beside `targetPath` and has `write` write and commit it (or leave the file there);
 * on any failure deletes the temporary files and says what happened as an ExportError.
 */
async function writing(
  targetPath: string,
  { signal }: ExportOptions,
  write: (zip: AtomicZipFile) => Promise<ExportResult>,
): Promise<ExportResult> {
  let zip: AtomicZipFile;
  try {
    zip = await AtomicZipFile.create(targetPath, { checksums: CORPUS_ENTRY.checksums });
  } catch (error) {
    throw toExportError(targetPath, error);
  }
  try {
    return await write(zip);
  } catch (error) {
    await zip.discard();
    if (error instanceof VideosOutOfOrder) throw error;
    if (signal?.aborted) throw new ExportInterruptedError(targetPath);
    throw toExportError(targetPath, error);
  }
}

/** Videos came out of corpus order in a first export's one pass: see writeInOnePass. */
class VideosOutOfOrder extends Error {}

/**
 * An export to a path that holds an earlier export: the pass that writes errors.csv decides whether
 * the file there is this corpus already (then left as it is), and a second pass writes the videos,
 * copying what the earlier export holds unchanged.
 */
async function writeInTwoPasses(
  zip: AtomicZipFile,
  input: ExportInput,
  settings: CorpusSettings,
  earlier: {
    targetPath: string;
    recorded: CommentRecording | undefined;
    previous: PreviousCorpus | undefined;
  },
  options: ExportOptions,
): Promise<ExportResult> {
  const { targetPath, recorded } = earlier;
  const head = await writeHead(zip, input, settings, options.signal);
  // An export from the same inputs is there, whole: it is this corpus, byte for byte, and stays.
  if (recorded !== undefined && (await isUnchanged(targetPath, recorded, head.fingerprint))) {
    await zip.discard();
    const { record, size } = recorded;
    return { path: targetPath, bytes: size, entries: record.entries, copied: record.files, written: 0 };
  }
  const maxEntries = input.manifest.counts.videos * FILE_FORMATS.length + OTHER_ENTRIES;
  const previous = earlier.previous ?? (await PreviousCorpus.open(targetPath, maxEntries));
  try {
    const { counts, videos } = await writeVideos(zip, input, settings, head, previous, options);
    options.signal?.throwIfAborted();
    // Closed first: a file still open cannot be replaced on Windows.
    await previous?.close();
    // Recorded only when both passes read the same videos (nothing changed the job in between).
    const same = head.plannedVideos !== undefined && videos?.equals(head.plannedVideos) === true;
    const files = counts.copied + counts.written;
    const { fingerprint } = head;
    const { bytes, entries } = await zip.commit(
      same && fingerprint !== undefined ? recordComment({ fingerprint, files }) : undefined,
    );
    return { path: targetPath, bytes, entries, ...counts };
  } finally {
    if (earlier.previous === undefined) await previous?.close();
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
  const entries = await writeHeadEntries(zip, corpus, contents, withChunks, {
    errors,
    memberships: membershipsTable,
  });
  return { corpus, plannedVideos, ...entries };
}

/**
 * The entries listed before the videos' files, once the corpus is known as the version it is:
 * manifest.json, README.md and index.csv (listed here, their data stored after the videos' files),
 * CITATION.cff, datapackage.json, errors.csv and memberships.csv (spooled by a pass over the videos),
 * changes.csv. Gives README.md and index.csv, and the fingerprint of everything the corpus is written
 * from (none when its contents have none).
 */
async function writeHeadEntries(
  zip: AtomicZipFile,
  corpus: ExportInput,
  contents: Buffer | undefined,
  withChunks: boolean,
  spooled: { errors: SpooledEntry; memberships: SpooledEntry; index?: SpooledEntry },
): Promise<{ readme: SpooledEntry; index: SpooledEntry; fingerprint: Buffer | undefined }> {
  await zip.add(CORPUS_ENTRY.manifest, renderManifest(corpus.manifest, corpus.syncs));
  const readme = await zip.spool(CORPUS_ENTRY.datasheet, { listNow: true });
  await zip.add(CORPUS_ENTRY.citation, renderCitation(corpus));
  await zip.add(CORPUS_ENTRY.dataPackage, renderDataPackage(corpus, withChunks));
  let { index } = spooled;
  if (index === undefined) index = await zip.spool(CORPUS_ENTRY.index, { listNow: true });
  else await zip.listHere(index);
  await zip.addSpooled(spooled.errors);
  await zip.addSpooled(spooled.memberships);
  const corpusFingerprint =
    contents === undefined ? undefined : new CorpusFingerprint(contents, corpus, COMPRESSION_LEVEL);
  const changes = noting(corpus.changes?.() ?? [], (row) => corpusFingerprint?.change(row));
  await zip.addStreamed(CORPUS_ENTRY.changes, withHeader(CHANGES_CSV_HEADER, changes, changeRow));
  return { readme, index, fingerprint: corpusFingerprint?.digest() };
}

/**
 * A first export, to a path that holds no earlier one to keep or copy from, in one pass over the
 * videos: it writes their files, fills every table and gathers the fingerprints of the corpus's
 * contents and blocks; the entries listed before the videos' files, which name the version those
 * contents make, are written afterwards, ahead of them (AtomicZipFile.deferHead). The bytes are those
 * the two passes of writeHead() and writeVideos() write. Gives how many files were written, and the
 * fingerprint of everything the corpus is written from.
 */
async function writeInOnePass(
  zip: AtomicZipFile,
  input: ExportInput,
  settings: CorpusSettings,
  options: ExportOptions,
): Promise<ExportResult> {
  const { withChunks, recordPlan, chunkPlan } = settings;
  const errors = await zip.spool(CORPUS_ENTRY.errors);
  const index = await zip.spool(CORPUS_ENTRY.index);
  const pass = await VideoPass.start(zip, settings, index, undefined);
  await zip.deferHead();
  for (const text of errorsCsvHead(input.failedSources)) await errors.write(text);
  await pass.run(input, options, {
    notOk: (video) => errors.write(errorRow(video)),
    written: (video) => {
      // Noted once the streams have entered its block: a block's fingerprint is taken as it ends.
      recordPlan.note(video);
      if (withChunks) chunkPlan.note(video);
      if (!recordPlan.inOrder) throw new VideosOutOfOrder();
    },
  });
  const contentsFingerprint = new ContentsFingerprint(input);
  const memberships = await zip.spool(CORPUS_ENTRY.memberships);
  const rows = noting(input.memberships?.() ?? [], (row) => contentsFingerprint.membership(row));
  for (const text of withHeader(MEMBERSHIPS_CSV_HEADER, rows, membershipRow)) await memberships.write(text);
  const contents = contentsFingerprint.digest(pass.videos());
  const corpus = asReleased(input, contents);
  let head: { readme: SpooledEntry; fingerprint: Buffer | undefined } | undefined;
  await zip.writeHead(async () => {
    head = await writeHeadEntries(zip, corpus, contents, withChunks, { errors, memberships, index });
  });
  if (head === undefined) throw new Error('the head of the corpus was not written');
  const counts = await pass.finish(head.readme, corpus);
  options.signal?.throwIfAborted();
  const { fingerprint } = head;
  const written = counts.copied + counts.written;
  const { bytes, entries } = await zip.commit(
    fingerprint === undefined ? undefined : recordComment({ fingerprint, files: written }),
  );
  return { path: zip.targetPath, bytes, entries, ...counts };
}

/**
 * The second pass: each video's files and its row of index.csv (video-pass.ts), then README.md, index.csv,
 * transcripts.jsonl and chunks.jsonl. Gives how many files were copied and written, and the fingerprint
 * of the videos it read.
 */
async function writeVideos(
  zip: AtomicZipFile,
  input: ExportInput,
  settings: CorpusSettings,
  { corpus, readme, index }: Head,
  previous: PreviousCorpus | undefined,
  options: ExportOptions,
): Promise<{ counts: { copied: number; written: number }; videos: Buffer | undefined }> {
  const pass = await VideoPass.start(zip, settings, index, previous);
  await pass.run(input, options);
  return { counts: await pass.finish(readme, corpus), videos: pass.videos() };
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

/** The record an earlier export's comment holds, where that comment starts and the file's size. */
type CommentRecording = NonNullable<Awaited<ReturnType<typeof readCommentRecord>>>;

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
