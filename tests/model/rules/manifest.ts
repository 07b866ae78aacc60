/**
 * manifest.json against the corpus and the job (docs/product.md, ZIP layout): counts that are
 * index.csv's, the sources as typed, the options the job was made with and the formats of this
 * export, the syncs and versions as of the version's release, `job_finished` only for a job that
 * finished with every list walked, and `all_videos_transcribed` only when besides none of its kept
 * videos lacks a transcript.
 */
import type { CorpusReading } from '../corpus-reader';
import type { ModelJob } from '../job';
import { unless, type Violation } from '../rules';
import type { JobArgs } from '../selection';

const STATUSES = ['ok', 'unavailable', 'failed', 'pending', 'skipped'] as const;
/** The statuses of a video the selection kept that has no transcript. */
const UNTRANSCRIBED = new Set(['unavailable', 'failed', 'pending']);

/** The manifest's counts are index.csv's rows and errors.csv's lists. */
export function manifestCounts(corpus: CorpusReading): Violation[] {
  const wrong: string[] = [];
  const { counts } = corpus.manifest;
  if (counts.videos !== corpus.index.length)
    wrong.push(`videos ${counts.videos}, index.csv has ${corpus.index.length} rows`);
  for (const status of STATUSES) {
    const rows = corpus.index.filter((row) => row['status'] === status).length;
    if (counts[status] !== rows) wrong.push(`${status} ${counts[status]}, index.csv has ${rows}`);
  }
  const failedLists = corpus.errors.filter((row) => row['video_id'] === '').length;
  if (counts.sources_failed !== failedLists)
    wrong.push(`sources_failed ${counts.sources_failed}, errors.csv has ${failedLists}`);
  if (corpus.manifest.failed_sources.length !== failedLists)
    wrong.push(`failed_sources lists ${corpus.manifest.failed_sources.length}, errors.csv ${failedLists}`);
  return unless("manifest: counts are index.csv's and errors.csv's", wrong);
}

/** What the manifest says of the job: its sources, options, formats, syncs, versions and completeness. */
export function manifestOfJob(
  job: ModelJob,
  corpus: CorpusReading,
  check: { args: JobArgs; formats: string; complete: boolean; syncs: number | undefined },
): Violation[] {
  const wrong: string[] = [];
  const { manifest } = corpus;
  if (JSON.stringify(manifest.sources) !== JSON.stringify(job.args.sources))
    wrong.push(
      `sources ${JSON.stringify(manifest.sources)}, the job was made with ${JSON.stringify(job.args.sources)}`,
    );
  const { options } = manifest;
  if (JSON.stringify(options.lang) !== JSON.stringify(job.langs))
    wrong.push(`lang ${JSON.stringify(options.lang)}, asked ${JSON.stringify(job.langs)}`);
  if (options.include_timestamp !== job.timestamps)
    wrong.push(`include_timestamp ${options.include_timestamp}`);
  if (options.send_metadata !== job.metadata) wrong.push(`send_metadata ${options.send_metadata}`);
  if (options.max_videos !== (job.args.maxVideos ?? null)) wrong.push(`max_videos ${options.max_videos}`);
  const formats = check.formats.split(',');
  if ([...options.formats].sort().join(',') !== [...formats].sort().join(','))
    wrong.push(`formats ${options.formats.join(',')}, this export asked ${check.formats}`);
  if (formats.includes('chunks')) {
    const seconds = check.args.chunkSeconds ?? 60;
    const overlap = check.args.chunkOverlap ?? 10;
    if (options.chunk_seconds !== seconds || options.chunk_overlap !== overlap)
      wrong.push(`chunks ${options.chunk_seconds}/${options.chunk_overlap}, asked ${seconds}/${overlap}`);
  }
  const unwalked = job.lists.some((list) => list.walk === 'failed' || list.walk === 'unavailable');
  const finished = check.complete && !unwalked;
  if (job.exact && manifest.job_finished !== finished)
    wrong.push(
      `job_finished ${manifest.job_finished}, the job ${check.complete ? 'finished' : 'is paused'}${unwalked ? ' with a list not walked' : ''}`,
    );
  // Those a filter left out do not count; any other video without its transcript does.
  const untranscribed = corpus.index.filter((row) => UNTRANSCRIBED.has(row['status'] ?? '')).length;
  if (manifest.all_videos_transcribed !== (manifest.job_finished && untranscribed === 0))
    wrong.push(
      `all_videos_transcribed ${manifest.all_videos_transcribed}, job_finished ${manifest.job_finished} and ${untranscribed} video(s) without a transcript`,
    );
  if (check.syncs !== undefined && manifest.syncs.length !== check.syncs)
    wrong.push(`${manifest.syncs.length} syncs, the job had ${check.syncs} when this version was released`);
  const versions = manifest.versions.map((entry) => entry.version);
  if (versions.join(',') !== Array.from({ length: manifest.version }, (_, i) => i + 1).join(','))
    wrong.push(`versions ${versions.join(',')} for version ${manifest.version}`);
  if (job.exact && job.certain) {
    const latest = manifest.versions.at(-1);
    const added = [...job.items.values()].filter((item) => item.version === manifest.version).length;
    if (latest !== undefined && manifest.version > 1 && latest.added !== added)
      wrong.push(`version ${manifest.version} added ${latest.added}, the reads added ${added}`);
  }
  return unless('manifest: says what the job is, how it was exported and which version', wrong);
}
