/**
 * Versions follow the bytes (docs/product.md, Corpus versions and citation): an export that changes
 * nothing writes the last version again, byte for byte, whatever syncs that found nothing or retries
 * that changed nothing came between; one that changes something releases the next; one version
 * never names two corpora and versions never go back. A later version adds files and never renames
 * one, and leaves the files of every earlier video as they were unless it was retried.
 */
import type { CorpusReading } from '../corpus-reader';
import type { ModelExport, ModelJob } from '../job';
import { unless, type Violation } from '../rules';

const FOLDERS = ['txt/', 'json/', 'srt/', 'vtt/'];

/** The video a transcript file's name ends with: `… [dQw4w9WgXcQ].txt`. */
function videoOfFile(name: string): string | undefined {
  return /\[([A-Za-z0-9_-]{11})\]\.[a-z]+$/.exec(name)?.[1];
}

export function versionsFollowBytes(
  job: ModelJob,
  corpus: CorpusReading,
  digest: string | undefined,
): Violation[] {
  const violations: Violation[] = [];
  const version = corpus.manifest.version;
  const previous = job.exports.at(-1);
  if (previous !== undefined && digest !== undefined && previous.digest === digest) {
    if (previous.sha256 !== corpus.sha256 || previous.version !== version)
      violations.push({
        rule: 'versions: an export that changes nothing keeps the version and the bytes',
        detail: `job ${job.id}: version ${previous.version} -> ${version}, bytes ${previous.sha256 === corpus.sha256 ? 'kept' : 'changed'}`,
      });
  } else if (
    previous !== undefined &&
    digest !== undefined &&
    previous.digest !== undefined &&
    version !== job.released + 1
  ) {
    violations.push({
      rule: 'versions: an export that changes the corpus releases the next version',
      detail: `job ${job.id}: version ${version} after ${job.released}, and the corpus changed`,
    });
  }
  const twin = job.exports.find((earlier) => earlier.version === version && earlier.sha256 !== corpus.sha256);
  if (twin !== undefined)
    violations.push({
      rule: 'versions: one version number, one corpus',
      detail: `job ${job.id}: two different corpora carry version ${version}`,
    });
  if (version < job.released)
    violations.push({
      rule: 'versions: never go back',
      detail: `job ${job.id}: version ${job.released} -> ${version}`,
    });
  return violations;
}

/**
 * Against the job's previous export: every transcript file of a video still ok keeps its name and, unless
 * the video was retried or took another list's data since, its bytes; so do its lines of
 * transcripts.jsonl and chunks.jsonl.
 */
export function earlierFilesKept(
  previous: ModelExport | undefined,
  corpus: CorpusReading,
  touched: ReadonlySet<string>,
): Violation[] {
  if (previous === undefined) return [];
  const renamed: string[] = [];
  const changed: string[] = [];
  const ok = new Set(corpus.index.filter((row) => row['status'] === 'ok').map((row) => row['video_id']));
  const folders = new Set(Object.keys(corpus.entries).map((name) => name.slice(0, name.indexOf('/') + 1)));
  for (const [name, bytes] of Object.entries(previous.entries)) {
    const folder = FOLDERS.find((prefix) => name.startsWith(prefix));
    const videoId = videoOfFile(name);
    if (folder === undefined || videoId === undefined || !folders.has(folder) || !ok.has(videoId)) continue;
    const now = corpus.entries[name];
    if (now === undefined) renamed.push(`${name} is gone, its video still ok`);
    else if (!touched.has(videoId) && !sameBytes(now, bytes)) changed.push(name);
  }
  for (const table of ['transcripts.jsonl', 'chunks.jsonl']) {
    const before = linesByVideo(previous.entries[table]);
    const after = linesByVideo(corpus.entries[table]);
    for (const [videoId, lines] of before)
      if (!touched.has(videoId) && after.has(videoId) && after.get(videoId) !== lines)
        changed.push(`${table}: ${videoId}`);
  }
  return [
    ...unless('files: a later version adds files and never renames one', renamed),
    ...unless("files: a later version leaves an earlier video's files as they were", changed),
  ];
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** A JSON Lines entry's lines, joined by video. */
function linesByVideo(bytes: Uint8Array | undefined): Map<string, string> {
  const byVideo = new Map<string, string>();
  if (bytes === undefined) return byVideo;
  for (const line of Buffer.from(bytes).toString('utf8').split('\n')) {
    const videoId = /"video_id":"([^"]+)"/.exec(line)?.[1];
    if (videoId !== undefined) byVideo.set(videoId, `${byVideo.get(videoId) ?? ''}${line}\n`);
  }
  return byVideo;
}
