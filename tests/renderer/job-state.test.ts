import { describe, expect, it } from 'vitest';
import { availableActions, describeStop } from '../../src/renderer/src/lib/job-state';
import type { JobView } from '../../src/shared/contract';
import {
  DAILY_LIMIT_STOP_CODE,
  JOB_STATUSES,
  jobAllows,
  STOP_REASON,
  STOP_REASONS,
  type JobStatus,
} from '../../src/shared/vocabulary';

function jobView(status: JobStatus, runningIn: JobView['runningIn'] = null): JobView {
  return {
    id: 1,
    title: 'A playlist',
    name: null,
    status,
    sources: ['PLjobStateList_n3'],
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
    finishedAt: null,
    counts: { total: 3, pending: 3, ok: 0, unavailable: 0, failed: 0, skipped: 0, interrupted: 0 },
    creditsSpent: 0,
    creditsPossible: 0,
    budget: null,
    concurrency: 4,
    formats: ['txt'],
    stop: null,
    sourcesWalked: 1,
    sourcesTotal: 1,
    sourcesFailed: 0,
    ratePerSecond: 0,
    etaSeconds: null,
    runningIn,
    waitingFor: null,
    citation: null,
    keepCurrent: {
      available: true,
      marked: false,
      lastSyncAt: null,
      nextSyncAt: null,
      autoExportPath: null,
      limitMessage: null,
      syncProblem: null,
    },
  };
}

describe("the job's buttons", () => {
  it.each(JOB_STATUSES)('for a job %s are the actions the shared table allows it', (status) => {
    const runningIn = status === 'running' ? 'here' : null;
    const can = availableActions(jobView(status, runningIn));
    expect(can).toEqual({
      pause: jobAllows(status, 'pause'),
      resume: jobAllows(status, 'resume'),
      cancel: jobAllows(status, 'cancel'),
      retryFailed: false,
      sync: jobAllows(status, 'sync'),
      remove: runningIn === null && jobAllows(status, 'delete'),
    });
  });

  it('offer Retry failed for failed videos, and for a list not read only once the job has finished', () => {
    const withCounts = (status: JobStatus, failed: number, sourcesFailed: number) => ({
      ...jobView(status),
      counts: { ...jobView(status).counts, failed },
      sourcesFailed,
    });
    expect(availableActions(withCounts('paused', 2, 0)).retryFailed).toBe(true);
    // Paused by a service down (503 to its list): Resume reads the list again; nothing to retry.
    expect(availableActions(withCounts('paused', 0, 1)).retryFailed).toBe(false);
    expect(availableActions(withCounts('completed', 0, 1)).retryFailed).toBe(true);
  });

  it('offer nothing but Export for a job another process runs', () => {
    expect(Object.values(availableActions(jobView('running', 'elsewhere')))).not.toContain(true);
  });
});

describe('why a job stopped', () => {
  it.each(STOP_REASONS.filter((reason) => reason !== 'shutdown'))(
    'is said in a sentence for every reason a job can keep (%s)',
    (reason) => {
      const said = describeStop({ ...jobView('paused'), stop: { reason, code: null, message: null } });
      expect(said).toMatch(/^[A-Z].*\.$/);
    },
  );

  it('tells a job its own budget stopped to raise the budget, and one the daily limit stopped that it goes on by itself', () => {
    const budget = describeStop({
      ...jobView('paused'),
      stop: { reason: STOP_REASON.budget, code: null, message: 'the budget of 30 credits is spent' },
    });
    expect(budget).toBe(
      'The budget of 30 credits is spent. To go on, start the same sources again from New job with a larger budget.',
    );
    const daily = describeStop({
      ...jobView('paused'),
      stop: {
        reason: STOP_REASON.budget,
        code: DAILY_LIMIT_STOP_CODE,
        message:
          'the daily credit limit of automatic syncs (2 credits) is spent; the first automatic sync after midnight continues it',
      },
    });
    expect(daily).toBe(
      'The daily credit limit of automatic syncs (2 credits) is spent; the first automatic sync after midnight continues it.',
    );
  });

  it('tells a job the disk stopped why, even while it waits queued, and never calls it an unexpected error', () => {
    const full =
      "The disk holding Scriptorium's data folder is full, so Scriptorium could not save its work. " +
      'Free some space, then try again: what was saved before is kept.';
    const stop = { reason: STOP_REASON.error, code: 'disk_full', message: full };
    expect(describeStop({ ...jobView('queued'), stop })).toBe(
      `${full} It continues by itself once there is room: Scriptorium tries again now and then, and at every start.`,
    );
    expect(describeStop({ ...jobView('paused'), stop })).toBe(
      `${full} Once there is room, the next sync continues it, or press Resume.`,
    );
    // A queued job without such a stop says nothing: it is simply waiting its turn.
    expect(describeStop({ ...jobView('queued'), stop: { ...stop, code: null } })).toBeNull();
  });
});
