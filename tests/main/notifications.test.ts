import { describe, expect, it } from 'vitest';
import {
  notifyJobOutcomes,
  notifyNewRelease,
  notifyNewVideos,
  type JobNotice,
} from '../../src/main/notifications';
import type { EventPayload, JobStatus, JobView, UpdateState } from '../../src/shared/contract';

function job(id: number, status: JobStatus, overrides: Partial<JobView> = {}): JobView {
  return {
    id,
    title: `Playlist ${id}`,
    name: null,
    status,
    sources: ['PLabcdefghijklmnop'],
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    finishedAt: null,
    counts: { total: 10, pending: 0, ok: 10, unavailable: 0, failed: 0, skipped: 0, interrupted: 0 },
    creditsSpent: 11,
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
    runningIn: null,
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
    ...overrides,
  };
}

function watch(known: JobView[] = []) {
  const changed = new Set<(job: JobView) => void>();
  const removed = new Set<(jobId: number) => void>();
  const notices: JobNotice[] = [];
  const stop = notifyJobOutcomes(
    known,
    {
      onJobChanged: (listener) => (changed.add(listener), () => changed.delete(listener)),
      onJobRemoved: (listener) => (removed.add(listener), () => removed.delete(listener)),
    },
    (notice) => notices.push(notice),
  );
  return {
    notices,
    stop,
    change: (view: JobView) => changed.forEach((listener) => listener(view)),
    remove: (jobId: number) => removed.forEach((listener) => listener(jobId)),
    listening: () => changed.size + removed.size,
  };
}

describe('system notifications of job outcomes', () => {
  it('tells once when a job finishes, fails or waits for credits', () => {
    const { notices, change } = watch();
    change(
      job(1, 'running', {
        counts: { total: 10, pending: 4, ok: 6, unavailable: 0, failed: 0, skipped: 0, interrupted: 0 },
      }),
    );
    change(
      job(1, 'completed', {
        counts: { total: 10, pending: 0, ok: 8, unavailable: 0, failed: 2, skipped: 0, interrupted: 0 },
      }),
    );
    change(job(1, 'completed'));
    change(job(2, 'running'));
    change(
      job(2, 'waiting_credits', {
        stop: {
          reason: 'credits',
          code: 'E_FREE_GRANT_DEPLETED',
          message: 'The free credit grant is used up: subscribe to a plan',
        },
      }),
    );
    change(job(3, 'running'));
    change(
      job(3, 'failed', {
        stop: { reason: 'auth', code: '401', message: 'The service refused the key (401).' },
      }),
    );
    change(job(4, 'running'));
    change(job(4, 'paused'));
    change(job(4, 'cancelled'));
    expect(notices).toEqual([
      {
        jobId: 1,
        title: 'Job finished',
        body: 'Playlist 1: 8 transcripts fetched, 2 failed. Export it from Jobs.',
      },
      {
        jobId: 2,
        title: 'Job waiting for credits',
        body: 'Playlist 2: The free credit grant is used up: subscribe to a plan, then press Resume.',
      },
      { jobId: 3, title: 'Job failed', body: 'Playlist 3: The service refused the key (401).' },
    ]);
  });

  it('is quiet about outcomes already known at start, and tells again when a job reaches one anew', () => {
    const { notices, change } = watch([job(1, 'completed'), job(2, 'waiting_credits')]);
    change(job(1, 'completed'));
    change(job(2, 'waiting_credits'));
    expect(notices).toEqual([]);
    change(job(2, 'queued'));
    change(job(2, 'running'));
    change(
      job(2, 'completed', {
        counts: { total: 1, pending: 0, ok: 1, unavailable: 0, failed: 0, skipped: 0, interrupted: 0 },
      }),
    );
    expect(notices).toEqual([
      { jobId: 2, title: 'Job finished', body: 'Playlist 2: 1 transcript fetched. Export it from Jobs.' },
    ]);
  });

  it('tells of a job first seen already finished (it ran between two updates), and stops listening when asked', () => {
    const { notices, change, remove, stop, listening } = watch();
    change(job(5, 'completed'));
    remove(5);
    change(job(5, 'completed'));
    expect(notices.map((notice) => notice.jobId)).toEqual([5, 5]);
    stop();
    expect(listening()).toBe(0);
  });
});

describe('system notifications of syncs', () => {
  it('say once how many new videos a sync found, and nothing for a sync that found none', () => {
    const notices: JobNotice[] = [];
    const listeners = new Set<(sync: EventPayload<'jobSynced'>) => void>();
    const stop = notifyNewVideos(
      (listener) => (listeners.add(listener), () => listeners.delete(listener)),
      (notice) => notices.push(notice),
    );
    const synced = (sync: Partial<EventPayload<'jobSynced'>>) =>
      listeners.forEach((listener) =>
        listener({
          jobId: 1,
          title: 'Lectures',
          automatic: true,
          newVideos: 0,
          credits: 0,
          completed: true,
          stopMessage: null,
          ...sync,
        }),
      );
    synced({ newVideos: 0 });
    synced({ newVideos: 3, credits: 4 });
    synced({ newVideos: 1, credits: 1, automatic: false });
    synced({
      newVideos: 5,
      credits: 2,
      completed: false,
      stopMessage:
        'the daily credit limit of automatic syncs (2 credits) is spent; the first automatic sync after midnight continues it',
    });
    expect(notices).toEqual([
      { jobId: 1, title: '3 new videos in Lectures', body: 'Brought up to date for 4 credits.' },
      { jobId: 1, title: '1 new video in Lectures', body: 'Brought up to date for 1 credit.' },
      {
        jobId: 1,
        title: '5 new videos in Lectures',
        body: 'The sync stopped before its end: the daily credit limit of automatic syncs (2 credits) is spent; the first automatic sync after midnight continues it.',
      },
    ]);
    stop();
    expect(listeners.size).toBe(0);
  });

  it('do not call a synced job finished again: it was, and the sync tells its own news', () => {
    const { notices, change } = watch([job(1, 'completed')]);
    change(job(1, 'running'));
    change(job(1, 'completed'));
    expect(notices).toEqual([]);
    // A sync the service stopped is still told.
    change(job(1, 'running'));
    change(
      job(1, 'waiting_credits', {
        stop: { reason: 'credits', code: 'E_PAYMENT_REQUIRED', message: 'Out of credits' },
      }),
    );
    expect(notices.map((notice) => notice.title)).toEqual(['Job waiting for credits']);
    // Resumed and finished, it is a job finishing like any other.
    change(job(1, 'queued'));
    change(job(1, 'running'));
    change(job(1, 'completed'));
    expect(notices.map((notice) => notice.title)).toEqual(['Job waiting for credits', 'Job finished']);
  });
});

describe('a newer release', () => {
  it('is told once a version, with what Settings lets the user do for this package', () => {
    const listeners = new Set<(status: EventPayload<'updateChanged'>) => void>();
    const notices: Array<Pick<JobNotice, 'title' | 'body'>> = [];
    notifyNewRelease(
      (listener) => (listeners.add(listener), () => listeners.delete(listener)),
      (notice) => notices.push(notice),
    );
    const changed = (state: UpdateState) =>
      listeners.forEach((listener) => listener({ current: '0.1.0', state, waiting: null }));
    const available = (version: string, offer: 'install' | 'download'): UpdateState => ({
      phase: 'available',
      version,
      offer,
      releaseUrl: `https://github.com/o/r/releases/tag/v${version}`,
      file: null,
    });
    changed({ phase: 'checking' });
    changed(available('0.2.0', 'install'));
    changed({ phase: 'downloading', version: '0.2.0', percent: 10 });
    changed(available('0.2.0', 'install'));
    changed(available('0.3.0', 'download'));
    expect(notices).toEqual([
      {
        title: 'Scriptorium 0.2.0 is available',
        body: 'You have 0.1.0. Settings, Updates downloads it and restarts into it when you choose.',
      },
      {
        title: 'Scriptorium 0.3.0 is available',
        body: 'You have 0.1.0. Settings, Updates says where the new package is, with its checksum.',
      },
    ]);
  });
});
