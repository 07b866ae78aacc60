import type { JobDetail, JobView } from '../../../shared/contract';
import type { JobSummary } from '../../engine';
import { jobHistory, failedByStatus } from '../../store/queries/job-history';
import { writableVersionsOf } from '../../store/queries/released-rows';
import { AppError } from '../errors';
import { describeFailures } from '../failure-reasons';
import { toJobDetail, toJobView } from '../views';
import type { AppContext } from './context';

/** The job as the engine sums it up; job_not_found when there is none. */
export function jobSummary(ctx: AppContext, jobId: number): JobSummary {
  const job = ctx.engine.job(jobId);
  if (job === undefined) throw new AppError('job_not_found', `There is no job ${jobId}.`);
  return job;
}

/** The job as every command shows it. */
export function jobView(ctx: AppContext, jobId: number): JobView {
  return toJobView(jobSummary(ctx, jobId), ctx.here(jobId));
}

/** The job with its lists, estimate, history and failures, as Job detail and a preview show it. */
export function jobDetail(ctx: AppContext, jobId: number): JobDetail {
  return toJobDetail(jobSummary(ctx, jobId), jobView(ctx, jobId), ctx.engine.estimate(jobId), {
    ...jobHistory(ctx.db, jobId),
    failures: describeFailures(failedByStatus(ctx.db, jobId)),
    writable: writableVersionsOf(ctx.db, jobId),
  });
}
