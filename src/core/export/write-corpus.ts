import { resolve } from 'node:path';
import { ExportInterruptedError, toExportError, VideoReadError } from './errors';
import { renderFiles } from './formats';
import { renderManifest } from './manifest';
import { entryPath, StemNamer } from './naming';
import { errorsCsv, indexCsv, transcriptLine } from './tables';
import { EXPORT_FORMATS } from './types';
import type { ExportInput, ExportOptions, ExportResult, ExportVideo } from './types';
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

/**
 * Writes the corpus ZIP described in docs/product.md ("ZIP layout") to `outPath`.
 *
 * Entries come in a fixed order: manifest.json, index.csv, errors.csv, then, video by video, the files
 * of each format asked for (txt, json, srt, vtt), and last transcripts.jsonl. Memory stays flat: the
 * index and errors tables stream from a pass each over `input.videos()`, the files and
 * transcripts.jsonl from a third, and only a few entries are held at a time. The first two passes read
 * no transcript content (segments, metadata, raw), so a caller that computes it lazily pays for it
 * once. The same input always gives the same bytes.
 *
 * The ZIP appears at `outPath` only when complete; on any failure the temporary file is deleted, an
 * existing file at `outPath` is left as it was, and an ExportError says what to do.
 */
export async function writeCorpus(
  input: ExportInput,
  outPath: string,
  options: ExportOptions = {},
): Promise<ExportResult> {
  const { signal, onProgress } = options;
  const targetPath = resolve(outPath);
  const wanted = input.formats ?? EXPORT_FORMATS;
  const formats = EXPORT_FORMATS.filter((format) => wanted.includes(format));
  let zip: AtomicZipFile;
  try {
    zip = await AtomicZipFile.create(targetPath);
  } catch (error) {
    throw toExportError(targetPath, error);
  }
  try {
    await zip.add('manifest.json', renderManifest(input.manifest));
    await zip.addStreamed('index.csv', indexCsv(readVideos(input, signal)));
    await zip.addStreamed('errors.csv', errorsCsv(readVideos(input, signal), input.failedSources));
    // transcripts.jsonl fills up in the same pass as the files, so that each transcript is read once.
    const transcripts = await zip.spool('transcripts.jsonl');
    const namer = new StemNamer(input.nameTemplate);
    const progress = { done: 0, total: input.manifest.counts.videos };
    for (const video of readVideos(input, signal)) {
      progress.done += 1;
      onProgress?.(progress);
      if (video.status !== 'ok') continue;
      await transcripts.write(transcriptLine(video));
      // Every ok video takes a stem, even one left without subtitles, so stems never depend on formats.
      const stem = namer.stemFor(video);
      for (const { format, content } of renderFiles(video, formats)) {
        await zip.add(entryPath(format, stem), content);
      }
    }
    await zip.addSpooled(transcripts);
    signal?.throwIfAborted();
    const { bytes, entries } = await zip.commit();
    return { path: targetPath, bytes, entries };
  } catch (error) {
    await zip.discard();
    if (signal?.aborted) throw new ExportInterruptedError(targetPath);
    throw toExportError(targetPath, error);
  }
}
