import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exitForUnfinishedRun } from '../../src/cli/outcome';
import { createClient, type TranscriptClient } from '../../src/core/api';
import { toOutcomeView } from '../../src/core/app/views';
import { Engine, REJECTED_MESSAGE, UNREADABLE_MESSAGE, type RunOutcome } from '../../src/core/engine';
import { FAILURES_IN_A_ROW } from '../../src/core/engine/service-health';
import { openDatabase, type Database } from '../../src/core/store';
import { sourcesOfJob } from '../../src/core/store/sources';
import {
  describePlaylist,
  describeVideo,
  startSimulator,
  type FaultRule,
  type RunningSimulator,
} from '../../src/simulator';
import { FastClock, spec, tempDir } from '../core/engine/helpers';
import { readZip, runCli } from '../support/cli';
import { exportRowsOf } from '../../src/core/store/queries/export-rows';

// Every status and fault kind of the simulator's fault book, aimed once at a transcript request and
// once at a list page, through the real client, engine, SQLite file and simulator. For each: how many
// attempts, which waits were asked of the clock, where the video or the walk ended, how the job
// ended (and the exit code the CLI gives it), whether the credits counted locally are the ones the
// service charged, and whether the job completes, buying nothing twice, once the fault is gone.

/** The video a transcript fault hits, and one after it: both have captions, so each costs a credit. */
const VIDEO = 'dQw4w9WgXcQ';
const OTHER = 'jNQXAC9IVRw';
/** Two pages (100 + 50 videos): a page fault hits the second, once the first is bought. */
const LIST = 'PLfaultMatrixList_n150';
const LIST_SIZE = 150;
const FIRST_PAGE_SIZE = 100;
/** A client timeout short enough for 'hang' to cost little, long enough for a loaded loopback. */
const SHORT_TIMEOUT_MS = 1000;
/** Where the client's clock starts: HTTP-date Retry-After values are written relative to it. */
const CLIENT_EPOCH = new FastClock().now();
const httpDate = (secondsAhead: number): string => new Date(CLIENT_EPOCH + secondsAhead * 1000).toUTCString();

type Target = 'transcript' | 'page';

/** What a fault does to the one request it hits, whatever that request asks for. */
type Effect =
  /** Answered in the end, after `attempts`. */
  | { kind: 'served'; attempts: number; waits: number[] }
  /** Final for this request: the video or the walk fails with the last status. */
  | {
      kind: 'failed';
      attempts: number;
      waits: number[];
      httpStatus: number;
      message: RegExp | string;
      /** The failed answer still cost a credit (an unreadable 200). */
      charged: boolean;
    }
  /** Sent and never answered in time: failed as possibly charged. `chargedLate`: the service did charge it. */
  | { kind: 'uncertain'; chargedLate: boolean }
  /** 404: unavailable, and free. */
  | { kind: 'unavailable' }
  /** The whole run stops, the video or walk left pending. */
  | {
      kind: 'stops';
      outcome: Partial<Record<string, unknown>>;
      attempts: number;
      waits: number[];
      exit: number;
    };

interface FaultCase {
  name: string;
  /** The fault; applyFault() aims it at the target. */
  rule?: Omit<FaultRule, 'match'>;
  /** For 402s: the plan whose code the service answers with, and no credit left at the fault. */
  plan?: 'grant' | 'paid' | 'paused';
  /** A short client timeout, for faults that answer late or never. */
  timeoutMs?: number;
  effect: Effect;
}

const status = (code: number, extra: Partial<FaultRule> = {}): Omit<FaultRule, 'match'> => ({
  kind: 'status',
  status: code,
  ...extra,
});
const answered = (code: number) => new RegExp(`The service answered ${code}\\b`);
const backoff = [1000, 2000];

const CASES: FaultCase[] = [
  // Final at once, not retried.
  { name: '400', rule: status(400), effect: failedAt(400, 1, []) },
  { name: '422', rule: status(422), effect: { ...failedAt(422, 1, []), message: REJECTED_MESSAGE } },
  { name: '500', rule: status(500), effect: failedAt(500, 1, []) },
  { name: '503', rule: status(503), effect: failedAt(503, 1, []) },
  { name: '504', rule: status(504), effect: failedAt(504, 1, []) },
  // Retried three times in all, then final with the last status.
  { name: '408', rule: status(408), effect: failedAt(408, 3, backoff) },
  { name: '502', rule: status(502), effect: failedAt(502, 3, backoff) },
  { name: '429 without Retry-After', rule: status(429), effect: failedAt(429, 3, backoff) },
  {
    name: '429 with Retry-After in seconds',
    rule: status(429, { retryAfter: '7' }),
    effect: failedAt(429, 3, [7000, 7000]),
  },
  {
    // The first wait reaches the date; by the second attempt it is past, so the next wait is nil.
    name: '429 with Retry-After as an HTTP date',
    rule: status(429, { retryAfter: httpDate(20) }),
    effect: failedAt(429, 3, [20_000, 0]),
  },
  // Retried, and answered before the attempts run out.
  { name: '408 twice, then served', rule: status(408, { times: 2 }), effect: served(3, backoff) },
  { name: '502 once, then served', rule: status(502, { times: 1 }), effect: served(2, [1000]) },
  {
    name: '429 once with Retry-After, then served',
    rule: status(429, { retryAfter: '7', times: 1 }),
    effect: served(2, [7000]),
  },
  // A wait beyond 60 s pauses the job, naming the wait.
  {
    name: '429 with Retry-After beyond 60 s',
    rule: status(429, { retryAfter: '120' }),
    effect: stops({ status: 'paused', reason: 'service', message: expect.stringMatching(/wait 120 s/) }, 6),
  },
  {
    name: '429 with an HTTP-date Retry-After beyond 60 s',
    rule: status(429, { retryAfter: httpDate(90) }),
    effect: stops({ status: 'paused', reason: 'service', message: expect.stringMatching(/wait 90 s/) }, 6),
  },
  // The key refused: the job fails, nothing charged.
  { name: '401', rule: status(401), effect: stops({ status: 'failed', reason: 'auth', httpStatus: 401 }, 4) },
  { name: '403', rule: status(403), effect: stops({ status: 'failed', reason: 'auth', httpStatus: 403 }, 4) },
  // No credit: the job waits for credits, with the code of the account's plan.
  {
    name: '402 with the free grant used up',
    plan: 'grant',
    effect: stops({ status: 'waiting_credits', code: 'E_FREE_GRANT_DEPLETED' }, 3),
  },
  {
    name: '402 on a paid plan out of credits',
    plan: 'paid',
    effect: stops({ status: 'waiting_credits', code: 'E_PAYMENT_REQUIRED' }, 3),
  },
  {
    name: '402 with the plan paused',
    plan: 'paused',
    effect: stops({ status: 'waiting_credits', code: 'E_SUBSCRIPTION_PAUSED' }, 3),
  },
  { name: '404', rule: status(404), effect: { kind: 'unavailable' } },
  // A 200 whose body cannot be used: charged, never retried.
  { name: 'malformed body', rule: { kind: 'malformed' }, effect: unreadable() },
  { name: 'body of the wrong shape', rule: { kind: 'wrong-shape' }, effect: unreadable() },
  { name: 'truncated body', rule: { kind: 'truncated' }, effect: unreadable() },
  // Slow, but within the timeout: served normally.
  { name: 'delay within the timeout', rule: { kind: 'delay', delayMs: 50 }, effect: served(1, []) },
  // Never answered in time: it may have been charged.
  {
    name: 'hang past the timeout',
    rule: { kind: 'hang' },
    timeoutMs: SHORT_TIMEOUT_MS,
    effect: { kind: 'uncertain', chargedLate: false },
  },
  {
    name: 'an answer later than the timeout',
    rule: { kind: 'delay', delayMs: SHORT_TIMEOUT_MS + 200 },
    timeoutMs: SHORT_TIMEOUT_MS,
    effect: { kind: 'uncertain', chargedLate: true },
  },
];

function failedAt(
  httpStatus: number,
  attempts: number,
  waits: number[],
): Extract<Effect, { kind: 'failed' }> {
  return { kind: 'failed', attempts, waits, httpStatus, message: answered(httpStatus), charged: false };
}

function unreadable(): Effect {
  return {
    kind: 'failed',
    attempts: 1,
    waits: [],
    httpStatus: 200,
    message: UNREADABLE_MESSAGE,
    charged: true,
  };
}

function served(attempts: number, waits: number[]): Effect {
  return { kind: 'served', attempts, waits };
}

function stops(outcome: Partial<Record<string, unknown>>, exit: number): Effect {
  return { kind: 'stops', outcome, attempts: 1, waits: [], exit };
}

/** A simulator, a database file, and an engine whose client has a clock of its own, so that its sleeps are the retry waits only. */
interface Bench {
  sim: RunningSimulator;
  db: Database;
  engine: Engine;
  clientClock: FastClock;
  close(): Promise<void>;
}

let bench: Bench | undefined;
afterEach(async () => {
  await bench?.close();
  bench = undefined;
});

async function startBench(credits: number, timeoutMs?: number): Promise<Bench> {
  const sim = await startSimulator({ credits });
  const temp = tempDir();
  const db = openDatabase(join(temp.dir, 'scriptorium.db'));
  const clientClock = new FastClock();
  const client: TranscriptClient = createClient({
    baseUrl: sim.url,
    apiKey: sim.key,
    userAgent: 'Scriptorium/test',
    clock: clientClock,
    ...(timeoutMs !== undefined && { timeoutMs }),
  });
  const engine = new Engine({ db, client, clock: new FastClock() });
  return {
    sim,
    db,
    engine,
    clientClock,
    async close() {
      await client.close();
      await sim.close();
      db.close();
      temp.remove();
    },
  };
}

/** Puts the case's fault in place, aimed at the target. */
function applyFault(sim: RunningSimulator, testCase: FaultCase, target: Target): void {
  if (testCase.plan !== undefined) sim.admin.setPlan(testCase.plan);
  if (testCase.rule === undefined) return;
  const match =
    target === 'transcript' ? { endpoint: 'transcript', videoId: VIDEO } : { endpoint: 'playlist/videos' };
  sim.admin.addFault({ ...testCase.rule, match });
}

/** What the user does about it: the service is well again, the account has credits. */
function clearFault(sim: RunningSimulator, testCase: FaultCase): void {
  sim.admin.clearFaults();
  if (testCase.plan !== undefined) sim.admin.topUp(1000);
}

/**
 * Credits to start with: none left when the fault strikes for a 402 of the grant or paid plan (the
 * first page, bought before a page fault, takes one); plenty otherwise.
 */
function startingCredits(testCase: FaultCase, target: Target): number {
  if (testCase.plan === 'grant' || testCase.plan === 'paid') return target === 'page' ? 1 : 0;
  return 1000;
}

function requestsFor(sim: RunningSimulator, videoId: string): number {
  return sim.admin.requests().filter((request) => request.query['video_url'] === videoId).length;
}

/** Requests for the list's later pages (a continuation), as opposed to its first. */
function laterPageRequests(sim: RunningSimulator) {
  return sim.admin.requests().filter((r) => r.path.endsWith('/playlist/videos') && r.query['continuation']);
}

function firstPageCharges(sim: RunningSimulator): number {
  return sim.admin
    .requests()
    .filter((r) => r.path.endsWith('/playlist/videos') && r.query['playlist'] !== undefined && r.charged)
    .length;
}

/**
 * Credits counted locally against the service's ledger: the certain ones equal what it charged; the
 * `possible` ones are counted apart, and `chargedLate` of them were charged (the answer came too late).
 */
function expectLedgersAgree(b: Bench, jobId: number, possible: number, chargedLate = 0): void {
  const job = b.engine.job(jobId)!;
  expect(job.creditsPossible).toBe(possible);
  expect(job.creditsSpent - possible + chargedLate).toBe(b.sim.admin.ledger().length);
}

/** expectLedgersAgree for the one request a fault hit. */
function expectLedgersAgreeAfter(b: Bench, jobId: number, effect: Effect): void {
  const uncertain = effect.kind === 'uncertain';
  expectLedgersAgree(b, jobId, Number(uncertain), Number(uncertain && effect.chargedLate));
}

/** The service charges an answer it sends after the client gave up once its delay is over. */
async function settleLateCharges(effect: Effect, charges: () => number): Promise<void> {
  if (effect.kind !== 'uncertain' || !effect.chargedLate) return;
  while (charges() === 0) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** HTTP requests the fault's target took: one for a fault that is not retried. */
function attemptsOf(effect: Effect): number {
  return 'attempts' in effect ? effect.attempts : 1;
}

/** The waits between attempts, in ms, that the client asked of its clock. */
function waitsOf(effect: Effect): number[] {
  return 'waits' in effect ? effect.waits : [];
}

/** The service did charge the request that failed (an unreadable 200, or an answer that came too late). */
function wasCharged(effect: Effect): boolean {
  return (effect.kind === 'failed' && effect.charged) || (effect.kind === 'uncertain' && effect.chargedLate);
}

function exitCodeOf(outcome: RunOutcome): number {
  if (outcome.status === 'busy') throw new Error('the job was busy');
  const view = toOutcomeView(outcome);
  if (view.status === 'completed') throw new Error('a completed run exits 0 or 5, by its gaps');
  return exitForUnfinishedRun(view, null).code;
}

it('aims at videos that cost a credit each', () => {
  expect(describeVideo(VIDEO).hasCaptions && describeVideo(OTHER).hasCaptions).toBe(true);
  expect(describePlaylist(LIST).size).toBe(LIST_SIZE);
});

describe.each(CASES)('a transcript request meeting $name', (testCase) => {
  it('ends as the request policy says, counts its credits right, and completes once the fault is gone', async () => {
    const { effect } = testCase;
    const b = (bench = await startBench(startingCredits(testCase, 'transcript'), testCase.timeoutMs));
    applyFault(b.sim, testCase, 'transcript');
    const { job } = b.engine.findOrCreateJob(spec([VIDEO, OTHER]));
    const outcome = await b.engine.run(job.id, { concurrency: 1 });
    const row = (videoId: string) => [...exportRowsOf(b.db, job.id)].find((r) => r.videoId === videoId)!;

    switch (effect.kind) {
      case 'served':
        expect(outcome).toEqual({ status: 'completed', failed: 0, failedSources: 0 });
        expect(row(VIDEO)).toMatchObject({ status: 'ok', attempts: effect.attempts });
        break;
      case 'failed':
        expect(outcome).toEqual({ status: 'completed', failed: 1, failedSources: 0 });
        expect(row(VIDEO)).toMatchObject({
          status: 'failed',
          attempts: effect.attempts,
          httpStatus: effect.httpStatus,
        });
        expect(row(VIDEO).message).toMatch(effect.message);
        expect(b.sim.admin.chargesFor(VIDEO)).toBe(effect.charged ? 1 : 0);
        expect(row(OTHER).status).toBe('ok');
        break;
      case 'uncertain':
        expect(outcome).toEqual({ status: 'completed', failed: 1, failedSources: 0 });
        expect(row(VIDEO)).toMatchObject({ status: 'failed', attempts: 1 });
        expect(row(VIDEO).message).toMatch(/may have been charged.*--retry-failed/);
        expect(row(OTHER).status).toBe('ok');
        break;
      case 'unavailable':
        expect(outcome).toEqual({ status: 'completed', failed: 0, failedSources: 0 });
        expect(row(VIDEO)).toMatchObject({ status: 'unavailable', httpStatus: 404, attempts: 1 });
        expect(b.sim.admin.chargesFor(VIDEO)).toBe(0);
        break;
      case 'stops':
        expect(outcome).toMatchObject(effect.outcome);
        expect(exitCodeOf(outcome)).toBe(effect.exit);
        // Nothing else was sent: the other video waits, untouched, for the next run.
        expect(row(VIDEO).status).toBe('pending');
        expect(row(OTHER).status).toBe('pending');
        expect(requestsFor(b.sim, OTHER)).toBe(0);
        expect(b.sim.admin.ledger()).toEqual([]);
        break;
    }
    await settleLateCharges(effect, () => b.sim.admin.chargesFor(VIDEO));
    expect(requestsFor(b.sim, VIDEO)).toBe(attemptsOf(effect));
    expect(b.clientClock.sleeps).toEqual(waitsOf(effect));
    expectLedgersAgreeAfter(b, job.id, effect);

    // Once the fault is gone: a failed video is sent again only when asked, then the job completes.
    clearFault(b.sim, testCase);
    const sentBefore = requestsFor(b.sim, VIDEO);
    if (effect.kind === 'failed' || effect.kind === 'uncertain') {
      expect((await b.engine.run(job.id)).status).toBe('completed');
      expect(requestsFor(b.sim, VIDEO)).toBe(sentBefore);
      expect(b.engine.retryFailed(job.id)).toBe(1);
    }
    expect(await b.engine.run(job.id)).toEqual({ status: 'completed', failed: 0, failedSources: 0 });
    expect(b.sim.admin.chargesFor(VIDEO)).toBe(
      effect.kind === 'unavailable' ? 0 : 1 + Number(wasCharged(effect)),
    );
    expect(b.sim.admin.chargesFor(OTHER)).toBe(1);
    expect(row(VIDEO).status).toBe(effect.kind === 'unavailable' ? 'unavailable' : 'ok');
  });
});

describe.each(CASES)('a list page meeting $name', (testCase) => {
  it('ends the walk as the request policy says, counts its credits right, and completes once the fault is gone', async () => {
    const { effect } = testCase;
    const b = (bench = await startBench(startingCredits(testCase, 'page'), testCase.timeoutMs));
    // The fault strikes once the first page is bought, so that the walk has a cursor to resume from.
    const stopListening = b.engine.on('page', () => {
      stopListening();
      applyFault(b.sim, testCase, 'page');
    });
    const { job } = b.engine.findOrCreateJob(spec([LIST]));
    const outcome = await b.engine.run(job.id, { concurrency: 1 });
    const walk = () => b.engine.job(job.id)!.walks[0]!;
    const listed = () => b.engine.job(job.id)!.counts.total;

    switch (effect.kind) {
      case 'served':
        expect(outcome).toEqual({ status: 'completed', failed: 0, failedSources: 0 });
        expect(walk()).toMatchObject({ walkStatus: 'done', pages: 2, videosFound: LIST_SIZE });
        break;
      case 'failed':
        expect(outcome).toEqual({ status: 'completed', failed: 0, failedSources: 1 });
        expect(walk()).toMatchObject({ walkStatus: 'failed', pages: 1, httpStatus: effect.httpStatus });
        expect(walk().error).toMatch(effect.message);
        expect(listed()).toBe(FIRST_PAGE_SIZE);
        break;
      case 'uncertain':
        expect(outcome).toEqual({ status: 'completed', failed: 0, failedSources: 1 });
        expect(walk()).toMatchObject({ walkStatus: 'failed', pages: 1, httpStatus: null });
        expect(walk().error).toMatch(/may have been charged/);
        expect(listed()).toBe(FIRST_PAGE_SIZE);
        break;
      case 'unavailable':
        expect(outcome).toMatchObject({ status: 'completed', failed: 0 });
        expect(walk()).toMatchObject({ walkStatus: 'unavailable', pages: 1, httpStatus: 404 });
        expect(listed()).toBe(FIRST_PAGE_SIZE);
        break;
      case 'stops':
        expect(outcome).toMatchObject(effect.outcome);
        expect(exitCodeOf(outcome)).toBe(effect.exit);
        // The walk waits with its cursor, to go on from the second page.
        expect(walk()).toMatchObject({ walkStatus: 'pending', pages: 1, videosFound: FIRST_PAGE_SIZE });
        expect(sourcesOfJob(b.db, job.id)[0]!.cursor).toBeTruthy();
        break;
    }
    await settleLateCharges(effect, () => laterPageRequests(b.sim).filter((r) => r.charged).length);
    expect(laterPageRequests(b.sim)).toHaveLength(attemptsOf(effect));
    expect(b.clientClock.sleeps).toEqual(waitsOf(effect));
    expectLedgersAgreeAfter(b, job.id, effect);

    // Once the fault is gone, the walk goes on from its cursor: the first page is not bought again.
    clearFault(b.sim, testCase);
    b.engine.retryFailed(job.id);
    expect(await b.engine.run(job.id)).toEqual({ status: 'completed', failed: 0, failedSources: 0 });
    expect(walk()).toMatchObject({ walkStatus: 'done', videosFound: LIST_SIZE });
    expect(listed()).toBe(LIST_SIZE);
    expect(firstPageCharges(b.sim)).toBe(1);
    expect(laterPageRequests(b.sim).filter((r) => r.charged)).toHaveLength(1 + Number(wasCharged(effect)));
    for (const videoId of describePlaylist(LIST).videoIds())
      expect(b.sim.admin.chargesFor(videoId)).toBeLessThanOrEqual(1);
  });
});

describe('server errors and timeouts in a row', () => {
  const cases: Array<{ name: string; rule: Omit<FaultRule, 'match'>; videos: number; concurrency: number }> =
    [
      { name: '500', rule: status(500), videos: 12, concurrency: 1 },
      { name: '503', rule: status(503), videos: 12, concurrency: 1 },
      { name: '504', rule: status(504), videos: 12, concurrency: 1 },
      // Timeouts all at once, as many as the streak, so that none is left in flight when the run stops.
      {
        name: 'a timeout',
        rule: { kind: 'hang' },
        videos: FAILURES_IN_A_ROW,
        concurrency: FAILURES_IN_A_ROW,
      },
    ];

  it.each(cases)(
    `${FAILURES_IN_A_ROW} of $name stop the run as the service's trouble (exit 6), not as failed videos`,
    async ({ rule, videos, concurrency }) => {
      const list = `PLfaultStreakList_n${videos}`;
      // Only the timeouts need a short one; a slow answer elsewhere must not look like one.
      const b = (bench = await startBench(1000, rule.kind === 'hang' ? SHORT_TIMEOUT_MS : undefined));
      b.sim.admin.addFault({ ...rule, match: { endpoint: 'transcript' } });
      const { job } = b.engine.findOrCreateJob(spec([list]));
      const outcome = await b.engine.run(job.id, { concurrency });

      expect(outcome).toMatchObject({
        status: 'paused',
        reason: 'service',
        message: expect.stringContaining(`failed ${FAILURES_IN_A_ROW} requests in a row`),
      });
      expect(exitCodeOf(outcome)).toBe(6);
      const counts = b.engine.job(job.id)!.counts;
      // A server error was an answer, charged nothing: its video failed only because the service was
      // down, and is pending again for the next run. A timeout may have been charged: it stays failed.
      const timedOut = rule.kind === 'hang';
      expect(counts).toMatchObject({
        failed: timedOut ? FAILURES_IN_A_ROW : 0,
        pending: timedOut ? videos - FAILURES_IN_A_ROW : videos,
      });
      const sent = b.sim.admin.requests().filter((r) => r.path.endsWith('/transcript'));
      expect(sent).toHaveLength(FAILURES_IN_A_ROW);
      expect(b.clientClock.sleeps).toEqual([]);
      // Server errors cost nothing; each timeout may have been charged.
      expectLedgersAgree(b, job.id, rule.kind === 'hang' ? FAILURES_IN_A_ROW : 0);

      b.sim.admin.clearFaults();
      expect(b.engine.retryFailed(job.id)).toBe(timedOut ? FAILURES_IN_A_ROW : 0);
      expect(await b.engine.run(job.id, { concurrency })).toEqual({
        status: 'completed',
        failed: 0,
        failedSources: 0,
      });
      for (const videoId of describePlaylist(list).videoIds())
        expect(b.sim.admin.chargesFor(videoId)).toBeLessThanOrEqual(1);
    },
  );
});

describe('the exit codes these outcomes map to, through the CLI', () => {
  let sim: RunningSimulator | undefined;
  let temp: { dir: string; remove(): void } | undefined;
  afterEach(async () => {
    await sim?.close();
    temp?.remove();
    sim = undefined;
    temp = undefined;
  });

  /** Runs `scriptorium export <sources> --concurrency 1` against a fresh simulator, with `prepare` applied first. */
  async function exportWith(
    sources: string[],
    prepare: (sim: RunningSimulator) => void,
    options: { credits?: number; extraArgs?: string[] } = {},
  ) {
    sim = await startSimulator({ credits: options.credits ?? 1000 });
    temp = tempDir();
    prepare(sim);
    const out = join(temp.dir, 'corpus.zip');
    const env = {
      TRANSCRIPT_API_KEY: sim.key,
      TRANSCRIPT_API_BASE_URL: sim.url,
      SCRIPTORIUM_DATA_DIR: temp.dir,
    };
    const run = (extraArgs: string[] = []) =>
      runCli(['export', ...sources, '--concurrency', '1', ...extraArgs, '--out', out], env);
    const result = await run(options.extraArgs);
    return { result, out, lastLine: result.stderr.trim().split('\n').at(-1) ?? '', run };
  }

  const transcriptFault = (rule: Omit<FaultRule, 'match'>) => (s: RunningSimulator) =>
    s.admin.addFault({ ...rule, match: { endpoint: 'transcript', videoId: VIDEO } });

  it('a 404 video: exit 0, the video listed as unavailable', async () => {
    const { result, out } = await exportWith([VIDEO, OTHER], transcriptFault(status(404)));
    expect(result.code, result.stderr).toBe(0);
    const zip = await readZip(out);
    expect(zip.index.slice(1).map((row) => [row[0], row[3]])).toEqual([
      [VIDEO, 'unavailable'],
      [OTHER, 'ok'],
    ]);
    expect(zip.manifest.job_finished).toBe(true);
  });

  it('a 401: exit 4, nothing charged', async () => {
    const { result, lastLine } = await exportWith([VIDEO, OTHER], transcriptFault(status(401)));
    expect(result.code).toBe(4);
    expect(lastLine).toMatch(/refused the API key \(HTTP 401\)/);
    expect(sim!.admin.ledger()).toEqual([]);
  });

  it('a 402 after one credit: exit 3, with the ZIP of what was bought and the rest pending', async () => {
    const { result, out, lastLine } = await exportWith([VIDEO, OTHER], (s) => s.admin.setPlan('paid'), {
      credits: 1,
    });
    expect(result.code).toBe(3);
    expect(lastLine).toMatch(/E_PAYMENT_REQUIRED/);
    const zip = await readZip(out);
    expect(zip.manifest.job_finished).toBe(false);
    expect(zip.manifest.counts).toMatchObject({ ok: 1, pending: 1 });
    expect(zip.index.slice(1).map((row) => [row[0], row[3]])).toEqual([
      [VIDEO, 'ok'],
      [OTHER, 'pending'],
    ]);
  });

  it('an unreadable 200: exit 5, the video in errors.csv, its credit counted', async () => {
    const { result, out, lastLine } = await exportWith(
      [VIDEO, OTHER],
      transcriptFault({ kind: 'wrong-shape' }),
    );
    expect(result.code).toBe(5);
    expect(lastLine).toMatch(/1 video failed: .*--retry-failed/);
    const zip = await readZip(out);
    expect(zip.errors.slice(1)).toEqual([[VIDEO, 'failed', '200', '', UNREADABLE_MESSAGE, VIDEO]]);
    expect(zip.manifest.credits_spent).toBe(sim!.admin.ledger().length);
    expect(zip.manifest.credits_spent).toBe(2);
  });

  it('a Retry-After of an hour: exit 6, naming the wait, with one request sent', async () => {
    const { result, lastLine } = await exportWith(
      [VIDEO, OTHER],
      transcriptFault(status(429, { retryAfter: '3600' })),
    );
    expect(result.code).toBe(6);
    expect(lastLine).toMatch(/asked to wait 3600 s/);
    expect(sim!.admin.requests().filter((r) => r.path.endsWith('/transcript'))).toHaveLength(1);
  });

  it(`${FAILURES_IN_A_ROW} server errors in a row: exit 6`, async () => {
    const { result, lastLine } = await exportWith(['PLfaultStreakList_n12'], (s) =>
      s.admin.addFault({ kind: 'status', status: 503, match: { endpoint: 'transcript' } }),
    );
    expect(result.code).toBe(6);
    expect(lastLine).toMatch(new RegExp(`failed ${FAILURES_IN_A_ROW} requests in a row`));
  });

  it.each([
    [500, 'failed', 'E_INTERNAL'],
    [404, 'unavailable', 'E_NOT_FOUND'],
  ])(
    'a list answering %i: exit 5, a failed source in the manifest and errors.csv; --retry-failed walks it',
    async (httpStatus, walkStatus, code) => {
      const channel = '@faultMatrixChannel_n8';
      const { result, out, lastLine, run } = await exportWith(['PLfaultMatrixShort_n5', channel], (s) =>
        s.admin.addFault({ kind: 'status', status: httpStatus, match: { endpoint: 'channel/videos' } }),
      );
      expect(result.code).toBe(5);
      expect(lastLine).toMatch(/1 source could not be walked/);
      const zip = await readZip(out);
      expect(zip.manifest.counts.sources_failed).toBe(1);
      expect(zip.manifest.failed_sources).toEqual([
        { source: channel, status: walkStatus, http_status: httpStatus, code, message: expect.any(String) },
      ]);
      // No video ID; the source as typed in its own column, exact (an identifier, no apostrophe).
      expect(zip.errors[1]).toEqual(['', walkStatus, String(httpStatus), code, expect.any(String), channel]);
      expect(zip.index.slice(1)).toHaveLength(5);

      sim!.admin.clearFaults();
      const retried = await run(['--retry-failed']);
      expect(retried.code, retried.stderr).toBe(0);
      const whole = await readZip(out);
      expect(whole.manifest.counts.sources_failed).toBe(0);
      expect(whole.index.slice(1)).toHaveLength(5 + 8);
      expect(sim!.admin.ledger().filter((c) => c.endpoint === 'playlist/videos')).toHaveLength(1);
    },
  );
});
