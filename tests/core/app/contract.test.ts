import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryKeyStore, openApp, type ScriptoriumApp } from '../../../src/core/app';
import type {
  EventName,
  EventPayload,
  JobDraft,
  JobView,
  ScriptoriumApi,
} from '../../../src/shared/contract';
import type { Clock } from '../../../src/core/api';
import { ContractError } from '../../../src/shared/contract-error';
import { describePlaylist, startSimulator, type RunningSimulator } from '../../../src/simulator';
import { readZip, tempDir } from '../../support/cli';
import { TRANSPORTS, type Connected } from '../../support/transports';
import { TimerClock } from '../api/fake-clock';

// Every command and event of the contract, driven as a face drives them, over each transport.
let sim: RunningSimulator;
let dataDir: string;
let app: ScriptoriumApp;
let face: Connected;
let api: ScriptoriumApi;
let logged: unknown[];

function draft(sources: string[], overrides: Partial<JobDraft> = {}): JobDraft {
  return {
    sources: sources.map((text, index) => ({ where: `line ${index + 1}`, text })),
    languages: 'orig',
    includeTimestamp: true,
    sendMetadata: true,
    maxVideos: null,
    budget: null,
    concurrency: 4,
    formats: ['txt', 'json', 'srt', 'vtt'],
    ...overrides,
  };
}

/** Collects every event of one kind from now on. */
function record<N extends EventName>(event: N): Array<EventPayload<N>> {
  const seen: Array<EventPayload<N>> = [];
  api.on(event, (payload) => seen.push(payload));
  return seen;
}

/** Resolves with the first jobChanged view of the job that passes `done`. */
function jobBecomes(jobId: number, done: (job: JobView) => boolean): Promise<JobView> {
  return new Promise((resolve) => {
    const stop = api.on('jobChanged', (job) => {
      if (job.id === jobId && done(job)) {
        stop();
        resolve(job);
      }
    });
    void api.jobDetail({ jobId }).then(({ job }) => {
      if (done(job)) {
        stop();
        resolve(job);
      }
    });
  });
}

/** Resolves once `holds()` is true: at once, or at some later event of that kind (else the test times out). */
function until(event: EventName, holds: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (holds()) return resolve();
    const stop = api.on(event, () => {
      if (!holds()) return;
      stop();
      resolve();
    });
  });
}

async function failure(promise: Promise<unknown>): Promise<ContractError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ContractError)) throw new Error(`expected a ContractError, got ${String(error)}`);
  return error;
}

describe.each(TRANSPORTS)('the contract over %s', (_name, connect) => {
  /** A fresh simulator with `credits`, and the app (on `clock`) and the face on a fresh data folder. */
  async function start(credits = 10_000, clock?: Clock): Promise<void> {
    sim = await startSimulator({ credits, latencyMs: 2 });
    dataDir = tempDir();
    logged = [];
    app = openApp({
      dataDir,
      keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
      serviceUrl: sim.url,
      ...(clock && { clock }),
      runner: true,
      watch: true,
      logger: { warn: (...args: unknown[]) => void logged.push(args) },
    });
    face = await connect(app);
    api = face.api;
  }

  async function stop(): Promise<void> {
    await face.close();
    await app.close();
    await sim.close();
  }

  beforeEach(() => start());
  afterEach(() => stop());

  it('validates a paste line by line, sending nothing', async () => {
    const { lines } = await api.validateSources(
      draft(['PLcontractValidate_n40', '@contract_channel_n12', 'not a source!', 'search:cats']),
    );
    expect(lines.map((line) => [line.where, line.kind])).toEqual([
      ['line 1', 'playlist'],
      ['line 2', 'channel'],
      ['line 3', null],
      ['line 4', 'search'],
    ]);
    expect(lines[2]?.reason).toMatch(/not a video, playlist, channel or search/);
    expect(sim.admin.requests()).toEqual([]);
  });

  it('previews a draft by buying list pages only; the job stays a draft, and starting it buys no page again', async () => {
    const { detail, rejected } = await api.previewJob({
      draft: draft(['PLcontractPreviewList_n150', 'dQw4w9WgXcQ', 'nonsense here']),
    });
    expect(rejected.map((line) => line.input)).toEqual(['nonsense here']);
    expect(detail.job).toMatchObject({ status: 'draft', counts: { total: 151, pending: 151 } });
    expect(detail.lists[0]).toMatchObject({ pages: 2, videos: 150, expectedVideos: 150, status: 'done' });
    expect(detail.estimate).toEqual({ pages: 0, transcripts: 151, exact: true });
    const pagesBought = sim.admin.ledger().length;
    expect(sim.admin.ledger().every((charge) => charge.endpoint === 'playlist/videos')).toBe(true);

    await api.startJob({ jobId: detail.job.id });
    const finished = await jobBecomes(detail.job.id, (job) => job.status === 'completed');
    expect(finished.counts.pending).toBe(0);
    expect(sim.admin.ledger().filter((charge) => charge.endpoint === 'playlist/videos')).toHaveLength(
      pagesBought,
    );
  });

  it('tells the faces of a new job by the name it was given, from its first event on', async () => {
    const titles: string[] = [];
    app.on('jobChanged', (view) => titles.push(view.title));
    const told = record('jobChanged');
    const { job } = await api.createJob({
      draft: draft(['PLcontractNamedList_n3'], { name: 'Lectures, spring term' }),
      start: false,
    });
    await until('jobChanged', () => told.some((change) => change.id === job.id));
    expect(titles.length).toBeGreaterThan(0);
    expect(new Set(titles)).toEqual(new Set(['Lectures, spring term']));
  });

  it('runs a started job to its end, telling its progress at most ten times a second', async () => {
    // The app's time moves only when the test moves it, 10 ms a step while the job runs, so the
    // spacing of its events is counted on its own clock whatever the machine's speed.
    const clock = new TimerClock();
    await stop();
    await start(10_000, clock);
    const changes: Array<JobView & { at: number }> = [];
    app.on('jobChanged', (view) => changes.push({ ...view, at: clock.now() }));
    const told = record('jobChanged');
    const videos = record('videosChanged');
    const credits = record('creditsChanged');
    // The simulator answers nothing until the job has been seen running, on a fast machine too.
    const release = sim.admin.holdAnswers();
    const { job, created } = await api.createJob({
      draft: draft(['PLcontractRunningList_n120']),
      start: true,
    });
    expect(created).toBe(true);
    expect(['queued', 'running']).toContain(job.status);
    const running = await jobBecomes(job.id, (view) => view.status === 'running');
    expect(running.ratePerSecond).toBeGreaterThanOrEqual(0);
    release();
    let done = (await api.jobDetail({ jobId: job.id })).job;
    while (done.status !== 'completed') {
      clock.advance(10);
      await new Promise((resolve) => setImmediate(resolve));
      done = (await api.jobDetail({ jobId: job.id })).job;
    }
    // The throttle's trailing event, the final state, is due at most 100 ms after the one before.
    clock.advance(100);
    await until(
      'jobChanged',
      () => told.filter((change) => change.id === job.id).at(-1)?.status === 'completed',
    );

    expect(done.counts.ok + done.counts.unavailable).toBe(120);
    expect(done.creditsSpent).toBe(sim.admin.ledger().length);
    const mine = changes.filter((change) => change.id === job.id);
    expect(mine.length).toBeGreaterThan(1);
    for (let i = 1; i < mine.length; i++) {
      expect(mine[i]!.at - mine[i - 1]!.at).toBeGreaterThanOrEqual(100);
    }
    expect(mine.at(-1)?.status).toBe('completed');
    // The last word of each stream is the final state; the batches may still be on their way.
    await until(
      'videosChanged',
      () =>
        videos.filter((event) => event.jobId === job.id).reduce((sum, event) => sum + event.changed, 0) >=
        120,
    );
    await until('creditsChanged', () => credits.at(-1)?.total === sim.admin.ledger().length);
  });

  it('pauses, resumes, retries failed and unavailable videos, cancels and deletes', async () => {
    sim.admin.addFault({
      match: { endpoint: 'transcript', videoId: 'jNQXAC9IVRw' },
      kind: 'status',
      status: 500,
      times: 1,
    });
    const { job } = await api.createJob({ draft: draft(['dQw4w9WgXcQ', 'jNQXAC9IVRw']), start: true });
    const finished = await jobBecomes(job.id, (view) => view.status === 'completed');
    expect(finished.counts.failed).toBe(1);

    const { reset } = await api.retryFailed({ jobId: job.id });
    expect(reset).toBe(1);
    await api.resumeJob({ jobId: job.id });
    expect(
      (await jobBecomes(job.id, (view) => view.status === 'completed' && view.counts.failed === 0)).counts.ok,
    ).toBe(2);

    // The service had no transcript for one video; asked again on request, it has one now.
    sim.admin.addFault({
      match: { endpoint: 'transcript', videoId: 'M7lc1UVf-VE' },
      kind: 'status',
      status: 404,
      times: 1,
    });
    const sparse = (await api.createJob({ draft: draft(['M7lc1UVf-VE']), start: true })).job;
    expect((await jobBecomes(sparse.id, (view) => view.status === 'completed')).counts.unavailable).toBe(1);
    expect((await api.retryUnavailable({ jobId: sparse.id })).reset).toBe(1);
    await api.resumeJob({ jobId: sparse.id });
    const found = await jobBecomes(sparse.id, (view) => view.status === 'completed' && view.counts.ok === 1);
    expect(found.counts.unavailable).toBe(0);

    // Paused with requests in flight: the held answers arrive during the drain and are kept.
    const release = sim.admin.holdAnswers();
    const slow = (await api.createJob({ draft: draft(['PLcontractPausedList_n40']), start: true })).job;
    await jobBecomes(slow.id, (view) => view.status === 'running');
    await api.pauseJob({ jobId: slow.id });
    release();
    const paused = await jobBecomes(slow.id, (view) => view.status === 'paused');
    expect(paused.stop).toMatchObject({ reason: 'user' });
    await api.resumeJob({ jobId: slow.id });
    await jobBecomes(slow.id, (view) => view.status === 'completed');
    for (const videoId of describePlaylist('PLcontractPausedList_n40').videoIds()) {
      expect(sim.admin.chargesFor(videoId)).toBeLessThanOrEqual(1);
    }

    const cancelled = (await api.createJob({ draft: draft(['PLcontractCancelled_n5']), start: false })).job;
    expect((await api.cancelJob({ jobId: cancelled.id })).status).toBe('cancelled');
    // Stopped for good: Resume does nothing, and its sources no longer find it.
    expect((await api.resumeJob({ jobId: cancelled.id })).status).toBe('cancelled');
    expect(await api.findJob({ draft: draft(['PLcontractCancelled_n5']) })).toEqual({ job: null });
    // Asked for again, the same sources make a new job; the cancelled one stays as it was.
    const askedAgain = await api.createJob({ draft: draft(['PLcontractCancelled_n5']), start: false });
    expect(askedAgain).toMatchObject({ created: true, job: { status: 'draft' } });
    expect(askedAgain.job.id).not.toBe(cancelled.id);
    expect((await api.jobDetail({ jobId: cancelled.id })).job.status).toBe('cancelled');
    expect((await api.findJob({ draft: draft(['PLcontractCancelled_n5']) })).job?.id).toBe(askedAgain.job.id);

    const removed = record('jobRemoved');
    await api.deleteJob({ jobId: cancelled.id });
    expect((await api.listJobs({})).map((view) => view.id)).not.toContain(cancelled.id);
    await until('jobRemoved', () => removed.length > 0);
    expect(removed).toEqual([expect.objectContaining({ jobId: cancelled.id })]);
  });

  it("filters before buying and brings a finished job up to date, telling both in the job's detail", async () => {
    const { job } = await api.createJob({
      draft: draft(['@contract_synced_n25'], { filters: { items: '1-20' } }),
      start: true,
    });
    await jobBecomes(job.id, (view) => view.status === 'completed');
    sim.admin.addUploads('@contract_synced_n25', 2);
    const synced = await api.syncJob({ jobId: job.id });
    expect(synced).toMatchObject({ newVideos: 2, outcome: { status: 'completed' } });
    const detail = await api.jobDetail({ jobId: job.id });
    expect(detail.filters).toEqual(['positions 1-20 of each list']);
    expect(detail.skippedByFilter).toEqual([{ reason: 'not at positions 1-20', videos: 5 }]);
    expect(detail.syncs).toEqual([{ at: expect.any(String), newVideos: 2, credits: synced.credits }]);
    expect(detail.job.counts).toMatchObject({ total: 27, skipped: 5 });
  });

  it('keeps a job current: marks it, syncs it as an automatic sync, tells of it, and keeps its settings', async () => {
    expect((await api.getSettings({})).keepCurrent).toEqual({ syncEveryHours: 24, dailyCreditLimit: null });
    const { job } = await api.createJob({ draft: draft(['@contract_kept_n8']), start: true });
    await jobBecomes(job.id, (view) => view.status === 'completed');
    const video = (await api.createJob({ draft: draft(['dQw4w9WgXcQ']), start: false })).job;
    expect(video.keepCurrent).toMatchObject({ available: false, marked: false });
    expect((await failure(api.setKeepCurrent({ jobId: video.id, on: true }))).code).toBe('invalid_input');
    expect((await failure(api.autoSyncJob({ jobId: video.id, dailyLimit: null }))).code).toBe(
      'invalid_input',
    );
    expect(await api.setKeepCurrent({ jobId: job.id, on: true })).toMatchObject({
      keepCurrent: { available: true, marked: true, lastSyncAt: null, nextSyncAt: null, limitMessage: null },
    });

    const synced = record('jobSynced');
    sim.admin.addUploads('@contract_kept_n8', 2);
    const automatic = await api.autoSyncJob({ jobId: job.id, dailyLimit: 100 });
    expect(automatic).toMatchObject({
      sync: { newVideos: 2, outcome: { status: 'completed' } },
      skipped: null,
      autoExport: null,
      job: { status: 'completed', counts: { total: 10 }, keepCurrent: { lastSyncAt: expect.any(String) } },
    });
    await until('jobSynced', () => synced.length === 1);
    expect(synced[0]).toMatchObject({ jobId: job.id, automatic: true, newVideos: 2, completed: true });

    // A job that has not finished is left as it is.
    const unfinished = (await api.createJob({ draft: draft(['@contract_kept_later_n4']), start: false })).job;
    expect(await api.autoSyncJob({ jobId: unfinished.id, dailyLimit: null })).toMatchObject({
      sync: null,
      skipped: 'it has not finished (it is not started): it is synced once it has',
      autoExport: null,
    });

    const settings = await api.updateSettings({ keepCurrent: { syncEveryHours: 6, dailyCreditLimit: 50 } });
    expect(settings.keepCurrent).toEqual({ syncEveryHours: 6, dailyCreditLimit: 50 });
    expect((await api.updateSettings({ keepCurrent: { dailyCreditLimit: null } })).keepCurrent).toEqual({
      syncEveryHours: 6,
      dailyCreditLimit: null,
    });
    expect((await failure(api.updateSettings({ keepCurrent: { syncEveryHours: 0 } }))).code).toBe(
      'invalid_input',
    );
    expect((await failure(api.updateSettings({ keepCurrent: { dailyCreditLimit: 1.5 } }))).code).toBe(
      'invalid_input',
    );

    // Browser mode keeps no file to write after a sync (the desktop's comes from its save dialog).
    const kept = join(dataDir, 'kept.zip');
    if (face.server)
      expect((await failure(api.setAutoExport({ jobId: job.id, destination: kept }))).code).toBe(
        'output_refused',
      );
    else
      expect(await api.setAutoExport({ jobId: job.id, destination: kept })).toMatchObject({
        keepCurrent: { autoExportPath: kept },
      });
    expect(await api.setKeepCurrent({ jobId: job.id, on: false })).toMatchObject({
      keepCurrent: { marked: false },
    });
  });

  it("pages through a job's videos, filtered by status and searched by title, in list order", async () => {
    const { job } = await api.createJob({ draft: draft(['PLcontractPagedList_n230']), start: true });
    await jobBecomes(job.id, (view) => view.status === 'completed');
    const expected = describePlaylist('PLcontractPagedList_n230').videoIds();

    const first = await api.listVideos({ jobId: job.id, offset: 0, limit: 100, status: 'all', search: '' });
    const last = await api.listVideos({ jobId: job.id, offset: 200, limit: 100, status: 'all', search: '' });
    expect(first.total).toBe(230);
    expect([...first.rows, ...last.rows].map((row) => row.videoId)).toEqual([
      ...expected.slice(0, 100),
      ...expected.slice(200),
    ]);
    expect(first.rows[0]).toMatchObject({ position: 1, source: 'PLcontractPagedList_n230' });

    const unavailable = await api.listVideos({
      jobId: job.id,
      offset: 0,
      limit: 500,
      status: 'unavailable',
      search: '',
    });
    expect(unavailable.rows.every((row) => row.status === 'unavailable' && row.httpStatus === 404)).toBe(
      true,
    );
    expect(unavailable.total).toBe(230 - (await api.jobDetail({ jobId: job.id })).job.counts.ok);

    const word = first.rows[3]!.title.split(' ')[0]!.toUpperCase();
    const found = await api.listVideos({ jobId: job.id, offset: 0, limit: 500, status: 'all', search: word });
    expect(found.total).toBeGreaterThan(0);
    expect(found.rows.every((row) => row.title.toUpperCase().includes(word))).toBe(true);
  });

  it("gives each video its corpus number, and filters a job's videos by the source that holds them", async () => {
    const lists = ['PLcontractFirstOf2_n4', 'PLcontractSecondOf2_n3'];
    const shared = describePlaylist(lists[1]!).videoIds()[0]!;
    const { job } = await api.createJob({ draft: draft([...lists, shared]), start: true });
    await jobBecomes(job.id, (view) => view.status === 'completed');
    const page = (source: number | null) =>
      api.listVideos({ jobId: job.id, offset: 0, limit: 100, status: 'all', search: '', source });

    // Numbers run across the job, never repeating as positions do; the single video, known first, is 1.
    const all = await page(null);
    expect(all.rows.map((row) => row.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(all.rows.map((row) => row.position)).toEqual([1, 1, 2, 3, 4, 2, 3]);
    expect(all.rows[0]).toMatchObject({ videoId: shared, source: lists[1] });
    // A source's videos, whichever source brought them first: the single video is in the second list.
    expect((await page(0)).rows.map((row) => row.number)).toEqual([2, 3, 4, 5]);
    expect((await page(1)).rows.map((row) => row.number)).toEqual([1, 6, 7]);
    expect((await page(2)).rows.map((row) => row.videoId)).toEqual([shared]);
  });

  it("puts Settings' corpus defaults on a job exported without its own, and keeps a given citation for later exports", async () => {
    const settings = await api.updateSettings({ corpus: { authors: ['Lovelace, Ada'], license: 'cc0-1.0' } });
    expect(settings.corpus.authors).toHaveLength(1);
    const { job } = await api.createJob({ draft: draft(['PLcontractCited_n3']), start: true });
    await jobBecomes(job.id, (view) => view.status === 'completed');
    const citationOf = async (exportId: string) =>
      ((await readZip(app.download(exportId)!.path)) as unknown as { citation: string }).citation;

    const byDefault = await citationOf(
      (await api.exportJob({ jobId: job.id, formats: ['txt'], destination: null })).exportId,
    );
    expect(byDefault).toContain('family-names: "Lovelace"');
    expect(byDefault).toContain('license: "CC0-1.0"');
    // Defaults are not kept with the job: a change in Settings reaches its next export.
    expect((await api.listJobs({})).find((view) => view.id === job.id)?.citation).toBeNull();

    const citation = { title: 'Cited talks', authors: ['Charles Babbage'], license: 'CC-BY-4.0' };
    await api.exportJob({ jobId: job.id, formats: ['txt'], destination: null, citation });
    expect((await api.listJobs({})).find((view) => view.id === job.id)?.citation).toEqual({
      title: 'Cited talks',
      description: null,
      authors: ['Charles Babbage'],
      license: 'CC-BY-4.0',
    });
    const kept = await citationOf(
      (await api.exportJob({ jobId: job.id, formats: ['txt'], destination: null })).exportId,
    );
    expect(kept).toContain('title: "Cited talks"');
    expect(kept).toContain('family-names: "Babbage"');
    expect(kept).not.toContain('Lovelace');
  });

  it('exports a ZIP with progress events, to a path or, with none, as a download', async () => {
    const { job } = await api.createJob({ draft: draft(['PLcontractExported_n30']), start: true });
    await jobBecomes(job.id, (view) => view.status === 'completed');
    const progress = record('exportProgress');

    // Browser mode offers downloads only (tests/web/server.test.ts); the desktop writes where asked.
    const toPath = face.server ? null : join(dataDir, 'corpus.zip');
    const written = await api.exportJob({ jobId: job.id, formats: ['txt', 'srt'], destination: toPath });
    expect(written).toMatchObject({ jobId: job.id, path: toPath, jobFinished: true });
    // The answer and the events travel apart (over HTTP, two connections).
    await until('exportProgress', () => progress.at(-1)?.done === 30);
    expect(progress.at(-1)).toMatchObject({ jobId: job.id, done: 30, total: 30 });
    const zip = await readZip(written.path ?? app.download(written.exportId)!.path);
    expect(zip.index.slice(1)).toHaveLength(30);
    expect(zip.entries.some((entry) => entry.name.startsWith('srt/'))).toBe(true);
    expect(zip.entries.some((entry) => entry.name.startsWith('json/'))).toBe(false);

    const offered = await api.exportJob({ jobId: job.id, formats: ['txt'], destination: null });
    expect(offered.path).toBeNull();
    expect(offered.fileName).toMatch(/^scriptorium-job-\d+-.+\.zip$/);
    expect(app.download(offered.exportId)).toBeDefined();
    if (face.server) {
      const response = await fetch(`${face.server.origin}/api/download/${offered.exportId}`, {
        headers: { authorization: `Bearer ${face.server.token}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toContain(encodeURIComponent(offered.fileName));
      expect(
        Buffer.from(await response.arrayBuffer())
          .subarray(0, 4)
          .toString('latin1'),
      ).toBe('PK\u0003\u0004');
    }
  });

  it('searches the Library, reads a transcript, exports the hits and makes a job of them, sending nothing', async () => {
    const { job } = await api.createJob({ draft: draft(['PLcontractLibrary_n20']), start: true });
    await jobBecomes(job.id, (view) => view.status === 'completed');
    const requests = sim.admin.requests().length;

    const found = await api.searchTranscripts({ query: 'river' });
    expect(found.hits).toBeGreaterThan(0);
    const group = found.groups[0];
    if (group === undefined) throw new Error('no match');
    expect(group.hits[0]?.snippet.some((part) => part.match && part.text.toLowerCase() === 'river')).toBe(
      true,
    );
    const { rows } = await api.listVideos({ jobId: job.id, offset: 0, limit: 50, status: 'all', search: '' });
    expect(rows.map((row) => row.transcriptId)).toContain(group.transcriptId);

    const reading = await api.readTranscript({ transcriptId: group.transcriptId, query: 'river' });
    expect(reading.hits).toEqual(group.hits.map((hit) => hit.segment));
    const refused = await failure(api.searchTranscripts({ query: '"river' }));
    expect(refused).toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/quote is not closed/),
    });

    // Browser mode offers downloads only; the desktop writes where asked.
    const toPath = face.server ? null : join(dataDir, 'hits.csv');
    const exported = await api.exportSearchResults({ query: 'river', destination: toPath });
    expect(exported).toMatchObject({ path: toPath, hits: found.hits });
    const csv = readFileSync(exported.path ?? app.download(exported.exportId)!.path, 'utf8');
    expect(csv.split('\n')[0]).toBe('video_id,transcript_id,language,title,time,start_seconds,url,snippet');
    if (face.server) {
      const response = await fetch(`${face.server.origin}/api/download/${exported.exportId}`, {
        headers: { authorization: `Bearer ${face.server.token}` },
      });
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(await response.text()).toBe(csv);
      const written = await failure(
        api.exportSearchResults({ query: 'river', destination: join(dataDir, 'x.csv') }),
      );
      expect(written.code).toBe('output_refused');
    }

    // Trends, the concordance and distinctive words cross every face as the search does.
    const trend = await api.libraryTrends({ queries: ['river'], by: 'year', withCsv: true });
    expect(trend.series[0]?.query).toBe('river');
    expect(trend.csv?.split('\n')[0]).toBe(
      'query,group,period,from,to,low,high,count_low,count_high,of_low,of_high',
    );
    const concordance = await api.libraryConcordance({ query: 'river', context: 3, sort: 'left', limit: 5 });
    expect(concordance).toMatchObject({ hits: found.hits });
    expect(concordance.rows[0]?.match.toLowerCase()).toContain('river');
    const words = await api.distinctiveWords({ query: 'river' });
    expect(words.target.videos).toBe(found.videos);
    expect((await failure(api.libraryTrends({ queries: ['"river'] }))).code).toBe('invalid_input');

    const made = await api.createJobFromSearch({ query: 'river', jobId: job.id });
    expect(made).toMatchObject({ videos: found.videos, job: { status: 'completed', creditsSpent: 0 } });
    expect(sim.admin.requests().length).toBe(requests);
  });

  it('tells of a 402 with its meaning, and resumes after a top-up without buying anything twice', async () => {
    await stop();
    await start(100);
    await api.setBalance({ credits: 20 });
    const payments = record('paymentRequired');
    await api.updateSettings({ billingUrl: 'https://billing.example.com/' });
    const balance = await api.creditStatus({});
    expect(balance).toMatchObject({ balance: 20, estimatedRemaining: 20 });
    // The simulator starts with 100 credits; a 150-video playlist needs more.
    const { job } = await api.createJob({ draft: draft(['PLcontractCredits_n150']), start: true });
    // The stop is recorded at the 402; the requests already in flight were charged, and land after it.
    const waiting = await jobBecomes(
      job.id,
      (view) => view.status === 'waiting_credits' && view.creditsSpent === 100,
    );
    expect(waiting.stop).toMatchObject({ reason: 'credits', code: 'E_FREE_GRANT_DEPLETED' });
    await until('paymentRequired', () => payments.length > 0);
    const told402 = expect.objectContaining({
      jobId: job.id,
      code: 'E_FREE_GRANT_DEPLETED',
      meaning: expect.stringMatching(/free credit grant is used up.*subscribe/i),
      billingUrl: 'https://billing.example.com/',
    });
    expect(payments).toEqual([told402]);
    const credits = await api.creditStatus({});
    expect(credits.last402).toMatchObject({ code: 'E_FREE_GRANT_DEPLETED' });
    expect(credits.byJob).toEqual([{ jobId: job.id, credits: 100 }]);

    sim.admin.topUp(200);
    await api.resumeJob({ jobId: job.id });
    await jobBecomes(job.id, (view) => view.status === 'completed');
    for (const videoId of describePlaylist('PLcontractCredits_n150').videoIds()) {
      expect(sim.admin.chargesFor(videoId)).toBeLessThanOrEqual(1);
    }
    // Events keep their order on every transport: a second alert would have arrived by now.
    expect(payments).toEqual([told402]);
  });

  it('keeps settings, and handles the key without ever showing it', async () => {
    const settings = await api.updateSettings({ defaults: { languages: 'es,en', concurrency: 8 } });
    expect(settings.defaults).toMatchObject({
      languages: 'es,en',
      concurrency: 8,
      formats: ['txt', 'json', 'srt', 'vtt'],
    });
    expect((await api.getSettings({})).defaults.concurrency).toBe(8);
    await expect(api.updateSettings({ serviceUrl: 'ftp://nope' })).rejects.toMatchObject({
      code: 'invalid_input',
    });

    expect(await api.keyStatus({})).toMatchObject({ set: true });
    expect(await api.checkService({})).toBeNull();
    expect(await api.testConnection({})).toMatchObject({ ok: true });
    expect(await api.removeKey({})).toMatchObject({ set: false, storage: null });
    // Whether a run could start is known without sending anything.
    expect(await failure(api.checkService({}))).toMatchObject({
      code: 'no_key',
      message: 'No key is set. Enter it in Settings. Nothing was sent.',
    });
    // Settings' own test says what is missing, without sending the user to Settings.
    expect(await api.testConnection({})).toEqual({ ok: false, message: 'No key is set. Nothing was sent.' });
    const stored = await api.setKey({ key: 'sk_not_the_right_one' });
    expect(stored).toMatchObject({ set: true, storage: 'session' });
    expect(JSON.stringify(stored)).not.toContain('sk_not_the_right_one');
    const refused = await api.testConnection({});
    expect(refused).toMatchObject({ ok: false });
    expect(refused.message).toMatch(/refused the key/);
    await api.setKey({ key: sim.key });
    expect(await api.testConnection({})).toMatchObject({ ok: true });
    expect(sim.admin.ledger()).toEqual([]);
    for (const file of ['scriptorium.db', 'scriptorium.db-wal']) {
      const bytes = readFileSync(join(dataDir, file));
      expect(bytes.includes(sim.key)).toBe(false);
      expect(bytes.includes('sk_not_the_right_one')).toBe(false);
    }
  });

  it('names a job after what it holds, or as the user says, and renames it', async () => {
    const mixed = draft([
      'PLcontractNamedList_n3',
      '@contract_named_n2',
      'PLcontractOtherList_n2',
      'dQw4w9WgXcQ',
    ]);
    const { job } = await api.createJob({ draft: mixed, start: false });
    // Named by its sources, the first two as given (their lists are not read yet), the rest counted.
    expect(job).toMatchObject({ title: 'PLcontractNamedList_n3, @contract_named_n2 and 2 more', name: null });

    const named = await api.createJob({
      draft: { ...mixed, name: '  Lectures, spring term ' },
      start: false,
    });
    // The same sources make the same job: the name is not part of what it is.
    expect(named).toMatchObject({ created: false, job: { id: job.id, title: 'Lectures, spring term' } });
    expect(await api.renameJob({ jobId: job.id, name: 'Autumn' })).toMatchObject({
      title: 'Autumn',
      name: 'Autumn',
    });
    expect((await api.renameJob({ jobId: job.id, name: null })).title).toBe(
      'PLcontractNamedList_n3, @contract_named_n2 and 2 more',
    );
    for (const bad of ['', 'x'.repeat(201), 'two\nlines']) {
      expect((await failure(api.renameJob({ jobId: job.id, name: bad }))).code).toBe('invalid_input');
    }
    expect((await api.jobDetail({ jobId: job.id })).job.name).toBeNull();
    expect(sim.admin.requests()).toEqual([]);
  });

  it('finds the job a draft names without creating it', async () => {
    const named = draft(['PLcontractFoundLater_n3']);
    expect(await api.findJob({ draft: named })).toEqual({ job: null });
    expect(await api.listJobs({})).toEqual([]);
    const { job } = await api.createJob({ draft: named, start: false });
    expect((await api.findJob({ draft: named })).job).toMatchObject({ id: job.id, status: 'draft' });
    expect(
      (await api.findJob({ draft: draft(['PLcontractFoundLater_n3'], { maxVideos: 2 }) })).job,
    ).toBeNull();
    expect(sim.admin.requests()).toEqual([]);
  });

  it('answers bad requests with typed errors and changes nothing', async () => {
    expect((await failure(api.jobDetail({ jobId: 999 }))).code).toBe('job_not_found');
    expect((await failure(api.pauseJob({ jobId: 'x' as unknown as number }))).code).toBe('invalid_input');
    expect((await failure(api.createJob({ draft: draft(['just words']), start: true }))).code).toBe(
      'invalid_input',
    );
    const languages = await failure(
      api.createJob({ draft: draft(['dQw4w9WgXcQ'], { languages: 'english!' }), start: true }),
    );
    expect(languages.message).toMatch(/Languages "english!"/);
    // A line too long to be a source is named; a bad ORCID iD or license id says why, plainly.
    const long = await failure(
      api.validateSources({ sources: [{ where: 'line 7', text: `PL${'a'.repeat(5000)}` }] }),
    );
    expect(long).toMatchObject({
      code: 'invalid_input',
      message:
        'Scriptorium refused the validateSources request: line 7 is too long to be a source (more than 4096 characters).',
    });
    const orcid = await failure(
      api.exportJob({
        jobId: 1,
        formats: ['txt'],
        destination: null,
        citation: { authors: ['Ada Lovelace 0000-0002-1825-0098'] },
      }),
    );
    expect(orcid.message).toMatch(
      /exportJob request: "0000-0002-1825-0098" is not an ORCID iD: its last character does not check/,
    );
    const license = await failure(api.updateSettings({ corpus: { authors: [], license: 'CC-BY-5.0' } }));
    expect(license.message).toMatch(/"CC-BY-5.0" is not an SPDX license id/);
    expect(await api.listJobs({})).toEqual([]);
    expect(sim.admin.requests()).toEqual([]);
  });

  it('logs a listener that throws, and the job runs on', async () => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    api.on('jobChanged', () => {
      throw new Error('a broken listener');
    });
    app.on('jobChanged', () => {
      throw new Error('a broken listener in the host');
    });
    const { job } = await api.createJob({ draft: draft(['PLcontractListener_n20']), start: true });
    const done = await jobBecomes(job.id, (view) => view.status === 'completed');
    expect(done.counts.pending).toBe(0);
    expect(logged.length).toBeGreaterThan(0); // the host's listener
    expect(reported).toHaveBeenCalled(); // the face's listener
    reported.mockRestore();
  });
});
