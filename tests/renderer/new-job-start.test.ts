import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dispatch, memoryKeyStore, openApp, type ScriptoriumApp } from '../../src/core/app';
import { startedNotice } from '../../src/renderer/src/lib/job-state';
import { createNewJobStore } from '../../src/renderer/src/stores/new-job';
import { createApi } from '../../src/shared/client';
import {
  BUILT_IN_JOB_DEFAULTS,
  type CommandName,
  type JobView,
  type ScriptoriumApi,
} from '../../src/shared/contract';
import { describePlaylist, startSimulator, type RunningSimulator } from '../../src/simulator';
import { tempDir } from '../support/cli';

// Issue 44: Start pressed while a preview of the same sources is under way was lost (the job stayed
// "Not started", and the Jobs screen said it continued). Here New job's own store, over the real
// dispatch of an app that runs its queued jobs, presses Start at every point of a preview's life.
// Each point is reached by an event, never by waiting: a command held at a gate before it reaches
// the app or before its answer reaches the store, or a list page the simulator holds.

/** Two pages of a list (the simulator's pages hold 100 videos). */
const VIDEOS = 150;
const PAGES = 2;

let sim: RunningSimulator;
let dir: string;
let app: ScriptoriumApp;

beforeAll(async () => {
  sim = await startSimulator({ credits: 100_000 });
  dir = tempDir();
  app = openApp({
    dataDir: dir,
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    serviceUrl: sim.url,
    runner: true,
  });
});

afterAll(async () => {
  await app.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Held {
  /** Resolves once the command is held. */
  reached: Promise<void>;
  release(): void;
}

/**
 * The app's contract as the store calls it, with one gate: the first `name` command is held before
 * it reaches the app ('request') or after the app answered it ('answer'), until released.
 */
function gatedApi(name: CommandName, at: 'request' | 'answer'): { api: ScriptoriumApi; held: Held } {
  let reached = (): void => undefined;
  let release = (): void => undefined;
  const held: Held = {
    reached: new Promise((resolve) => (reached = resolve)),
    release: () => release(),
  };
  const opened = new Promise<void>((resolve) => (release = resolve));
  let armed = true;
  const api = createApi(async (command, input) => {
    const gated = armed && command === name;
    if (gated) armed = false;
    if (gated && at === 'request') {
      reached();
      await opened;
    }
    const answer = await dispatch(app.handlers, command, input);
    if (gated && at === 'answer') {
      reached();
      await opened;
    }
    return answer;
  }, app.on);
  return { api, held };
}

/** The simulator holds every answer from the moment the request for the next list's page `page` arrives. */
function holdListPage(page: number): Held {
  const before = sim.admin.requests().length;
  const pagesAsked = () =>
    sim.admin
      .requests()
      .slice(before)
      .filter((request) => request.path === '/api/v2/playlist/videos').length;
  let release = (): void => undefined;
  const reached = (async () => {
    await vi.waitFor(() => expect(pagesAsked()).toBe(page - 1), { timeout: 30_000, interval: 5 });
    release = sim.admin.holdAnswers();
    await vi.waitFor(() => expect(pagesAsked()).toBe(page), { timeout: 30_000, interval: 5 });
  })();
  return { reached, release: () => release() };
}

async function job(jobId: number): Promise<JobView> {
  return (await app.handlers.jobDetail({ jobId })).job;
}

/** Resolves once the job has finished, told by the app's events. */
function whenCompleted(jobId: number): Promise<void> {
  return new Promise((resolve) => {
    const stop = app.on('jobChanged', (view) => {
      if (view.id === jobId && view.status === 'completed') {
        stop();
        resolve();
      }
    });
    void job(jobId).then((view) => {
      if (view.status === 'completed') {
        stop();
        resolve();
      }
    });
  });
}

type Point =
  | { kind: 'gate'; command: CommandName; at: 'request' | 'answer' }
  | { kind: 'page'; page: number }
  | { kind: 'done' };

const POINTS: Array<[string, Point]> = [
  [
    'before the app is asked whether a run could start',
    { kind: 'gate', command: 'checkService', at: 'request' },
  ],
  ['before that answer reaches the form', { kind: 'gate', command: 'checkService', at: 'answer' }],
  ['before the preview asks for its job', { kind: 'gate', command: 'createJob', at: 'request' }],
  ['once the job is made, before the form knows it', { kind: 'gate', command: 'createJob', at: 'answer' }],
  ['while the first list page is read', { kind: 'page', page: 1 }],
  ['while the second list page is read', { kind: 'page', page: 2 }],
  [
    'once the lists are walked, before the answer reaches the form',
    { kind: 'gate', command: 'previewJob', at: 'answer' },
  ],
  ['once the preview is shown', { kind: 'done' }],
];

describe('Start is never lost, whatever the preview of the same sources is doing', () => {
  it.each(POINTS.map(([when, point], index) => [when, point, index] as const))(
    'Start pressed %s',
    async (_when, point, index) => {
      const playlist = `PLstartDuringPreview${index}_n${VIDEOS}`;
      const gated = point.kind === 'gate' ? gatedApi(point.command, point.at) : undefined;
      const store = createNewJobStore(
        gated?.api ?? createApi((name, input) => dispatch(app.handlers, name, input), app.on),
      );
      store.getState().applyDefaults({ ...BUILT_IN_JOB_DEFAULTS, concurrency: 8, formats: ['txt'] });
      store.getState().setText(playlist);

      const held = gated?.held ?? (point.kind === 'page' ? holdListPage(point.page) : undefined);
      const previewed = store.getState().runPreview();
      if (held === undefined) await previewed;
      else await held.reached;
      if (point.kind === 'done') expect(store.getState().preview.phase).toBe('done');

      const jobId = await store.getState().start();
      held?.release();
      await previewed;

      expect(jobId).not.toBeNull();
      const started = store.getState().lastStarted;
      expect(started).toEqual({ jobId, started: 'new' });
      expect(startedNotice(started!.started, `job ${jobId}`, undefined)).toBe(`Started job ${jobId}.`);
      // The preview that was under way says nothing more: the form is the next job's.
      expect(store.getState().preview).toEqual({ phase: 'idle' });
      // Started, whatever the preview was doing: queued, running or done, never left a draft.
      expect((await job(jobId!)).status).not.toBe('draft');

      await whenCompleted(jobId!);
      const done = await job(jobId!);
      // Every video answered: fetched, or without captions (unavailable, which costs nothing).
      expect(done.counts).toMatchObject({ total: VIDEOS, failed: 0, pending: 0 });
      expect(done.counts.ok + done.counts.unavailable).toBe(VIDEOS);
      // One job for these sources, and nothing bought twice: each page once, each transcript once.
      const jobs = (await app.handlers.listJobs({})).filter((view) => view.sources.includes(playlist));
      expect(jobs.map((view) => view.id)).toEqual([jobId]);
      expect(done.creditsSpent).toBe(PAGES + done.counts.ok);
      const videoIds = describePlaylist(playlist).videoIds();
      expect(videoIds.filter((videoId) => sim.admin.chargesFor(videoId) > 1)).toEqual([]);
    },
  );
});

describe('what the Jobs screen says after Start', () => {
  it('says a job continues only when it had stopped, and otherwise what it is doing', () => {
    expect(startedNotice('new', 'job 3, “Lectures”', 'queued')).toBe('Started job 3, “Lectures”.');
    expect(startedNotice('continued', 'job 3', 'queued')).toBe(
      'These sources and options match job 3, which continues where it stopped: nothing already fetched is bought again.',
    );
    expect(startedNotice('unchanged', 'job 3', 'completed')).toBe(
      'These sources and options match job 3, which has finished: nothing is bought again, and Export writes its corpus.',
    );
    expect(startedNotice('unchanged', 'job 3', 'running')).toBe(
      'These sources and options match job 3, which is running already.',
    );
  });
});
