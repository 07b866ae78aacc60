import type { CommandOutput, JobView } from '../../../shared/contract';
import { DAILY_LIMIT_STOP_CODE, JOB_STATUS, JOB_STATUS_WORDS } from '../../../shared/vocabulary';
import { canKeepCurrent, CannotKeepCurrentError, type SpendingCap } from '../../engine';
import { toAppError } from '../errors';
import type { AppContext, DomainHandlers } from './context';
import { exportJob } from './exports';
import { jobView } from './job-views';
import { syncHere } from './sessions';

type AutoSyncOutput = CommandOutput<'autoSyncJob'>;

/**
 * Keeping jobs current by themselves (shared/contract/keep-current.ts): marking a job, its
 * auto-export file, and one automatic sync.
 */
export function keepCurrentHandlers(
  ctx: AppContext,
): DomainHandlers<'setKeepCurrent' | 'setAutoExport' | 'autoSyncJob'> {
  return {
    setKeepCurrent: async ({ jobId, on }) => {
      ctx.keepCurrent.setKeepCurrent(jobId, on);
      ctx.events.jobTouched(jobId);
      return jobView(ctx, jobId);
    },

    setAutoExport: async ({ jobId, destination }) => {
      ctx.keepCurrent.setAutoExportPath(jobId, destination);
      ctx.events.jobTouched(jobId);
      return jobView(ctx, jobId);
    },

    autoSyncJob: async ({ jobId, dailyLimit }) => syncAutomatically(ctx, jobId, dailyLimit),
  };
}

/**
 * One automatic sync (docs/product.md, "Keeping jobs current by themselves"): a finished job is
 * synced, and one the daily credit limit stopped is synced again, which continues it; any other is
 * left as it is. The sync spends within the job's budget and what `dailyLimit` leaves of today's
 * automatic spending; reaching either pauses the job with the limit's words. A sync that completes is
 * then written to the job's auto-export file, if it has one.
 */
async function syncAutomatically(
  ctx: AppContext,
  jobId: number,
  dailyLimit: number | null,
): Promise<AutoSyncOutput> {
  const job = ctx.engine.job(jobId);
  if (job !== undefined && !canKeepCurrent(job)) throw new CannotKeepCurrentError(jobId);
  if (job === undefined || !ctx.keepCurrent.maySync(jobId)) {
    const view = jobView(ctx, jobId);
    return { job: view, sync: null, skipped: notFinished(view), autoExport: null };
  }
  const synced = await syncHere(ctx, jobId, {
    automatic: true,
    ...(dailyLimit !== null && { cap: dailyCap(dailyLimit, ctx.keepCurrent.automaticCreditsToday()) }),
  });
  const completed = synced.outcome.status === JOB_STATUS.completed;
  const path = ctx.engine.job(jobId)?.keepCurrent.autoExportPath ?? null;
  const autoExport = completed && path !== null ? await exportTo(ctx, jobId, path) : null;
  return { job: jobView(ctx, jobId), sync: synced, skipped: null, autoExport };
}

/** What is left of today's daily credit limit for this sync, and what the job says when it is spent. */
function dailyCap(limit: number, spentToday: number): SpendingCap {
  return {
    credits: Math.max(0, limit - spentToday),
    code: DAILY_LIMIT_STOP_CODE,
    message: `the daily credit limit of automatic syncs (${limit} ${limit === 1 ? 'credit' : 'credits'}) is spent; the first automatic sync after midnight continues it`,
  };
}

/** Writes the corpus in the job's formats and with its citation; a failure is told, not thrown: the sync stands. */
async function exportTo(
  ctx: AppContext,
  jobId: number,
  path: string,
): Promise<NonNullable<AutoSyncOutput['autoExport']>> {
  try {
    const written = await exportJob(ctx, { jobId, formats: jobView(ctx, jobId).formats, destination: path });
    return { ok: true, path: written.path ?? path };
  } catch (error) {
    return { ok: false, message: toAppError(error).message };
  }
}

function notFinished(job: JobView): string {
  return `it has not finished (it is ${JOB_STATUS_WORDS[job.status]}): it is synced once it has`;
}
