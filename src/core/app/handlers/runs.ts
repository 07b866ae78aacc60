import type { AppContext, DomainHandlers } from './context';
import { jobSummary, jobView } from './job-views';
import { runHere, syncHere } from './sessions';
import { toOutcomeView } from '../views';

/**
 * Starting, running, stopping and syncing jobs, and putting their videos back in the queue
 * (shared/contract/runs.ts).
 */
export function runHandlers(
  ctx: AppContext,
): DomainHandlers<
  | 'startJob'
  | 'runJob'
  | 'syncJob'
  | 'pauseJob'
  | 'resumeJob'
  | 'cancelJob'
  | 'retryFailed'
  | 'retryUnavailable'
> {
  const { engine, events } = ctx;

  /** Queues the job for this process's runner (a job another process runs is left to it). */
  const queue = (jobId: number) => {
    engine.resume(jobId);
    ctx.wakeRunner();
    return jobView(ctx, jobId);
  };

  /** Tells the faces that `reset` videos of the job are pending again. */
  const requeued = (jobId: number, reset: number) => {
    events.jobTouched(jobId);
    events.videosTouched(jobId, reset);
    return { job: jobView(ctx, jobId), reset };
  };

  return {
    startJob: async ({ jobId }) => queue(jobId),

    runJob: async ({ jobId }) => {
      jobSummary(ctx, jobId);
      const outcome = await runHere(ctx, jobId);
      return { job: jobView(ctx, jobId), outcome: toOutcomeView(outcome) };
    },

    syncJob: async ({ jobId }) => {
      const synced = await syncHere(ctx, jobId);
      return { job: jobView(ctx, jobId), ...synced };
    },

    pauseJob: async ({ jobId, force, interrupted }) => {
      engine.pause(jobId, { force: force ?? false, interrupted: interrupted ?? false });
      for (const controller of ctx.exporting.get(jobId) ?? []) controller.abort();
      return jobView(ctx, jobId);
    },

    resumeJob: async ({ jobId }) => queue(jobId),

    cancelJob: async ({ jobId }) => {
      engine.cancel(jobId);
      return jobView(ctx, jobId);
    },

    retryFailed: async ({ jobId }) => requeued(jobId, engine.retryFailed(jobId)),

    retryUnavailable: async ({ jobId }) => requeued(jobId, engine.retryUnavailable(jobId)),
  };
}
