import { resolve } from 'node:path';
import { ITEM_STATUS } from '../../shared/vocabulary';
import { ExportInterruptedError, toExportError, VideoReadError } from './errors';
import { DEFAULT_CHUNKING } from './chunks';
import { renderCitation } from './citation';
import { renderDataPackage } from './data-package';
import { renderDatasheet } from './datasheet';
import { renderTranscript } from './formats';
import { CompositionTally } from './composition';
import { renderManifest } from './manifest';
import { entryPath, FILE_FORMATS, StemNamer } from './naming';
import {
  CHANGES_CSV_HEADER,
  changeRow,
  csvHeader,
  errorsCsv,
  INDEX_CSV_HEADER,
  indexRow,
  MEMBERSHIPS_CSV_HEADER,
  membershipRow,
} from './tables';
import { EXPORT_FORMATS } from './types';
import type { ExportFormat, ExportInput, ExportOptions, ExportResult, ExportVideo } from './types';
import { AtomicZipFile } from './zip-file';

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

/**
 * Writes the corpus ZIP described in docs/product.md ("ZIP layout") to `outPath`.
 *
 * Entries are listed in a fixed order: manifest.json, README.md, CITATION.cff, datapackage.json,
 * index.csv, errors.csv, memberships.csv, changes.csv, then, video by video, the files of each format
 * asked for (txt, json, srt, vtt), then transcripts.jsonl, chunks.jsonl (with the 'chunks' format) and
 * SHA256SUMS last.
 *
 * Memory stays flat, and each transcript is read once: errors.csv streams from a pass over
 * `input.videos()` that reads no transcript content, and a second pass writes the files while it
 * fills index.csv (whose word counts and file names come from the transcripts), transcripts.jsonl
 * and chunks.jsonl in spool files beside the ZIP, and gathers the composition README.md reports.
 * README.md and index.csv are listed where they belong, though their data is stored after the files
 * (a ZIP's central directory, which readers show, may list entries in any order). The same input
 * always gives the same bytes.
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
  let zip: AtomicZipFile;
  try {
    zip = await AtomicZipFile.create(targetPath, { checksums: CHECKSUMS_ENTRY });
  } catch (error) {
    throw toExportError(targetPath, error);
  }
  try {
    await zip.add('manifest.json', renderManifest(input.manifest, input.syncs));
    const readme = await zip.spool('README.md', { listNow: true });
    await zip.add('CITATION.cff', renderCitation(input));
    await zip.add('datapackage.json', renderDataPackage(input, withChunks));
    const index = await zip.spool('index.csv', { listNow: true });
    await zip.addStreamed('errors.csv', errorsCsv(readVideos(input, signal), input.failedSources));
    await zip.addStreamed(
      'memberships.csv',
      withHeader(MEMBERSHIPS_CSV_HEADER, input.memberships?.(), membershipRow),
    );
    await zip.addStreamed('changes.csv', withHeader(CHANGES_CSV_HEADER, input.changes?.(), changeRow));
    const transcripts = await zip.spool('transcripts.jsonl');
    const chunks = withChunks ? await zip.spool('chunks.jsonl') : undefined;

    await index.write(csvHeader(INDEX_CSV_HEADER));
    const namer = new StemNamer(input.nameTemplate);
    const tally = new CompositionTally(input.manifest.sources);
    const progress = { done: 0, total: input.manifest.counts.videos };
    for (const video of readVideos(input, signal)) {
      progress.done += 1;
      onProgress?.(progress);
      if (video.status !== ITEM_STATUS.ok) {
        tally.add(video, undefined);
        await index.write(indexRow(video, undefined));
        continue;
      }
      // Every ok video takes a stem, even one left without subtitles, so stems never depend on formats.
      const stem = namer.stemFor(video);
      const rendered = renderTranscript(video, formats, chunking);
      const files = rendered.files.map(({ format, content }) => ({ path: entryPath(format, stem), content }));
      for (const { path, content } of files) await zip.add(path, content);
      await index.write(
        indexRow(video, { wordCount: rendered.wordCount, files: files.map(({ path }) => path) }),
      );
      tally.add(video, { words: rendered.wordCount, seconds: rendered.spokenSeconds });
      await transcripts.write(rendered.record);
      for (const line of rendered.chunks) await chunks?.write(line);
    }
    await readme.write(renderDatasheet(input, formats, chunking, tally));
    await zip.addSpooled(readme);
    await zip.addSpooled(index);
    await zip.addSpooled(transcripts);
    if (chunks !== undefined) await zip.addSpooled(chunks);
    signal?.throwIfAborted();
    const { bytes, entries } = await zip.commit();
    return { path: targetPath, bytes, entries };
  } catch (error) {
    await zip.discard();
    if (signal?.aborted) throw new ExportInterruptedError(targetPath);
    throw toExportError(targetPath, error);
  }
}
