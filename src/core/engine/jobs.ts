import {
  isUnwalkedList,
  JOB_STATUS,
  LIST_STATUS,
  ORIGINAL_TRACK,
  SOURCE_KIND,
} from '../../shared/vocabulary';
import type { Database } from '../store';
import {
  countListingDates,
  itemCounts,
  insertItem,
  uncachedUnfinishedItems,
  type ItemCounts,
} from '../store/items';
import { insertJob, jobByKey, retireJobKey, type JobRecord } from '../store/jobs';
import { addMembership } from '../store/memberships';
import { creditsOfJob, possibleCreditsOfJob } from '../store/ledger';
import { insertSource, setWalkStatus, sourcesOfJob } from '../store/sources';
import { lastAutomaticSyncOf } from '../store/syncs';
import { jobKey } from './identity';
import { Selection } from './selection';
import { cacheLang, JobOptionsSchema, parseJobSettings, SkippedSchema, SourcesSchema } from './spec';
import type { EstimateResult, ItemCountsView, JobSnapshot, JobSpec, JobSummary } from './types';

/**
 * The job with the spec's identity that its sources and options still find: a cancelled job stays
 * cancelled, and answers to them no more.
 */
export function liveJobByKey(db: Database, key: string): JobRecord | undefined {
  const existing = jobByKey(db, key);
  return existing?.status === JOB_STATUS.cancelled ? undefined : existing;
}

/**
 * Finds the job with the spec's identity or creates it with its sources; single videos get
 * their item at once, since listing them costs nothing. New jobs are drafts until started. A
 * cancelled job stays cancelled: asked for again, it gives up its identity to a new job, which
 * buys again only what the cache lacks (the transcripts it bought are free to reuse).
 */
export function findOrCreateJobRow(
  db: Database,
  spec: JobSpec,
  at: string,
): { jobId: number; created: boolean } {
  const key = jobKey(spec);
  return db
    .transaction(() => {
      const existing = jobByKey(db, key);
      if (existing?.status === JOB_STATUS.cancelled) retireJobKey(db, existing.id);
      else if (existing !== undefined) return { jobId: existing.id, created: false };
      const jobId = insertJob(db, {
        key,
        optionsJson: JSON.stringify(spec.options),
        sourcesJson: JSON.stringify(spec.sources),
        skippedJson: JSON.stringify(spec.skipped),
        at,
      });
      spec.sources.forEach((source, position) => {
        const sourceId = insertSource(db, {
          jobId,
          position,
          kind: source.kind,
          sourceId: source.id,
          input: source.input,
        });
        if (source.kind === SOURCE_KIND.video) {
          // A new job's videos belong to its first version.
          insertItem(db, { jobId, sourceId, position: 1, videoId: source.id, title: '', at, version: 1 });
          addMembership(db, { jobId, videoId: source.id, sourceId, position: null, listedAt: null });
          setWalkStatus(db, sourceId, LIST_STATUS.done, 1);
        }
      });
      return { jobId, created: true };
    })
    .immediate();
}

export function countsView(counts: ItemCounts): ItemCountsView {
  return {
    total: counts.total,
    pending: counts.pending + counts.fetching,
    ok: counts.ok,
    unavailable: counts.unavailable,
    failed: counts.failed,
    skipped: counts.skipped,
    interrupted: counts.interrupted,
  };
}

/** What a run keeps in memory while it runs, so that showing its job costs no count over its items. */
export interface LiveCounts {
  counts: ItemCountsView;
  creditsSpent: number;
  creditsPossible: number;
}

/**
 * The job as faces see it; `runningIn` is the caller's to know (see Engine), and so are the counts
 * of a job this engine runs (`live`), which are then not read from the database.
 */
export function summarize(
  db: Database,
  job: JobRecord,
  runningIn: JobSummary['runningIn'],
  live?: LiveCounts,
): JobSummary {
  return {
    id: job.id,
    status: job.status,
    options: JobOptionsSchema.parse(JSON.parse(job.optionsJson)),
    settings: parseJobSettings(job.settingsJson),
    runningIn,
    sources: SourcesSchema.parse(JSON.parse(job.sourcesJson)),
    skipped: SkippedSchema.parse(JSON.parse(job.skippedJson)),
    budget: job.budget,
    stopReason: job.stopReason,
    stopCode: job.stopCode,
    stopMessage: job.stopMessage,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    finishedAt: job.finishedAt,
    counts: live?.counts ?? countsView(itemCounts(db, job.id)),
    creditsSpent: live?.creditsSpent ?? creditsOfJob(db, job.id),
    creditsPossible: live?.creditsPossible ?? possibleCreditsOfJob(db, job.id),
    walks: sourcesOfJob(db, job.id).map((source) => ({
      id: source.id,
      position: source.position,
      kind: source.kind,
      sourceId: source.sourceId,
      input: source.input,
      resolvedChannelId: source.resolvedChannelId,
      walkStatus: source.walkStatus,
      pages: source.pages,
      videosFound: source.videosFound,
      expectedVideos: source.expectedVideos,
      title: source.title,
      error: source.error,
      httpStatus: source.httpStatus,
      errorCode: source.errorCode,
    })),
    keepCurrent: {
      marked: job.keepCurrent,
      autoExportPath: job.autoExportPath,
      lastSyncAt: lastAutomaticSyncOf(db, job.id),
    },
  };
}

/** A job's progress for the faces; ETA from the unfinished items at the current rate. */
export function snapshotOf(
  db: Database,
  job: JobRecord,
  live: LiveCounts,
  ratePerSecond: number,
): JobSnapshot {
  const sources = sourcesOfJob(db, job.id);
  return {
    jobId: job.id,
    status: job.status,
    counts: live.counts,
    sourcesWalked: sources.filter((source) => source.walkStatus !== LIST_STATUS.pending).length,
    sourcesTotal: sources.length,
    ratePerSecond,
    etaSeconds: ratePerSecond > 0 ? Math.ceil(live.counts.pending / ratePerSecond) : null,
    creditsSpent: live.creditsSpent,
  };
}

/** What running the job will still cost: a page at least per list not walked, a transcript at most per video not in the cache. */
export function estimateOf(db: Database, job: JobRecord): EstimateResult {
  const options = JobOptionsSchema.parse(JSON.parse(job.optionsJson));
  // Lists not read yet, and those that could not be: the next run reads them again (reopenFailedWalks).
  const unwalked = sourcesOfJob(db, job.id).filter(
    (source) =>
      source.kind !== SOURCE_KIND.video &&
      (source.walkStatus === LIST_STATUS.pending || isUnwalkedList(source.walkStatus)),
  ).length;
  const transcripts = uncachedUnfinishedItems(db, job.id, {
    requestedLang: cacheLang(options.langs[0] ?? ORIGINAL_TRACK),
    includeTimestamp: options.includeTimestamp,
    sendMetadata: options.sendMetadata,
  });
  return { pages: unwalked, transcripts, exact: unwalked === 0 };
}

/**
 * How many of the job's videos have a publication interval that crosses an end of its date window:
 * left out unless the job asks for overlap, kept if it does; 0 without a date filter.
 */
export function uncertainDatesOf(db: Database, job: JobRecord): number {
  const { filters } = JobOptionsSchema.parse(JSON.parse(job.optionsJson));
  if (filters?.publishedAfter === undefined && filters?.publishedBefore === undefined) return 0;
  const selection = new Selection(filters);
  return countListingDates(db, job.id, (published, listedAt) =>
    selection.uncertainDate({ published, listedAt: listedAt === null ? undefined : Date.parse(listedAt) }),
  );
}
