/**
 * The reference model: what each job should hold after the commands so far, kept apart from
 * src/core (docs/product.md). It knows what the simulator serves (its admin's describers), reads the
 * lists as the product promises (reads.ts), follows each transcript request (fetches.ts), and says
 * what a command's exit code and ZIP should be. Where the app's own order decides (requests in flight
 * together, where a stopped run got to), it follows the command's log, the service's record of it.
 */
import type { Describers, VideoDescription } from '../../src/simulator';
import { canonical, kindOf } from './catalog';
import { cacheKey, fetchPending, type FetchContext, type Stored } from './fetches';
import { ModelJob, only, type ModelList, type Span, type Status } from './job';
import type { Call, CommandLog } from './log';
import { noteAnswer, stoppingAnswer, syncList, walkList, type ReadContext, type StopCause } from './reads';
import { unless, type PendingRule, type Violation } from './rules';
import type { JobArgs } from './selection';

/** How a command ran a job: its log, its span, and how a kill ended it. */
export interface CommandRun {
  log: CommandLog;
  span: Span;
  kill: FetchContext['kill'];
}

/** What the reference expects of a command that runs a job: its exit codes, and the ZIP it writes. */
export interface Expected {
  exits: Set<number>;
  /** A whole corpus (0, 5), the corpus of what was bought (3, paused), or none. */
  zip: Set<'whole' | 'partial' | 'none'>;
  /** What stopped the run before its end, as far as the reference can tell. */
  stops: Set<StopCause>;
  violations: Violation[];
}

/** Exits of a run stopped by each cause (docs/product.md, Exit codes). */
const EXIT_FOR: Record<StopCause, number> = { credits: 3, budget: 3, auth: 4, service: 6, killed: 130 };

/** Ten failures in a row that point at the service stop a run (docs/product.md). */
const STORM = 10;

export class ReferenceModel {
  readonly jobs: ModelJob[] = [];
  /** Transcripts in the data folder, by cacheKey. */
  readonly cache = new Map<string, Stored>();
  readonly bodyFaults = new Map<string, Array<'truncated' | 'malformed'>>();
  readonly #facts = new Map<string, VideoDescription>();

  constructor(
    readonly catalog: Describers,
    readonly pageSize: number,
    /** The rules pending on main that are switched on (rules.ts, PENDING_RULES). */
    readonly pending: ReadonlySet<PendingRule>,
  ) {}

  video(videoId: string): VideoDescription {
    const known = this.#facts.get(videoId);
    if (known !== undefined) return known;
    const facts = this.catalog.describeVideo(videoId);
    this.#facts.set(videoId, facts);
    return facts;
  }

  /** The job these arguments name (the same sources and options are the same job), made if new. */
  jobFor(args: JobArgs): { job: ModelJob; created: boolean } {
    const key = identity(args);
    const known = this.jobs.find((job) => identity(job.args) === key);
    if (known !== undefined) return { job: known, created: false };
    const job = new ModelJob(this.jobs.length + 1, args);
    for (const { index, videoId } of job.videoSources) {
      if (job.items.has(videoId)) continue;
      job.items.set(videoId, {
        videoId,
        number: job.items.size + 1,
        version: 1,
        source: index,
        firstPlace: undefined,
        selected: 'yes',
        status: new Set<Status>(['pending']),
        failure: undefined,
        language: undefined,
        requested: undefined,
      });
    }
    this.jobs.push(job);
    return { job, created: true };
  }

  /** A job the app did not make after all (a preview the key was refused for): the next takes its number. */
  forget(job: ModelJob): void {
    this.jobs.splice(this.jobs.indexOf(job), 1);
  }

  /**
   * `--retry-failed` or `--retry-unavailable`: the job's videos of that status back in the queue, each
   * noted for the next version's changes.csv when a version was released. Returns how many.
   */
  retry(job: ModelJob, status: 'failed' | 'unavailable'): number {
    let reset = 0;
    for (const item of job.items.values()) {
      if (!item.status.has(status)) continue;
      reset += 1;
      if (job.released > 0 && item.status.size === 1 && !job.retrying.has(item.videoId))
        job.retrying.set(item.videoId, described(status, item.failure?.code ?? null));
      item.status.delete(status);
      item.status.add('pending');
      job.touched.add(item.videoId);
    }
    for (const list of job.lists)
      if (status === 'failed' && (list.walk === 'failed' || list.walk === 'unavailable')) reset += 1;
    return reset;
  }

  /**
   * Runs the job as a command does: a sync reads its lists again first, then every list not walked
   * yet is walked and every video taken is fetched. Returns the exits and ZIP the command may give.
   */
  run(job: ModelJob, mode: 'export' | 'sync' | 'walk', command: CommandRun): Expected {
    command.log.owner = job.id;
    const ctx = this.#context(command);
    // A job to continue whose budget is spent is paused at once (exit 3, the ZIP of what it bought).
    const spent = job.budget !== undefined && job.charged >= job.budget;
    if (mode === 'export' && spent && (job.state !== 'completed' || this.#hasWork(job))) {
      return { exits: new Set([3]), zip: new Set(['partial']), stops: new Set(['budget']), violations: [] };
    }
    let syncStopped = false;
    const failedNow = new Set<ModelList>();
    if (mode === 'sync') {
      for (const list of job.syncedLists) {
        if (list.walk !== 'done' || syncStopped) continue;
        const read = syncList(ctx, job, list, { killed: command.kill === 'sigkill' });
        if (read === 'lost') job.exact = false;
        if (read === 'failed') failedNow.add(list);
        syncStopped = read === 'stopped' || read === 'lost';
      }
    }
    for (const list of job.lists) {
      // A list a failure left unwalked is walked on from its cursor, in the next run.
      if (list.walk === 'done' || failedNow.has(list)) continue;
      list.walk = 'pending';
      if (list.failedBySync) {
        const read = syncList(ctx, job, list, { killed: command.kill === 'sigkill', again: true });
        if (read === 'lost') job.exact = false;
        if (read === 'stopped' || read === 'lost') ctx.stopped = true;
        continue;
      }
      walkList(ctx, job, list);
    }
    const storm = mode === 'export' ? this.#afterStorm(job) : new Set<string>();
    if (mode !== 'walk') fetchPending(ctx, job);
    if (syncStopped) ctx.stopped = true;
    const notAgain = [...storm].filter((videoId) => !ctx.requested.has(videoId));
    ctx.violations.push(
      ...unless('retries: videos failed only by a 503 storm are sent again by the next run', notAgain),
    );
    return this.#outcome(job, mode, ctx, command);
  }

  /** Whether the job has a list to walk or a video to fetch (after a retry put some back). */
  #hasWork(job: ModelJob): boolean {
    return (
      job.lists.some((list) => list.walk !== 'done') ||
      [...job.items.values()].some((item) => item.status.has('pending'))
    );
  }

  /** The transcripts the job's videos still to fetch would cost at most: surely, and perhaps. */
  transcriptsToBuy(job: ModelJob): { min: number; max: number } {
    let min = 0;
    let max = 0;
    for (const item of job.items.values()) {
      if (!item.status.has('pending')) continue;
      const stored = this.cache.get(cacheKey(job, item.videoId, job.langs[0] ?? 'orig'));
      if (stored?.state === 'yes') continue;
      max += 1;
      if (item.status.size === 1 && stored === undefined) min += 1;
    }
    return { min, max };
  }

  /**
   * Once every run of a command is followed: each paid request the reference did not follow is one
   * the product had no reason to send (a page past a cap, a transcript bought twice or not selected).
   */
  unexpectedPaid(log: CommandLog): Violation[] {
    return log
      .unfollowed()
      .filter((call) => call.charge !== undefined)
      .map((call) => ({
        rule: 'ledger: nothing bought that the product had no reason to buy (past a cap, twice, or unselected)',
        detail: `${call.endpoint} ${JSON.stringify(call.query)} answered ${call.status}`,
      }));
  }

  #context(command: CommandRun): FetchContext & ReadContext {
    return {
      catalog: this.catalog,
      pageSize: this.pageSize,
      log: command.log,
      span: command.span,
      video: (videoId) => this.video(videoId),
      violations: [],
      stops: new Set(),
      health: [],
      stopSeq: stoppingAnswer(command.log),
      cache: this.cache,
      bodyFaults: this.bodyFaults,
      kill: command.kill,
      requested: new Set(),
    };
  }

  /**
   * The videos the service failed in the run before, which stopped as it was down (ten failures in a
   * row, or every request failed): pending since, the next run of the command sends them again.
   * Returns those still pending, to check they were sent.
   */
  #afterStorm(job: ModelJob): Set<string> {
    const stormed = [...job.stormFailed].filter((videoId) => job.items.get(videoId)?.status.has('pending'));
    job.stormFailed.clear();
    return new Set(stormed);
  }

  /** What the command's end should be, from what the run did: completed, or stopped and why. */
  #outcome(job: ModelJob, mode: 'export' | 'sync' | 'walk', ctx: ReadContext, command: CommandRun): Expected {
    const stateBefore = job.state;
    const workLeft =
      ctx.stopped === true ||
      job.lists.some((list) => list.walk === 'pending') ||
      (mode !== 'walk' && [...job.items.values()].some((item) => only(item.status) === 'pending'));
    const maybeLeft = [...job.items.values()].some((item) => item.status.has('pending'));
    const stops = new Set(ctx.stops);
    if (command.kill !== 'none') stops.add('killed');
    const trouble = ctx.health.filter((health) => health === 'trouble').length;
    const downAll = trouble > 0 && !ctx.health.includes('answered');
    const storm = longestStreak(ctx.health) >= STORM;
    if (storm) stops.add('service');
    if (storm || (downAll && stops.size === 0 && !workLeft)) {
      // Stopped because the service is down: the videos its last streak failed with a server error
      // are pending again as the run stops, for the next run of the command to ask for.
      for (const videoId of failedInLastStreak(command.log)) {
        const item = job.items.get(videoId);
        if (item === undefined || only(item.status) !== 'failed') continue;
        item.status = new Set(['pending']);
        job.stormFailed.add(videoId);
      }
    }
    const exits = new Set<number>();
    const zip: Expected['zip'] = new Set();
    if (stops.size === 0 && !workLeft) {
      if (mode !== 'walk') {
        // Done: no list left to walk and no video left to fetch.
        for (const item of job.items.values()) {
          if (item.status.has('pending') && item.status.size > 1) item.status.delete('pending');
        }
      }
      if (downAll) {
        exits.add(6);
        zip.add('none');
        job.state = 'unfinished';
      } else {
        const failed =
          [...job.items.values()].some((item) => item.status.has('failed')) ||
          job.lists.some((list) => list.walk === 'failed' || list.walk === 'unavailable');
        const surelyFailed =
          [...job.items.values()].some((item) => only(item.status) === 'failed') ||
          job.lists.some((list) => list.walk === 'failed' || list.walk === 'unavailable');
        if (surelyFailed) exits.add(5);
        else if (failed) exits.add(5).add(0);
        else exits.add(0);
        zip.add('whole');
        job.state = 'completed';
      }
    } else {
      if (stops.size === 0) {
        // Work left and no answer that stops a run: the budget did, or the command was cut short.
        stops.add('budget');
        if (trouble > 0) stops.add('service');
      }
      for (const cause of stops) exits.add(EXIT_FOR[cause]);
      if (stops.has('killed')) exits.add(137);
      for (const exit of exits) zip.add(exit === 3 ? 'partial' : 'none');
      if (maybeLeft || workLeft) job.state = 'unfinished';
    }
    if (mode === 'walk') {
      // A preview walks the lists and leaves the job as it was (a draft is not started).
      job.state = stateBefore;
      exits.clear();
      exits.add(0);
      for (const cause of stops) exits.add(EXIT_FOR[cause]);
      zip.clear();
      zip.add('none');
    }
    return { exits, zip, stops, violations: ctx.violations };
  }
}

/** The longest run of failures that point at the service, with no normal answer between. */
/**
 * The videos the service answered with a server error after its last normal answer of the command:
 * the streak that stopped the run, whose videos the product gives back to the queue.
 */
function failedInLastStreak(log: CommandLog): string[] {
  const calls = [...log.calls].sort((a, b) => a.seq - b.seq);
  const normal = (call: Call): boolean => call.answered && call.status !== 0 && call.status < 500;
  const lastNormal = calls.findLast(normal)?.seq ?? -1;
  return calls
    .filter((call) => call.seq > lastNormal && call.endpoint === 'transcript' && call.answered)
    .filter((call) => call.status >= 500)
    .map((call) => call.query['video_url'] ?? '');
}

function longestStreak(health: ReadonlyArray<'trouble' | 'answered'>): number {
  let longest = 0;
  let streak = 0;
  for (const answer of health) {
    streak = answer === 'trouble' ? streak + 1 : 0;
    longest = Math.max(longest, streak);
  }
  return longest;
}

/** A status as changes.csv's retried rows give it before: "unavailable (E_NOT_FOUND)". */
function described(status: string, code: string | null): string {
  return code === null ? status : `${status} (${code})`;
}

/** What makes two exports the same job: the sources (kind and ID) in order, languages, flags, filters. */
function identity(args: JobArgs): string {
  const { formats: _formats, chunkSeconds: _seconds, chunkOverlap: _overlap, sources, lang, ...rest } = args;
  return JSON.stringify({
    sources: sources.map((source) => [kindOf(source), canonical(source)]),
    lang: (lang ?? 'orig')
      .split(',')
      .map((code) => (code.trim() === 'orig' ? '' : code.trim().toLowerCase())),
    ...Object.fromEntries(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b))),
  });
}

export { cacheKey, noteAnswer };
