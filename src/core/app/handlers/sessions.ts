import type { CommandOutput } from '../../../shared/contract';
import { JOB_STATUS } from '../../../shared/vocabulary';
import type { PreviewOutcome, RunOutcome, RunSettings } from '../../engine';
import { AppError } from '../errors';
import { toOutcomeView } from '../views';
import type { AppContext } from './context';
import { jobView } from './job-views';

/** What a sync found and cost, as the contract says it. */
export type SyncResult = NonNullable<CommandOutput<'autoSyncJob'>['sync']>;

/**
 * Runs `work` with a fresh session on the service; the job is told about when it ends, and the
 * runner looks again: a Start pressed while a preview walked the job queued it for then.
 */
async function withSession<T>(
  ctx: AppContext,
  jobId: number,
  work: (settings: Pick<RunSettings, 'client' | 'pacer' | 'service'>) => Promise<T>,
): Promise<T> {
  const session = ctx.openSession();
  try {
    return await work({ client: session.client, pacer: session.pacer, service: session.service });
  } finally {
    ctx.events.jobTouched(jobId);
    ctx.wakeRunner();
    await session.close();
  }
}

type Busy = Extract<RunOutcome, { status: 'busy' }>;

/** Whether another process runs the job: nothing ran here, which the handlers answer as job_busy. */
function isBusy(outcome: { status: string }): outcome is Busy {
  return outcome.status === 'busy';
}

/** Runs a job here until it is done or stopped. */
export async function runHere(ctx: AppContext, jobId: number): Promise<Exclude<RunOutcome, Busy>> {
  const outcome = await withSession(ctx, jobId, (settings) => ctx.engine.run(jobId, settings));
  if (isBusy(outcome)) throw new AppError('job_busy', outcome.message);
  return outcome;
}

/** Walks a job's lists here without buying a transcript (a preview). */
export async function previewHere(ctx: AppContext, jobId: number): Promise<Exclude<PreviewOutcome, Busy>> {
  const outcome = await withSession(ctx, jobId, (settings) => ctx.engine.preview(jobId, settings));
  if (isBusy(outcome)) throw new AppError('job_busy', outcome.message);
  return outcome;
}

/** Syncs a job here and tells the faces what it found (jobSynced). */
export async function syncHere(
  ctx: AppContext,
  jobId: number,
  how: Pick<RunSettings, 'automatic' | 'cap'> = {},
): Promise<SyncResult> {
  const synced = await withSession(ctx, jobId, (settings) => ctx.engine.sync(jobId, { ...settings, ...how }));
  const { outcome, newVideos, pages, credits } = synced;
  if (isBusy(outcome)) throw new AppError('job_busy', outcome.message);
  const job = jobView(ctx, jobId);
  const completed = outcome.status === JOB_STATUS.completed;
  ctx.events.emit('jobSynced', {
    jobId,
    title: job.title,
    automatic: how.automatic ?? false,
    newVideos,
    credits,
    completed,
    stopMessage: completed ? null : (job.stop?.message ?? null),
  });
  return { outcome: toOutcomeView(outcome), newVideos, pages, credits };
}
