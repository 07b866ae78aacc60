import { describeKeyRefusal } from '../../../shared/errors';
import { checkSources } from '../../../shared/sources';
import { JOB_STATUS, jobAllows, STOP_REASON } from '../../../shared/vocabulary';
import type { PreviewOutcome } from '../../engine';
import { videoPage } from '../../store/queries/video-pages';
import { AppError } from '../errors';
import { toJobView, toSourceLines } from '../views';
import type { AppContext, DomainHandlers } from './context';
import { jobFor, specOf } from './drafts';
import { jobDetail, jobSummary, jobView } from './job-views';
import { previewHere } from './sessions';

/** Making, finding, naming, deleting and showing jobs and their videos (shared/contract/jobs.ts). */
export function jobHandlers(
  ctx: AppContext,
): DomainHandlers<
  | 'validateSources'
  | 'previewJob'
  | 'findJob'
  | 'createJob'
  | 'renameJob'
  | 'deleteJob'
  | 'listJobs'
  | 'jobDetail'
  | 'listVideos'
> {
  const { engine, events } = ctx;
  return {
    validateSources: async ({ sources }) => ({ lines: toSourceLines(sources, checkSources(sources)) }),

    previewJob: async ({ draft }) => {
      // Nothing is made for a preview that cannot run: a missing key or address is said first.
      await ctx.openSession().close();
      const { job, created, rejected } = jobFor(ctx, draft);
      const outcome = await previewHere(ctx, job.id);
      if (outcome.status === JOB_STATUS.failed && created && jobSummary(ctx, job.id).creditsSpent === 0) {
        // The key was refused before anything was bought: the job this preview made goes again.
        engine.deleteJob(job.id);
        events.jobRemoved(job.id);
      }
      throwIfStoppedForGood(outcome);
      return { detail: jobDetail(ctx, job.id), rejected, uncertainDates: engine.uncertainDates(job.id) };
    },

    findJob: async ({ draft }) => {
      const found = engine.findJob(specOf(draft).spec);
      return { job: found === undefined ? null : jobView(ctx, found.id) };
    },

    createJob: async ({ draft, start, exportPath }) => {
      const { job, created, rejected } = jobFor(ctx, draft);
      if (exportPath !== undefined) engine.configure(job.id, { exportPath });
      let started: 'new' | 'continued' | 'unchanged' | null = null;
      if (start) {
        // Said from the status Start found: only a job that had stopped continues.
        if (created || job.status === JOB_STATUS.draft) started = 'new';
        else started = jobAllows(job.status, 'resume') ? 'continued' : 'unchanged';
        engine.resume(job.id);
        ctx.wakeRunner();
      }
      return { job: jobView(ctx, job.id), created, started, rejected };
    },

    renameJob: async ({ jobId, name }) => {
      jobSummary(ctx, jobId);
      engine.configure(jobId, { name });
      events.jobTouched(jobId);
      return jobView(ctx, jobId);
    },

    deleteJob: async ({ jobId }) => {
      engine.deleteJob(jobId);
      events.jobRemoved(jobId);
      events.creditsTouched();
      return null;
    },

    listJobs: async () => engine.listJobs().map((job) => toJobView(job, ctx.here(job.id))),

    jobDetail: async ({ jobId }) => jobDetail(ctx, jobId),

    listVideos: async ({ jobId, offset, limit, status, search, source }) => {
      jobSummary(ctx, jobId);
      const page = videoPage(ctx.db, jobId, { offset, limit, status, search, source: source ?? null });
      return { total: page.total, offset, rows: page.rows };
    },
  };
}

/**
 * A preview that the service stopped (credits, key, availability) is an error; one that walked every
 * list, or that the user stopped, is not.
 */
function throwIfStoppedForGood(outcome: Exclude<PreviewOutcome, { status: 'busy' }>): void {
  switch (outcome.status) {
    case JOB_STATUS.waiting_credits:
      throw new AppError('credits_ran_out', `${outcome.meaning} (${outcome.code}).`);
    case JOB_STATUS.failed:
      throw new AppError('key_refused', `${describeKeyRefusal(outcome.httpStatus)}.`);
    case JOB_STATUS.paused:
      if (outcome.reason === STOP_REASON.service) throw new AppError('service_unavailable', outcome.message);
      if (outcome.reason === STOP_REASON.budget)
        throw new AppError('budget_reached', 'The budget is spent on list pages.');
      return;
    default:
      return;
  }
}
