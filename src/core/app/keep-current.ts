import type { CommandInput, CommandOutput, JobView } from '../../shared/contract';
import { DAILY_LIMIT_STOP_CODE, JOB_STATUS, JOB_STATUS_WORDS } from '../../shared/vocabulary';
import {
  canKeepCurrent,
  CannotKeepCurrentError,
  type Engine,
  type RunSettings,
  type SpendingCap,
} from '../engine';
import { toAppError } from './errors';

/** What a sync found and cost, as the contract says it. */
export type SyncResult = NonNullable<CommandOutput<'autoSyncJob'>['sync']>;

/** What an automatic sync works with; handlers.ts builds it from the app's context. */
export interface KeepCurrentDeps {
  engine: Engine;
  view(jobId: number): JobView;
  /** Syncs the job here with a session on the service (a job another process runs is an error). */
  sync(jobId: number, settings: Pick<RunSettings, 'automatic' | 'cap'>): Promise<SyncResult>;
  /** The exportJob command. */
  exportJob(input: CommandInput<'exportJob'>): Promise<CommandOutput<'exportJob'>>;
}

/**
 * One automatic sync (docs/product.md, "Keeping jobs current by themselves"): a finished job is
 * synced, and one the daily credit limit stopped is synced again, which continues it; any other is
 * left as it is. The sync spends within the job's budget and what `dailyLimit` leaves of today's
 * automatic spending; reaching either pauses the job with the limit's words. A sync that completes is
 * then written to the job's auto-export file, if it has one.
 */
export async function syncAutomatically(
  deps: KeepCurrentDeps,
  jobId: number,
  dailyLimit: number | null,
): Promise<CommandOutput<'autoSyncJob'>> {
  const { engine } = deps;
  const job = engine.job(jobId);
  if (job !== undefined && !canKeepCurrent(job)) throw new CannotKeepCurrentError(jobId);
  if (job === undefined || !engine.maySync(jobId)) {
    const view = deps.view(jobId);
    return { job: view, sync: null, skipped: notFinished(view), autoExport: null };
  }
  const synced = await deps.sync(jobId, {
    automatic: true,
    ...(dailyLimit !== null && { cap: dailyCap(dailyLimit, engine.automaticCreditsToday()) }),
  });
  const completed = synced.outcome.status === JOB_STATUS.completed;
  const path = engine.job(jobId)?.keepCurrent.autoExportPath ?? null;
  const autoExport = completed && path !== null ? await exportTo(deps, jobId, path) : null;
  return { job: deps.view(jobId), sync: synced, skipped: null, autoExport };
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
  deps: KeepCurrentDeps,
  jobId: number,
  path: string,
): Promise<NonNullable<CommandOutput<'autoSyncJob'>['autoExport']>> {
  try {
    const written = await deps.exportJob({ jobId, formats: deps.view(jobId).formats, destination: path });
    return { ok: true, path: written.path ?? path };
  } catch (error) {
    return { ok: false, message: toAppError(error).message };
  }
}

function notFinished(job: JobView): string {
  return `it has not finished (it is ${JOB_STATUS_WORDS[job.status]}): it is synced once it has`;
}
