import { WORD_COUNT_METHOD } from './plain-text';
import type { ExportManifest, ExportSync, WordCountMethod } from './types';

/** A copy of `value` whose objects list their keys in sorted order, so equal options print identically. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, inner]) => [key, sortKeys(inner)]));
}

/** The service the manifest names: as given, else the service alone, its API version and address unknown. */
export function serviceOf(manifest: ExportManifest): NonNullable<ExportManifest['service']> {
  return manifest.service ?? { name: 'Video Transcript Service', api_version: null, addresses: [] };
}

/** How the corpus's words are counted: as given, else as this process counts them. */
export function wordCountOf(manifest: ExportManifest): WordCountMethod {
  return manifest.word_count ?? WORD_COUNT_METHOD;
}

/**
 * manifest.json, pretty-printed with docs/product.md's key order; `options` keys are sorted. `syncs`
 * are the job's syncs, oldest first; `versions` the corpus's released versions, oldest first.
 */
export function renderManifest(manifest: ExportManifest, syncs: readonly ExportSync[] = []): string {
  const service = serviceOf(manifest);
  const wordCount = wordCountOf(manifest);
  const ordered = {
    tool: { name: manifest.tool.name, version: manifest.tool.version },
    job_id: manifest.job_id,
    version: manifest.version,
    sources: manifest.sources,
    skipped_sources: manifest.skipped_sources.map(({ source, reason }) => ({ source, reason })),
    failed_sources: manifest.failed_sources.map(({ source, status, http_status, code, message }) => ({
      source,
      status,
      http_status,
      code,
      message,
    })),
    options: sortKeys(manifest.options),
    counts: {
      videos: manifest.counts.videos,
      ok: manifest.counts.ok,
      unavailable: manifest.counts.unavailable,
      failed: manifest.counts.failed,
      pending: manifest.counts.pending,
      skipped: manifest.counts.skipped,
      sources_failed: manifest.counts.sources_failed,
    },
    credits_spent: manifest.credits_spent,
    credits_possible: manifest.credits_possible,
    syncs: syncs.map(({ at, newVideos, credits }) => ({ at, new_videos: newVideos, credits })),
    versions: manifest.versions.map(({ version, releasedAt, added, retried, changed, metadata }) => ({
      version,
      released_at: releasedAt,
      added,
      retried,
      changed,
      metadata: metadata ?? 0,
    })),
    finished_at: manifest.finished_at,
    job_finished: manifest.job_finished,
    all_videos_transcribed: manifest.all_videos_transcribed,
    service: { name: service.name, api_version: service.api_version, addresses: service.addresses },
    word_count: { method: wordCount.method, icu: wordCount.icu },
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
