import {
  EXPORT_FORMATS,
  type CreditView,
  type ExportFormat,
  type JobDetail,
  type JobView,
  type RunOutcomeView,
  type SourceLine,
} from '../../shared/contract';
import type { checkSources } from '../../shared/sources';
import { authorLine } from '../../shared/citation';
import { isUnwalkedList, JOB_STATUS, LIST_STATUS, SOURCE_KIND, STOP_REASON } from '../../shared/vocabulary';
import { describeFilters } from '../../shared/filters';
import { jobName } from '../../shared/job-name';
import type { JobHistory } from '../store';
import type { FailureReason } from './failure-reasons';
import {
  canKeepCurrent,
  type CreditStatus,
  type EstimateResult,
  type JobSummary,
  type RunOutcome,
} from '../engine';
import type { SyncProblem } from './setup-waits';

/**
 * Engine rows to contract objects, field by field: what faces see is decided here, and nothing of
 * the engine's own shapes leaks through the contract.
 */

/** What a face knows of a job's pace only while it runs: items a second and the time left. */
export interface JobPace {
  ratePerSecond: number;
  etaSeconds: number | null;
}

/**
 * What the process that shows a job knows of it beyond the database: its pace, when its schedule
 * syncs it next, and what its runner and schedule are waiting for (setup-waits.ts).
 */
export interface JobHere {
  pace: JobPace;
  /** ISO time; null when this process does not sync it (the CLI). */
  nextSyncAt: string | null;
  waitingFor: string | null;
  syncProblem: SyncProblem | null;
}

const ELSEWHERE: JobHere = {
  pace: { ratePerSecond: 0, etaSeconds: null },
  nextSyncAt: null,
  waitingFor: null,
  syncProblem: null,
};

const KNOWN_FORMATS: ReadonlySet<string> = new Set(EXPORT_FORMATS);

function formatsOf(job: JobSummary): ExportFormat[] {
  const formats = job.settings.formats.filter((format): format is ExportFormat => KNOWN_FORMATS.has(format));
  return formats.length > 0 ? formats : [...EXPORT_FORMATS];
}

/** The job's name by shared/job-name.ts's rule, each source titled by its list once a page named it. */
export function jobTitle(job: JobSummary): string {
  const titles = new Map(job.walks.map((walk) => [walk.position, walk.title]));
  return jobName({
    id: job.id,
    name: job.settings.name,
    sources: job.sources.map((source, position) => ({
      input: source.input,
      title: titles.get(position) ?? null,
    })),
  });
}

/** The job as every face shows it; `here` is what only the process showing it knows (JobHere). */
export function toJobView(job: JobSummary, here: JobHere = ELSEWHERE): JobView {
  const running = job.status === JOB_STATUS.running;
  const { pace, nextSyncAt } = here;
  return {
    id: job.id,
    title: jobTitle(job),
    name: job.settings.name,
    status: job.status,
    sources: job.sources.map((source) => source.input),
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    finishedAt: job.finishedAt,
    counts: job.counts,
    creditsSpent: job.creditsSpent,
    creditsPossible: job.creditsPossible,
    budget: job.budget,
    concurrency: job.settings.concurrency,
    formats: formatsOf(job),
    stop:
      job.stopReason === null
        ? null
        : { reason: job.stopReason, code: job.stopCode, message: job.stopMessage },
    sourcesWalked: job.walks.filter((walk) => walk.walkStatus !== LIST_STATUS.pending).length,
    sourcesTotal: job.walks.length,
    sourcesFailed: job.walks.filter((walk) => isUnwalkedList(walk.walkStatus)).length,
    ratePerSecond: running ? pace.ratePerSecond : 0,
    etaSeconds: running ? pace.etaSeconds : null,
    runningIn: job.runningIn,
    waitingFor: job.status === JOB_STATUS.queued ? here.waitingFor : null,
    citation: citationView(job.settings.citation),
    keepCurrent: {
      available: canKeepCurrent(job),
      marked: job.keepCurrent.marked,
      lastSyncAt: job.keepCurrent.lastSyncAt,
      // A sync waiting for a key or an address runs once it is given, not at a time.
      nextSyncAt: job.keepCurrent.marked && here.syncProblem?.waitsForSetup !== true ? nextSyncAt : null,
      autoExportPath: job.keepCurrent.autoExportPath,
      limitMessage:
        job.status === JOB_STATUS.paused && job.stopReason === STOP_REASON.budget ? job.stopMessage : null,
      syncProblem: job.keepCurrent.marked ? (here.syncProblem?.why ?? null) : null,
    },
  };
}

/** The citation kept with a job, as the Export dialog shows it again (an author a line). */
function citationView(citation: JobSummary['settings']['citation']): JobView['citation'] {
  if (citation === null) return null;
  return {
    title: citation.title ?? null,
    description: citation.description ?? null,
    authors: citation.authors.map(authorLine),
    license: citation.license ?? null,
  };
}

/** `view`: the job as every command shows it (toJobView). */
export function toJobDetail(
  job: JobSummary,
  view: JobView,
  estimate: EstimateResult,
  history: JobHistory & { failures: FailureReason[]; writable: ReadonlySet<number> },
): JobDetail {
  return {
    job: view,
    options: {
      languages: job.options.langs,
      includeTimestamp: job.options.includeTimestamp,
      sendMetadata: job.options.sendMetadata,
      maxVideos: job.options.maxVideos ?? null,
      filters: job.options.filters ?? {},
      chunking: job.settings.chunking,
    },
    exportPath: job.settings.exportPath,
    lists: job.walks
      .filter((walk) => walk.kind !== SOURCE_KIND.video)
      .map((walk) => ({
        input: walk.input,
        kind: walk.kind,
        title: walk.title,
        status: walk.walkStatus,
        pages: walk.pages,
        videos: walk.videosFound,
        expectedVideos: walk.expectedVideos,
        error: walk.error,
        httpStatus: walk.httpStatus,
        code: walk.errorCode,
      })),
    skipped: job.skipped,
    estimate,
    filters: describeFilters(job.options.filters ?? {}),
    skippedByFilter: history.skippedByFilter,
    syncs: history.syncs,
    failures: history.failures,
    versions: history.versions.map(({ version, releasedAt }) => ({
      version,
      releasedAt,
      writable: history.writable.has(version),
    })),
  };
}

export function toCreditView(status: CreditStatus): CreditView {
  return {
    today: status.today,
    total: status.total,
    possible: status.possible,
    byJob: Object.entries(status.byJob).map(([jobId, credits]) => ({ jobId: Number(jobId), credits })),
    last402: status.last402 ?? null,
    balance: status.balance ?? null,
    estimatedRemaining: status.estimatedRemaining ?? null,
  };
}

/** The engine's outcome of a run; 'busy' never gets here (it is an error: nothing ran). */
export function toOutcomeView(outcome: Exclude<RunOutcome, { status: 'busy' }>): RunOutcomeView {
  switch (outcome.status) {
    case JOB_STATUS.completed:
      return { status: outcome.status, failed: outcome.failed, failedSources: outcome.failedSources };
    case JOB_STATUS.waiting_credits:
      return { status: outcome.status, code: outcome.code, meaning: outcome.meaning };
    case JOB_STATUS.paused:
      return {
        status: outcome.status,
        reason: outcome.reason,
        message: outcome.reason === STOP_REASON.service ? outcome.message : null,
      };
    case JOB_STATUS.failed:
      return { status: outcome.status, httpStatus: outcome.httpStatus, message: outcome.message };
    case JOB_STATUS.cancelled:
      return { status: outcome.status };
  }
}

/** checkSources' verdicts, in the order the lines came. */
export function toSourceLines(
  entries: ReadonlyArray<{ where: string }>,
  checked: ReturnType<typeof checkSources>,
): SourceLine[] {
  const order = new Map(entries.map((entry, index) => [entry.where, index]));
  const warnings = new Map(checked.warnings.map((entry) => [entry.where, entry.warning]));
  const lines: SourceLine[] = [
    ...checked.valid.map((entry) => ({
      where: entry.where,
      input: entry.source.input,
      kind: entry.source.kind,
      reason: null,
      warning: warnings.get(entry.where) ?? null,
    })),
    ...checked.invalid.map((entry) => ({
      where: entry.where,
      input: entry.input,
      kind: null,
      reason: entry.reason,
      warning: null,
    })),
  ];
  return lines.sort((a, b) => (order.get(a.where) ?? 0) - (order.get(b.where) ?? 0));
}
