import { ITEM_STATUS, JOB_STATUS } from '../../shared/vocabulary';
import type { Clock } from '../api';
import { paymentMeaning, type Engine } from '../engine';
import type { EventHub } from './events';
import type { AppContext } from './handlers';
import type { JobPace } from './views';
import { DatabaseWatcher } from './watcher';

// What the app hears happen (the engine's facts, another process's writes), turned into the
// contract's events; openApp (compose.ts) wires both.

/** The engine's facts, turned into the contract's events. */
export function forwardEngineFacts(
  engine: Engine,
  events: EventHub,
  paces: Map<number, JobPace>,
  billingUrl: () => string | null,
): void {
  engine.on('job', ({ jobId, status }) => {
    events.jobTouched(jobId);
    if (status === JOB_STATUS.waiting_credits) {
      const job = engine.job(jobId);
      const code = job?.stopCode ?? 'E_PAYMENT_REQUIRED';
      events.emit('paymentRequired', {
        jobId,
        code,
        meaning: paymentMeaning(code),
        billingUrl: billingUrl(),
      });
    }
    if (status !== JOB_STATUS.running) paces.delete(jobId);
  });
  engine.on('snapshot', (snapshot) => {
    paces.set(snapshot.jobId, { ratePerSecond: snapshot.ratePerSecond, etaSeconds: snapshot.etaSeconds });
    events.jobTouched(snapshot.jobId);
    // A run changes the ledger without spending a credit too: a paid request is recorded before it
    // is sent, and its row goes when the answer cost nothing (a 402, a 404). Its snapshots, the last
    // once its requests in flight are written, bring the credits bar up to date with those.
    events.creditsTouched();
  });
  engine.on('item', ({ jobId, status }) => {
    if (status !== ITEM_STATUS.fetching) events.videosTouched(jobId);
    events.jobTouched(jobId);
  });
  engine.on('page', ({ jobId, videos }) => {
    events.videosTouched(jobId, videos);
    events.jobTouched(jobId);
  });
  engine.on('credit', ({ jobId }) => {
    events.creditsTouched();
    events.jobTouched(jobId);
  });
  engine.on('wait', ({ jobId, status, waitMs, attempt }) =>
    events.emit('retryWait', { jobId, status, waitMs, attempt }),
  );
}

/**
 * Tells faces what another process (the CLI beside the window) changes: each job whose state moved
 * since the last look, the videos it finished, the credits; and a runner wakes for jobs queued there.
 * The pace of a job run elsewhere is measured from its finished videos between two looks, on the
 * app's clock.
 */
export function watchOtherProcesses(
  ctx: AppContext,
  clock: Clock,
  paces: Map<number, JobPace>,
  wake: () => void,
): DatabaseWatcher {
  const seen = new Map<number, { mark: string; done: number; at: number }>();
  return new DatabaseWatcher(ctx.db, () => {
    const now = clock.now();
    const jobs = ctx.engine.listJobs();
    for (const job of jobs) {
      const done = job.counts.ok + job.counts.unavailable + job.counts.failed + job.counts.skipped;
      const mark = JSON.stringify([
        job.status,
        job.updatedAt,
        job.counts,
        job.creditsSpent,
        job.walks.length,
      ]);
      const before = seen.get(job.id);
      seen.set(job.id, { mark, done, at: now });
      if (before?.mark === mark) continue;
      if (job.runningIn === 'elsewhere' && before !== undefined && now > before.at) {
        const ratePerSecond = ((done - before.done) * 1000) / (now - before.at);
        paces.set(job.id, {
          ratePerSecond,
          etaSeconds: ratePerSecond > 0 ? Math.ceil(job.counts.pending / ratePerSecond) : null,
        });
      }
      if (before !== undefined && done !== before.done) ctx.events.videosTouched(job.id, done - before.done);
      ctx.events.jobTouched(job.id);
    }
    const present = new Set(jobs.map((job) => job.id));
    for (const jobId of [...seen.keys()]) {
      if (present.has(jobId)) continue;
      seen.delete(jobId);
      ctx.events.jobRemoved(jobId);
    }
    ctx.events.creditsTouched();
    if (jobs.some((job) => job.status === JOB_STATUS.queued)) wake();
  });
}
