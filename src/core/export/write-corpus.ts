import { resolve } from 'node:path';
import { ITEM_STATUS } from '../../shared/vocabulary';
import { ExportInterruptedError, toExportError, VideoReadError } from './errors';
import { DEFAULT_CHUNKING } from './corpus/chunks';
import { renderCitation } from './corpus/citation';
import { renderDataPackage } from './corpus/data-package';
import { renderDatasheet } from './corpus/datasheet';
import { renderTranscript } from './corpus/formats';
import type { RenderedTranscript } from './corpus/formats';
import { BlockPlan, BlockStream } from './reuse/block-streams';
import { CompositionTally } from './corpus/composition';
import { ContentsFingerprint, CorpusFingerprint, VideoListFingerprint } from './reuse/corpus-fingerprint';
import { isIntact, readCommentRecord, recordComment } from './reuse/comment-record';
import type { CommentRecord } from './reuse/comment-record';
import { Fingerprints } from './reuse/entry-fingerprints';
import { renderManifest } from './corpus/manifest';
import { entryPath, FILE_FORMATS, StemNamer } from './corpus/naming';
import type { FileFormat } from './corpus/naming';
import { PreviousCorpus } from './reuse/previous-corpus';
import type { CopiedFile } from './reuse/previous-corpus';
import { reuseFieldFor } from './reuse/reuse-field';
import type { VideoFacts } from './reuse/reuse-field';
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
import { AtomicZipFile, COMPRESSION_LEVEL } from './zip/writer';

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

/** The last entry: the SHA-256 of every other one. */
const CHECKSUMS_ENTRY = 'SHA256SUMS';
/** The entries besides the videos' files: the tables, the datasheet, the records... (a dozen), with room to spare. */
const OTHER_ENTRIES = 32;

/** The values, each handed to `note` as it passes. */
function* noting<T>(values: Iterable<T>, note: (value: T) => void): Generator<T> {
  for (const value of values) {
    note(value);
    yield value;
  }
}

/**
 * A video's files that the previous export holds unchanged, with what rendering it found out; undefined
 * when it holds none (or another program's file is there).
 */
async function previousFiles(
  previous: PreviousCorpus | undefined,
  files: ReadonlyArray<{ format: FileFormat; path: string; fingerprint: Buffer | undefined }>,
): Promise<{ facts: VideoFacts; copies: Map<FileFormat, CopiedFile> } | undefined> {
  if (previous === undefined) return undefined;
  const copies = new Map<FileFormat, CopiedFile>();
  for (const { format, path, fingerprint } of files) {
    const copy = fingerprint === undefined ? undefined : await previous.file(path, fingerprint);
    if (copy !== undefined) copies.set(format, copy);
  }
  const facts = copies.values().next().value?.facts;
  return facts === undefined ? undefined : { facts, copies };
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
 * pass writes the files while it
 * fills index.csv (whose word counts and file names come from the transcripts), transcripts.jsonl
 * and chunks.jsonl in spool files beside the ZIP, and gathers the composition README.md reports.
 * README.md and index.csv are listed where they belong, though their data is stored after the files
 * (a ZIP's central directory, which readers show, may list entries in any order). The same input
 * always gives the same bytes.
 *
 * When `outPath` holds an earlier export, a transcript's file that it holds unchanged is copied from
 * it, compressed bytes and all, and so is each block of transcripts.jsonl and chunks.jsonl (or the
 * whole entry): fingerprints.ts says what each was made from, and the reuse field (reuse-field.ts) of
 * every export records it. A video is rendered only when something it contributes is missing or
 * changed; the rest of the corpus is written afresh. Whatever the earlier file is, the result is the
 * same bytes as an export written from scratch (previous-corpus.ts).
 *
 * The ZIP appears at `outPath` only when complete; on any failure the temporary files are deleted, an
 * existing file at `outPath` is left as it was, and an ExportError says what to do.
 */
export async function writeCorpus(
  input: ExportInput,
  outPath: string,
  options: ExportOptions = {},
): Promise<ExportResult> {
  const { signal, onProgress } = options;
  const targetPath = resolve(outPath);
  // By default the four file formats; passages only when asked for.
  const wanted: readonly ExportFormat[] = input.formats ?? FILE_FORMATS;
  const formats = EXPORT_FORMATS.filter((format) => wanted.includes(format));
  const chunking = input.chunking ?? DEFAULT_CHUNKING;
  const withChunks = formats.includes('chunks');
  const fingerprints = new Fingerprints(input.manifest.tool.version, COMPRESSION_LEVEL, chunking);
  const recordPlan = new BlockPlan((video) => fingerprints.record(video));
  const chunkPlan = new BlockPlan((video) => fingerprints.chunks(video));
  let zip: AtomicZipFile;
  try {
    zip = await AtomicZipFile.create(targetPath, { checksums: CHECKSUMS_ENTRY });
  } catch (error) {
    throw toExportError(targetPath, error);
  }
  // What an earlier export left at the target stays there, untouched, until the new ZIP replaces it.
  const recorded = await readCommentRecord(targetPath);
  const contentsFingerprint = new ContentsFingerprint(input);
  const plannedVideos = new VideoListFingerprint();
  let previous: PreviousCorpus | undefined;
  try {
    // The pass that writes errors.csv reads no transcript; it also gathers the fingerprints of the blocks
    // and of the corpus's contents. errors.csv and memberships.csv wait in spools until the entries
    // listed before them, which name the version these contents make, are written.
    const errors = await zip.spool('errors.csv');
    const planned = noting(readVideos(input, signal), (video) => {
      plannedVideos.add(video);
      if (video.status !== ITEM_STATUS.ok) return;
      recordPlan.note(video);
      if (withChunks) chunkPlan.note(video);
    });
    for (const text of errorsCsv(planned, input.failedSources)) await errors.write(text);
    const membershipsTable = await zip.spool('memberships.csv');
    const memberships = noting(input.memberships?.() ?? [], (row) => contentsFingerprint.membership(row));
    for (const text of withHeader(MEMBERSHIPS_CSV_HEADER, memberships, membershipRow))
      await membershipsTable.write(text);
    const plannedDigest = plannedVideos.digest();
    const contents = contentsFingerprint.digest(plannedDigest);
    const corpus = asReleased(input, contents);

    await zip.add('manifest.json', renderManifest(corpus.manifest, corpus.syncs));
    const readme = await zip.spool('README.md', { listNow: true });
    await zip.add('CITATION.cff', renderCitation(corpus));
    await zip.add('datapackage.json', renderDataPackage(corpus, withChunks));
    const index = await zip.spool('index.csv', { listNow: true });
    await zip.addSpooled(errors);
    await zip.addSpooled(membershipsTable);
    const corpusFingerprint =
      contents === undefined ? undefined : new CorpusFingerprint(contents, corpus, COMPRESSION_LEVEL);
    const changes = noting(corpus.changes?.() ?? [], (row) => corpusFingerprint?.change(row));
    await zip.addStreamed('changes.csv', withHeader(CHANGES_CSV_HEADER, changes, changeRow));
    const fingerprint = corpusFingerprint?.digest();
    // An export from the same inputs is there, whole: it is this corpus, byte for byte, and stays.
    if (recorded !== undefined && (await isUnchanged(targetPath, recorded, fingerprint))) {
      await zip.discard();
      const { record, size } = recorded;
      return { path: targetPath, bytes: size, entries: record.entries, copied: record.files, written: 0 };
    }
    const maxEntries = input.manifest.counts.videos * FILE_FORMATS.length + OTHER_ENTRIES;
    previous = await PreviousCorpus.open(targetPath, maxEntries);
    const writtenVideos = new VideoListFingerprint();
    const transcripts = await BlockStream.start(zip, 'transcripts.jsonl', recordPlan, previous);
    const chunks = withChunks ? await BlockStream.start(zip, 'chunks.jsonl', chunkPlan, previous) : undefined;

    await index.write(csvHeader(INDEX_CSV_HEADER));
    const namer = new StemNamer(input.nameTemplate);
    const tally = new CompositionTally(input.manifest.sources);
    const progress = { done: 0, total: input.manifest.counts.videos };
    const counts = { copied: 0, written: 0 };
    for (const video of readVideos(input, signal)) {
      writtenVideos.add(video);
      progress.done += 1;
      onProgress?.(progress);
      if (video.status !== ITEM_STATUS.ok) {
        tally.add(video, undefined);
        await index.write(indexRow(video, undefined));
        continue;
      }
      // Every ok video takes a stem, even one left without subtitles, so stems never depend on formats.
      const stem = namer.stemFor(video);
      await transcripts.enter(video);
      await chunks?.enter(video);
      const candidates = formats.flatMap((format) =>
        isFileFormat(format)
          ? [{ format, path: entryPath(format, stem), fingerprint: fingerprints.file(format, video) }]
          : [],
      );
      const found = await previousFiles(previous, candidates);
      // Files the previous export holds say what rendering found. A video whose files other than json
      // are all there renders at most its record (its json file, its lines in a block that changed),
      // without counting its words again; any other video is rendered whole.
      const facts = found?.facts;
      const expected = candidates.filter(({ format }) => facts === undefined || hasFile(format, facts));
      const missing = expected.filter(({ format }) => found?.copies.has(format) !== true);
      const needsLines = transcripts.needsLines || chunks?.needsLines === true;
      let rendered: RenderedTranscript | undefined;
      let videoFacts: VideoFacts;
      if (found !== undefined && missing.every(({ format }) => format === 'json')) {
        videoFacts = found.facts;
        const recordOnly = formats.filter((format) => format === 'json' || format === 'chunks');
        if (missing.length > 0 || needsLines) {
          rendered = renderTranscript(video, recordOnly, chunking, { wordCount: videoFacts.wordCount });
        }
      } else {
        rendered = renderTranscript(video, formats, chunking);
        videoFacts = factsOf(rendered);
      }
      const paths: string[] = [];
      for (const { format, path, fingerprint } of candidates) {
        if (!hasFile(format, videoFacts)) continue;
        paths.push(path);
        const copy = found?.copies.get(format);
        if (copy !== undefined) {
          await zip.addCopied(path, copy);
          counts.copied += 1;
          continue;
        }
        const content = rendered?.files.find((file) => file.format === format)?.content;
        if (content === undefined) throw new Error(`${path} was neither copied nor rendered`);
        await zip.add(
          path,
          content,
          fingerprint === undefined ? undefined : reuseFieldFor(fingerprint, videoFacts),
        );
        counts.written += 1;
      }
      await index.write(indexRow(video, { wordCount: videoFacts.wordCount, files: paths }));
      tally.add(video, { words: videoFacts.wordCount, seconds: videoFacts.spokenSeconds });
      if (rendered !== undefined && transcripts.needsLines) await transcripts.write(rendered.record);
      if (rendered !== undefined && chunks?.needsLines === true) {
        for (const line of rendered.chunks) await chunks.write(line);
      }
    }
    await readme.write(renderDatasheet(corpus, formats, chunking, tally));
    await zip.addSpooled(readme);
    await zip.addSpooled(index);
    for (const stream of chunks === undefined ? [transcripts] : [transcripts, chunks]) {
      const { copied } = await stream.finish();
      counts[copied ? 'copied' : 'written'] += 1;
    }
    signal?.throwIfAborted();
    // Closed first: a file still open cannot be replaced on Windows.
    await previous?.close();
    // Recorded only when both passes read the same videos (nothing changed the job in between).
    const files = counts.copied + counts.written;
    const same = plannedDigest !== undefined && writtenVideos.digest()?.equals(plannedDigest) === true;
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
