/**
 * changes.csv against the reference (docs/product.md, ZIP layout, Corpus versions): what each version
 * after the first added (each new video, with the source that brought it), retried (a video fetched
 * again that came out otherwise: its status before and after), changed (a video one more list named)
 * and which parts of its metadata changed; version 1 has the header only.
 */
import type { CorpusReading } from '../corpus-reader';
import { only, type ModelChange, type ModelJob } from '../job';
import { unless, type Violation } from '../rules';

/** The corpus's metadata as changes.csv names its parts, for the export now (undefined: not sure). */
export type Metadata = Record<string, string>;

/** A row as the rule compares it: a metadata row by its part alone. */
function key(row: ModelChange): string {
  return row.change === 'metadata'
    ? `${row.version}|metadata|${row.detail.split(':')[0]}`
    : `${row.version}|${row.videoId}|${row.change}|${row.detail}`;
}

/** The rows changes.csv should hold up to `version`: the job's own, and each version's additions. */
export function expectedChanges(job: ModelJob, version: number): ModelChange[] {
  const added = [...job.items.values()]
    .filter((item) => item.version > 1 && item.version <= version)
    .map((item) => ({
      version: item.version,
      videoId: item.videoId,
      change: 'added' as const,
      detail: job.args.sources[item.source] ?? '',
    }));
  return [...added, ...job.changes.filter((row) => row.version <= version)];
}

export function changesAgree(job: ModelJob, corpus: CorpusReading): Violation[] {
  const version = corpus.manifest.version;
  const found = corpus.changes.map((row) => ({
    version: Number(row['version']),
    videoId: row['video_id'] ?? '',
    change: row['change'] as ModelChange['change'],
    detail: row['detail'] ?? '',
  }));
  const expected = new Map<string, number>();
  for (const row of expectedChanges(job, version)) expected.set(key(row), (expected.get(key(row)) ?? 0) + 1);
  const unexpected: string[] = [];
  for (const row of found) {
    const exactTime = row.change === 'changed' && row.detail.startsWith('published: ');
    if (exactTime && job.exactDated.has(`${row.version}|${row.videoId}`)) continue;
    const left = expected.get(key(row)) ?? 0;
    if (left === 0) unexpected.push(key(row));
    else expected.set(key(row), left - 1);
  }
  const missing = [...expected].filter(([, left]) => left > 0).map(([row]) => row);
  const order = found.some((row, i) => i > 0 && row.version < found[i - 1]!.version)
    ? ['rows out of version order']
    : [];
  return unless('changes: each version after the first says what it added, retried, changed', [
    ...unexpected.map((row) => `unexpected ${row}`),
    ...missing.map((row) => `missing ${row}`),
    ...order,
  ]);
}

/**
 * At the release of a new version: each video a retry reset since the last release that came out
 * otherwise becomes a `retried` row (before -> after), and each part of the metadata that changed a
 * `metadata` row. Returns false when the reference is not sure of an outcome (the rule then waits).
 */
export function settleRelease(job: ModelJob, version: number, metadata: Metadata | undefined): boolean {
  let sure = true;
  for (const [videoId, before] of job.retrying) {
    const item = job.items.get(videoId);
    const status = item === undefined ? undefined : only(item.status);
    if (item === undefined || status === undefined) {
      sure = false;
      continue;
    }
    const code = status === 'failed' || status === 'unavailable' ? (item.failure?.code ?? null) : null;
    const after = code === null ? status : `${status} (${code})`;
    if (after !== before)
      job.changes.push({ version, videoId, change: 'retried', detail: `${before} -> ${status}` });
  }
  job.retrying.clear();
  if (metadata === undefined || job.releasedMetadata === undefined) sure = sure && metadata !== undefined;
  else
    for (const part of new Set([...Object.keys(metadata), ...Object.keys(job.releasedMetadata)]))
      if ((metadata[part] ?? '') !== (job.releasedMetadata[part] ?? ''))
        job.changes.push({ version, videoId: '', change: 'metadata', detail: `${part}: changed` });
  job.releasedMetadata = metadata;
  return sure;
}
