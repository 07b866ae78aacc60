/**
 * The rules a corpus must keep, each checked against the reference model and named, so that a
 * failure says which rule broke and on which rows (docs/product.md: sync, selection, versions).
 */
import type { CorpusReading, Row } from './corpus-reader';
import { listKind, type ModelJob, type ReferenceModel } from './reference';

export interface Violation {
  rule: string;
  detail: string;
}

/** Rows shown in a message: a few, and how many more. */
function some(rows: readonly string[], shown = 6): string {
  return rows.length <= shown
    ? rows.join('; ')
    : `${rows.slice(0, shown).join('; ')}; and ${rows.length - shown} more`;
}

function membershipLabel(row: Row): string {
  return `${row['video_id']} at ${row['position'] || '-'} of ${row['source']} (listed_at ${row['listed_at'] || '-'})`;
}

/** Each (list, position) at most once in memberships.csv. */
export function uniquePositions(corpus: CorpusReading): Violation[] {
  const seen = new Map<string, Row>();
  const twice: string[] = [];
  for (const row of corpus.memberships) {
    if (!row['position']) continue;
    const key = `${row['source']}#${row['position']}`;
    const first = seen.get(key);
    if (first !== undefined) twice.push(`${membershipLabel(first)} and ${membershipLabel(row)}`);
    else seen.set(key, row);
  }
  return twice.length === 0 ? [] : [{ rule: 'memberships: each (list, position) once', detail: some(twice) }];
}

/**
 * memberships.csv holds a row for exactly the (video, list) pairs some read of the list named, at
 * the video's position in the latest read, with the listed_at of a read that gave that position;
 * index.csv gives each video the position its source list gives it.
 */
export function latestPositions(job: ModelJob, corpus: CorpusReading): Violation[] {
  const expected = new Map<string, { position: number; from: number; to: number }>();
  for (const [source, reads] of job.reads) {
    const latest = reads[reads.length - 1]!;
    const named = new Set(reads.flatMap((read) => read.named));
    for (const videoId of named) {
      const position = latest.videos.indexOf(videoId) + 1;
      // The earliest read from which on every read gave this position.
      let from = latest.start;
      for (let i = reads.length - 2; i >= 0 && reads[i]!.videos.indexOf(videoId) + 1 === position; i--) {
        from = reads[i]!.start;
      }
      expected.set(`${videoId}|${source}`, { position, from, to: latest.end });
    }
  }
  const wrongPlace: string[] = [];
  const wrongTime: string[] = [];
  const unexpected: string[] = [];
  const found = new Set<string>();
  for (const row of corpus.memberships) {
    if (listKind(row['source'] ?? '') === 'video') continue;
    const key = `${row['video_id']}|${row['source']}`;
    found.add(key);
    const want = expected.get(key);
    if (want === undefined) unexpected.push(membershipLabel(row));
    else if (Number(row['position']) !== want.position)
      wrongPlace.push(`${membershipLabel(row)}: the latest read has it at ${want.position}`);
    else {
      const at = Date.parse(row['listed_at'] ?? '');
      if (!(at >= want.from && at <= want.to))
        wrongTime.push(
          `${membershipLabel(row)}: the reads giving that position ran from ${new Date(want.from).toISOString()} to ${new Date(want.to).toISOString()}`,
        );
    }
  }
  const missing = [...expected.keys()]
    .filter((key) => !found.has(key))
    .map((key) => key.replace('|', ' in '));
  const violations: Violation[] = [];
  if (unexpected.length > 0)
    violations.push({ rule: 'memberships: only what a read of the list named', detail: some(unexpected) });
  if (missing.length > 0)
    violations.push({ rule: 'memberships: every video a read of the list named', detail: some(missing) });
  if (wrongPlace.length > 0)
    violations.push({ rule: 'positions: those of the latest read of each list', detail: some(wrongPlace) });
  if (wrongTime.length > 0)
    violations.push({
      rule: 'listed_at: the time of the read that gave the position',
      detail: some(wrongTime),
    });
  return violations;
}

/** Every video of index.csv is one a read named or a video given alone, with a status the selection allows. */
export function statusesAgree(job: ModelJob, corpus: CorpusReading): Violation[] {
  const wrong: string[] = [];
  const unknown: string[] = [];
  const seen = new Set<string>();
  for (const row of corpus.index) {
    const videoId = row['video_id'] ?? '';
    seen.add(videoId);
    const allowed = job.allowed(videoId);
    if (allowed === undefined) unknown.push(`${videoId} (${row['status']}, from ${row['source']})`);
    else if (!allowed.has(row['status'] as never))
      wrong.push(
        `${videoId} is ${row['status']}, the selection judged per list allows ${[...allowed].join(' or ')}`,
      );
  }
  const missing = [...job.items.keys()].filter((videoId) => !seen.has(videoId));
  const violations: Violation[] = [];
  if (unknown.length > 0)
    violations.push({
      rule: 'index: nothing beyond what the reads named (a cap included)',
      detail: some(unknown),
    });
  if (wrong.length > 0) violations.push({ rule: 'selection: judged per list', detail: some(wrong) });
  if (missing.length > 0)
    violations.push({ rule: 'index: every video the reads named', detail: some(missing) });
  return violations;
}

/**
 * Each listing's interval holds the video's true date, and a date filter judged it by that interval:
 * the model allows either reading of a date, so this keeps the words honest.
 */
export function datesHold(model: ReferenceModel, corpus: CorpusReading): Violation[] {
  const wrong: string[] = [];
  for (const row of corpus.index) {
    const from = row['published_from'];
    const to = row['published_to'];
    if (!from || !to) continue;
    const day = model.video(row['video_id'] ?? '').published.slice(0, 10);
    if (day < from || day > to)
      wrong.push(`${row['video_id']}: "${row['published']}" gave ${from}..${to}, published ${day}`);
  }
  return wrong.length === 0
    ? []
    : [{ rule: 'dates: the interval holds the published day', detail: some(wrong) }];
}

/** No transcript bought twice, and none bought that no job's lists select. */
export function boughtOnce(
  model: ReferenceModel,
  charges: ReadonlyArray<{ endpoint: string; videoId?: string }>,
): Violation[] {
  const counts = new Map<string, number>();
  for (const charge of charges) {
    if (charge.endpoint !== 'transcript' || charge.videoId === undefined) continue;
    counts.set(charge.videoId, (counts.get(charge.videoId) ?? 0) + 1);
  }
  const twice = [...counts].filter(([, n]) => n > 1).map(([videoId, n]) => `${videoId} bought ${n} times`);
  const unselected = [...counts.keys()].filter(
    (videoId) => !model.jobs.some((job) => (job.items.get(videoId)?.selected ?? 'no') !== 'no'),
  );
  const violations: Violation[] = [];
  if (twice.length > 0) violations.push({ rule: 'ledger: no video bought twice', detail: some(twice) });
  if (unselected.length > 0)
    violations.push({
      rule: 'ledger: nothing bought that no list selects (a sync beyond a cap included)',
      detail: some(unselected),
    });
  return violations;
}
