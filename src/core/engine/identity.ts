import { createHash } from 'node:crypto';
import { cacheLang } from './spec';
import type { JobSpec } from './types';

/**
 * The key that makes running the same export command again continue the same job: the
 * sources (kind and id, in order), the language list, the flags and the filters that change what is
 * bought.
 * Budget, concurrency and formats only change how a run goes, so they are left out.
 */
export function jobKey(spec: Pick<JobSpec, 'sources' | 'options'>): string {
  const identity = {
    sources: spec.sources.map((source) => [source.kind, source.id]),
    langs: spec.options.langs.map(cacheLang),
    includeTimestamp: spec.options.includeTimestamp,
    sendMetadata: spec.options.sendMetadata,
    maxVideos: spec.options.maxVideos ?? null,
    // Written only when set, so that every job created before filters existed keeps its key.
    ...(spec.options.filters !== undefined && { filters: spec.options.filters }),
  };
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex');
}
