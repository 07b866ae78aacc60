import type { JobView } from '../../../shared/contract';
import { describeKeyRefusal, isStorageErrorCode } from '../../../shared/errors';
import { parseSource } from '../../../shared/sources';
import {
  DAILY_LIMIT_STOP_CODE,
  isSyncedSourceKind,
  JOB_STATUS,
  jobAllows,
  STOP_REASON,
  type JobAction,
  type JobStatus,
} from '../../../shared/vocabulary';
import { capitalize, formatCount, plural, sentence } from './format';

/** Videos with an answer (fetched, unavailable, failed or left out by a filter). */
export function videosDone(job: JobView): number {
  const { ok, unavailable, failed, skipped } = job.counts;
  return ok + unavailable + failed + skipped;
}

/**
 * What a finished job lacks, in a few words for its status ("2 failed", "1 list not read"); null
 * when it is not finished or lacks nothing. A job with gaps is not shown as a plain success.
 */
export function shortfall(job: JobView): string | null {
  if (job.status !== JOB_STATUS.completed) return null;
  const parts = [
    job.counts.failed > 0 ? `${formatCount(job.counts.failed)} failed` : '',
    job.sourcesFailed > 0 ? `${plural(job.sourcesFailed, 'list')} not read` : '',
  ].filter((part) => part !== '');
  return parts.length === 0 ? null : parts.join(', ');
}

/** The job is being run by another Scriptorium process (the CLI): only that process can stop it. */
export function runsElsewhere(job: JobView): boolean {
  return job.runningIn === 'elsewhere';
}

/**
 * What the user can do with the job now, by shared/vocabulary.ts's table (which the engine follows
 * too); each answers one button of the job's actions. Only the process that runs a job can stop it.
 */
export function availableActions(job: JobView): {
  pause: boolean;
  resume: boolean;
  cancel: boolean;
  retryFailed: boolean;
  sync: boolean;
  remove: boolean;
} {
  const here = !runsElsewhere(job);
  const allows = (action: JobAction): boolean => here && jobAllows(job.status, action);
  return {
    pause: allows('pause'),
    resume: allows('resume'),
    cancel: allows('cancel'),
    // A list that could not be read is read again by the next run anyway (Resume): Retry failed is
    // offered for it only once the job has finished.
    retryFailed:
      here && (job.counts.failed > 0 || (job.sourcesFailed > 0 && job.status === JOB_STATUS.completed)),
    // Failures or not, a finished job can be brought up to date when it has a list that can grow.
    sync: allows('sync') && hasGrowingList(job),
    remove: job.runningIn === null && jobAllows(job.status, 'delete'),
  };
}

/** Whether one of the job's sources is a playlist or a channel (what a sync reads again). */
function hasGrowingList(job: JobView): boolean {
  return job.sources.some((input) => {
    const parsed = parseSource(input);
    return parsed.ok && isSyncedSourceKind(parsed.source.kind);
  });
}

/**
 * Why the job stopped before its end and what to do about it, in plain words; null when it did not
 * stop (or stopped in a way its status already says, such as a finished job).
 */
export function describeStop(job: JobView): string | null {
  const { stop } = job;
  if (stop === null || job.status === JOB_STATUS.running) return null;
  const message = stop.message ?? '';
  // The store stopped it (a full disk): not the job's failure, and said even while it waits queued.
  if (stop.reason === STOP_REASON.error && isStorageErrorCode(stop.code)) {
    const next =
      job.status === JOB_STATUS.queued
        ? 'It continues by itself once there is room: Scriptorium tries again now and then, and at every start.'
        : 'Once there is room, the next sync continues it, or press Resume.';
    return `${sentence(message)} ${next}`;
  }
  if (job.status === JOB_STATUS.queued) return null;
  switch (stop.reason) {
    case STOP_REASON.credits:
      return `${capitalize(message || 'The service asked for payment')} (${stop.code ?? 'HTTP 402'}). Once you have credits again, press Resume: the job continues where it stopped.`;
    case STOP_REASON.budget:
      // The daily credit limit of automatic syncs stops like a budget, but its message says what continues it.
      if (stop.code === DAILY_LIMIT_STOP_CODE)
        return sentence(message || 'The daily credit limit of automatic syncs is spent');
      return `${sentence(message || 'The budget is spent')} To go on, start the same sources again from New job with a larger budget.`;
    case STOP_REASON.auth:
      return `${describeKeyRefusal(Number(stop.code ?? '401'))}. Check the key in Settings, then press Resume.`;
    case STOP_REASON.service:
      return `${sentence(message || 'The service could not be reached')} Press Resume to try again.`;
    case STOP_REASON.user:
      return 'You paused it. Resume continues where it stopped.';
    case STOP_REASON.interrupted:
      return 'It was interrupted; everything done so far is saved. Resume continues where it stopped.';
    case STOP_REASON.cancelled:
      return 'You cancelled it: nothing more is bought. What it bought is kept, and Export writes it. To go on after all, start the same sources again from New job: that makes a new job, which reuses these transcripts at no cost.';
    case STOP_REASON.setup:
      return `${sentence(message || 'Something is missing before it can run')} Then press Resume.`;
    case STOP_REASON.retry:
      return 'Its failed videos are queued again: press Resume to fetch them.';
    case STOP_REASON.error:
      return `It stopped on an unexpected error: ${sentence(message || 'no details')} Resume tries again; if it happens again, please report it.`;
    case STOP_REASON.shutdown:
      return null; // never kept: the job stays queued, to continue at the next start
  }
}

/** For a finished job with gaps: what is missing and how to get it; null when nothing is. */
export function describeGaps(job: JobView): string | null {
  if (job.status !== JOB_STATUS.completed) return null;
  const { interrupted } = job.counts;
  const failed = job.counts.failed - interrupted;
  const parts = [
    interrupted > 0 ? `${plural(interrupted, 'video')} cut off by a forced stop` : '',
    failed > 0 ? `${plural(failed, 'video')} failed (Job detail says why)` : '',
    job.sourcesFailed > 0 ? `${plural(job.sourcesFailed, 'list')} could not be read` : '',
  ].filter((part) => part !== '');
  if (parts.length === 0) return null;
  return `Finished, but ${parts.join(' and ')}. Retry failed tries again.`;
}

/**
 * What the Jobs screen says after New job's Start, from what Start did (`started`) and the job's
 * status now; `name` is "job 3, “Lectures”". Only a job that had stopped is said to continue.
 */
export function startedNotice(
  started: 'new' | 'continued' | 'unchanged',
  name: string,
  status: JobStatus | undefined,
): string {
  const match = `These sources and options match ${name}`;
  switch (started) {
    case 'new':
      return `Started ${name}.`;
    case 'continued':
      return `${match}, which continues where it stopped: nothing already fetched is bought again.`;
    case 'unchanged':
      if (status === JOB_STATUS.completed)
        return `${match}, which has finished: nothing is bought again, and Export writes its corpus.`;
      if (status === JOB_STATUS.queued)
        return `${match}, which is queued already: it runs after the jobs before it.`;
      return `${match}, which is running already.`;
  }
}
