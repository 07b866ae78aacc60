import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { toExportError, VideoReadError } from './errors';
import { renderFile } from './formats';
import { renderManifest } from './manifest';
import { entryPath, StemNamer } from './naming';
import { errorsCsv, indexCsv, transcriptsJsonl } from './tables';
import { EXPORT_FORMATS } from './types';
import type { ExportInput, ExportResult, ExportVideo } from './types';
import { AtomicZipFile } from './zip-file';

/** The caller's videos, with a failure of its iterator marked as such (not a disk problem). */
function* readVideos(input: ExportInput): Generator<ExportVideo> {
  try {
    yield* input.videos();
  } catch (error) {
    throw new VideoReadError(error);
  }
}

/**
 * Writes the corpus ZIP described in PRODUCT.md ("ZIP layout") to `outPath`.
 *
 * Entries come in a fixed order: manifest.json, index.csv, errors.csv, transcripts.jsonl, then the
 * txt/, json/, srt/ and vtt/ folders that were asked for, each in video order. Memory stays flat: each
 * table streams from its own pass over `input.videos()`, and each file is built only once the previous
 * one is in the archive. The same input always gives the same bytes.
 *
 * The ZIP appears at `outPath` only when complete; on any failure the temporary file is deleted, an
 * existing file at `outPath` is left as it was, and an ExportError says what to do.
 */
export async function writeCorpus(input: ExportInput, outPath: string): Promise<ExportResult> {
  const targetPath = resolve(outPath);
  const wanted = input.formats ?? EXPORT_FORMATS;
  const formats = EXPORT_FORMATS.filter((format) => wanted.includes(format));
  let zip: AtomicZipFile;
  try {
    zip = new AtomicZipFile(targetPath);
  } catch (error) {
    throw toExportError(targetPath, error);
  }
  try {
    await zip.add('manifest.json', Buffer.from(renderManifest(input.manifest)));
    await zip.add('index.csv', Readable.from(indexCsv(readVideos(input))));
    await zip.add('errors.csv', Readable.from(errorsCsv(readVideos(input))));
    await zip.add('transcripts.jsonl', Readable.from(transcriptsJsonl(readVideos(input))));
    for (const format of formats) {
      // A fresh namer per folder hands out the same stems each pass, since the videos come in the same order.
      const namer = new StemNamer(input.nameTemplate);
      for (const video of readVideos(input)) {
        if (video.status !== 'ok') continue;
        const stem = namer.stemFor(video);
        const content = renderFile(format, video);
        if (content !== undefined) await zip.add(entryPath(format, stem), Buffer.from(content));
      }
    }
    const { bytes, entries } = await zip.commit();
    return { path: targetPath, bytes, entries };
  } catch (error) {
    await zip.discard();
    throw toExportError(targetPath, error);
  }
}
