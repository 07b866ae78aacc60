/**
 * Every rule a corpus ZIP is held to, applied to one export: the rules that compare it with the
 * reference (only while the reference still knows the job exactly), those every corpus keeps
 * whatever happened (its own tables agreeing, verify, the files of earlier versions), and the
 * record of the export that later ones are compared with.
 */
import type { CorpusReading } from './corpus-reader';
import type { ModelJob } from './job';
import type { ReferenceModel } from './reference';
import { changesAgree, settleRelease, type Metadata } from './rules/changes';
import { citationAgrees } from './rules/citation';
import { indexPlaces, listIds, listingFacts, membershipsAgree, uniquePositions } from './rules/lists';
import { manifestCounts, manifestOfJob } from './rules/manifest';
import {
  chunksCoverText,
  filesHoldTheText,
  filesMatchIndex,
  recordsAsFetched,
  recordsMatchIndex,
} from './rules/records';
import { datesHold, errorsAgree, exactDatesUsed, statusesAgree } from './rules/statuses';
import { verifyJudgesContent } from './rules/verify';
import { earlierFilesKept, versionsFollowBytes } from './rules/versions';
import type { Violation } from './rules';
import type { JobArgs } from './selection';
import type { Citation } from './steps';

export interface ExportCheck {
  path: string;
  formats: string;
  args: JobArgs;
  citation: Citation | undefined;
  /** Written after the job completed (else a corpus of what was bought, paused). */
  complete: boolean;
}

export async function checkCorpus(
  model: ReferenceModel,
  job: ModelJob,
  corpus: CorpusReading,
  check: ExportCheck,
): Promise<Violation[]> {
  const digest = digestOf(job, check);
  const version = corpus.manifest.version;
  // A new version settles its retries and metadata changes before changes.csv is compared.
  if (version > job.released && !settleRelease(job, version, metadataOf(job, check))) job.changesSure = false;
  if (!job.syncsAt.has(version)) job.syncsAt.set(version, job.syncs);
  const exact = job.exact
    ? [
        ...membershipsAgree(job, corpus),
        ...indexPlaces(job, corpus),
        ...listIds(job, corpus),
        ...listingFacts(model, job, corpus),
        ...statusesAgree(job, corpus, check.complete),
        ...errorsAgree(job, corpus),
        ...recordsAsFetched(model, job, corpus),
        ...exactDatesUsed(job, corpus),
        ...(job.changesSure && job.certain ? changesAgree(job, corpus) : []),
      ]
    : [];
  const timed = check.args.noTimestamps !== true;
  const violations = [
    ...exact,
    ...uniquePositions(corpus),
    ...datesHold(model, corpus),
    ...recordsMatchIndex(corpus),
    ...filesMatchIndex(corpus, check.formats, timed),
    ...filesHoldTheText(corpus),
    ...chunksCoverText(corpus, check.formats, check.args.chunkSeconds ?? 60),
    ...manifestCounts(corpus),
    ...manifestOfJob(job, corpus, { ...check, syncs: job.syncsAt.get(version) }),
    ...creditsOfVersion(job, corpus),
    ...versionsFollowBytes(job, corpus, digest),
    ...earlierFilesKept(job.exports.at(-1), corpus, job.touched),
    ...(await citationAgrees(job, corpus, `${check.path}.cff`)),
    ...(await verifyJudgesContent(check.path, corpus)),
  ];
  record(job, corpus, digest);
  return violations;
}

/** The corpus's metadata as changes.csv names its parts. */
function metadataOf(job: ModelJob, check: Pick<ExportCheck, 'formats' | 'args'>): Metadata {
  const chunked = check.formats.split(',').includes('chunks');
  return {
    ...job.citation,
    formats: check.formats.split(',').sort().join(','),
    chunks: chunked ? `${check.args.chunkSeconds ?? 60}/${check.args.chunkOverlap ?? 10}` : '',
  };
}

/**
 * The manifest's credits_spent (possibly charged included) is what the ledger charged the job up to
 * the release of the version it carries: an export that keeps a version writes that version's
 * figure again, byte for byte.
 */
function creditsOfVersion(job: ModelJob, corpus: CorpusReading): Violation[] {
  const spent = corpus.manifest.credits_spent;
  const version = corpus.manifest.version;
  const released = job.exports.find((earlier) => earlier.version === version);
  const charged = released === undefined ? job.charged : released.charged;
  return spent <= charged && spent >= charged - job.slack
    ? []
    : [
        {
          rule: 'credits: credits_spent is what the ledger charged the job up to its version',
          detail: `job ${job.id}, version ${version}: manifest says ${spent}, the ledger ${charged}`,
        },
      ];
}

/** Keeps what later exports of the job are compared with. */
function record(job: ModelJob, corpus: CorpusReading, digest: string | undefined): void {
  const version = corpus.manifest.version;
  const released = job.exports.find((earlier) => earlier.version === version);
  job.exports.push({
    sha256: corpus.sha256,
    version,
    charged: released?.charged ?? job.charged,
    digest,
    entries: corpus.entries,
  });
  job.released = Math.max(job.released, version);
  job.touched.clear();
}

/**
 * What the corpus is written from, as the reference knows it: its videos, their statuses and where
 * each list has them, the lists not walked, the formats and the citation. Undefined when the
 * reference is not sure of some of it (then the rules that compare two exports' versions wait).
 */
export function digestOf(
  job: ModelJob,
  check: Pick<ExportCheck, 'formats' | 'args' | 'complete'>,
): string | undefined {
  if (!job.certain) return undefined;
  const span = (since: { start: number; end: number } | undefined): string =>
    since === undefined ? '-' : `${since.start}-${since.end}`;
  return JSON.stringify({
    // Written while its job was paused, a corpus says it is not complete: another corpus.
    complete: check.complete,
    formats: check.formats.split(',').sort().join(','),
    chunks: check.formats.includes('chunks') ? [check.args.chunkSeconds, check.args.chunkOverlap] : null,
    citation: job.citation,
    items: [...job.items.values()].map((item) => [
      item.videoId,
      item.number,
      [...item.status][0],
      item.source,
      item.firstPlace?.position,
      span(item.firstPlace?.since),
      item.language,
      item.requested,
      item.failure,
    ]),
    lists: job.lists.map((list) => [
      list.walk,
      list.failure,
      [...list.members].map(([videoId, member]) => [videoId, member.position, span(member.since)]),
    ]),
  });
}
