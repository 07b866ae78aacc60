/**
 * The real side of the model test: a simulator on 127.0.0.1 and a data folder of its own, driven by
 * `scriptorium` command lines (in process, or as real bin/scriptorium processes for kills and a
 * second process), each followed by the reference model's update from the service's log and, after
 * every export, by every rule of rules/ on the ZIP it wrote.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { CHANNELS, EDITABLE, namesOfChannel } from './catalog';
import { runCommand, type CommandResult } from './cli-in-process';
import { installModelClock, modelClock } from './clock';
import { checkCorpus } from './corpus-checks';
import { readCorpus } from './corpus-reader';
import type { ModelJob } from './job';
import { CommandLog } from './log';
import { ReferenceModel, type Expected } from './reference';
import { budgetSpentWhenStopped, creditsAgree, paymentNamed, spentWithinBudget } from './rules/ledger';
import { faultStep } from './steps-faults';
import { previewStep, refusedStep, searchStep, syncAllStep } from './steps-more';
import { busyStep, killStep } from './steps-processes';
import { isPending, switchedOn, unless, type PendingRule, type Violation } from './rules';
import { citationFlags, formatFlags, jobFlags, type ExportHow, type Step } from './steps';
import type { JobArgs } from './selection';

/** A sequence broke a rule: which, where, and the steps that led there. */
export class ModelFailure extends Error {
  constructor(
    readonly violations: Violation[],
    readonly steps: Step[],
    readonly pageSize: number,
  ) {
    super(
      `${violations.map((v) => `rule "${v.rule}" broken: ${v.detail}`).join('\n')}\n` +
        `after ${steps.length} step(s) (page size ${pageSize}):\n${steps.map((step) => `  ${JSON.stringify(step)}`).join(',\n')}`,
    );
  }
}

const DEBUG = process.env['MODEL_DEBUG'] === '1';

/** Rules left out of a run (MODEL_SKIP_RULES: words of their names, comma-separated), to find the next. */
const SKIPPED = (process.env['MODEL_SKIP_RULES'] ?? '')
  .split(',')
  .map((word) => word.trim())
  .filter((word) => word !== '');

/** How a command ran: its result, its log and its span on the model's clock. */
interface Ran {
  result: CommandResult;
  log: CommandLog;
  span: { start: number; end: number };
}

export class ModelWorld {
  readonly steps: Step[] = [];
  readonly model: ReferenceModel;
  #outs = 0;
  /** The job the latest export step ran (steps may name it as LAST). */
  last: ModelJob | undefined;
  /** The account's plan, which names the code of a 402 (docs/service.md). */
  plan: 'grant' | 'paid' | 'paused' = 'grant';
  /** The credits automatic syncs were charged, each with when (the daily credit limit counts them). */
  readonly automatic: Array<{ at: number; job: number }> = [];
  /** How far the simulator's log and ledger were read. */
  #seen = { seq: 0, charges: 0 };

  private constructor(
    readonly sim: RunningSimulator,
    readonly dir: string,
    readonly pageSize: number,
    /** Words of the only rules that count (a regression's), or undefined for every rule. */
    readonly only: readonly string[] | undefined,
    /** The rules pending on main switched on (rules.ts, PENDING_RULES). */
    readonly pending: ReadonlySet<PendingRule>,
  ) {
    this.model = new ReferenceModel(sim.admin, pageSize, this.pending);
  }

  static async start(
    pageSize: number,
    only?: readonly string[],
    pending: ReadonlySet<PendingRule> = switchedOn(),
  ): Promise<ModelWorld> {
    installModelClock();
    modelClock.reset();
    const sim = await startSimulator({ credits: 1_000_000, pageSize, now: modelClock.now });
    // The CLI reads its key from the environment, as a user's shell gives it.
    process.env['TRANSCRIPT_API_KEY'] = sim.key;
    return new ModelWorld(sim, mkdtempSync(join(tmpdir(), 'scriptorium-model-')), pageSize, only, pending);
  }

  async close(): Promise<void> {
    await this.sim.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  get base(): string[] {
    return ['--base-url', this.sim.url, '--data-dir', this.dataDir];
  }

  /** The job a step's number names: LAST (negative) for the latest export's, else by index. */
  pick(index: number, listsOnly: boolean): ModelJob | undefined {
    const fits = (job: ModelJob): boolean => !listsOnly || job.syncedLists.length > 0;
    if (index < 0) return this.last !== undefined && fits(this.last) ? this.last : undefined;
    const jobs = this.model.jobs.filter(fits);
    return jobs.length === 0 ? undefined : jobs[index % jobs.length];
  }

  /** Whether the step can run now: a step naming a job needs one; a list changes only between walks. */
  canRun(step: Step): boolean {
    switch (step.op) {
      case 'exportAgain':
      case 'kill':
      case 'busy':
        return this.pick(step.job, false) !== undefined;
      case 'sync':
      case 'keep':
        return this.pick(step.job, true) !== undefined;
      case 'search':
        return step.job === undefined || this.pick(step.job, false) !== undefined;
      case 'upload':
        return !this.#walking((name) => namesOfChannel(CHANNELS[step.channel]).includes(name));
      case 'editPlaylist':
        return !this.#walking((name) => name === EDITABLE[step.playlist]);
      default:
        return true;
    }
  }

  /** Whether a job's first walk of such a list is unfinished (the list must not change under it). */
  #walking(matches: (name: string) => boolean): boolean {
    return this.model.jobs.some((job) =>
      job.lists.some((list) => list.walk !== 'done' && list.walk !== 'unavailable' && matches(list.name)),
    );
  }

  async run(step: Step): Promise<void> {
    this.steps.push(step);
    const violations = await this.#apply(step);
    if (DEBUG) this.#trace(step);
    violations.push(...(await creditsAgree(this.model, this.dataDir, this.sim.admin.ledger())));
    const counts = (rule: string): boolean =>
      !SKIPPED.some((word) => rule.includes(word)) &&
      (!isPending(rule) || this.pending.has(rule as never)) &&
      (this.only === undefined || this.only.some((word) => rule.includes(word)));
    const kept = violations.filter((v) => counts(v.rule));
    if (kept.length > 0) throw new ModelFailure(kept, [...this.steps], this.pageSize);
  }

  async #apply(step: Step): Promise<Violation[]> {
    switch (step.op) {
      case 'export': {
        const { job, created } = this.model.jobFor(step.job);
        void created;
        return this.#export(job, step, step.job);
      }
      case 'exportAgain': {
        const job = this.pick(step.job, false)!;
        return this.#export(job, step, job.args);
      }
      case 'upload':
        this.sim.admin.addUploads(CHANNELS[step.channel], step.count);
        return [];
      case 'editPlaylist':
        try {
          this.sim.admin.editPlaylist(EDITABLE[step.playlist]!, step.edit);
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
        }
        return [];
      case 'clock':
        modelClock.advance(step.advanceMs);
        return [];
      case 'topUp':
        this.sim.admin.topUp(1_000_000);
        this.plan = 'paid';
        return [];
      case 'account':
        this.sim.admin.setCredits(step.credits);
        this.sim.admin.setPlan(step.plan);
        this.plan = step.plan;
        return [];
      case 'fault':
        faultStep(this, step);
        return [];
      case 'sync':
        return this.#sync(this.pick(step.job, true)!);
      case 'keep': {
        const job = this.pick(step.job, true)!;
        const { result } = await this.command([
          'keep',
          String(job.id),
          step.off ? 'off' : 'on',
          '--data-dir',
          this.dataDir,
        ]);
        job.keep = step.off !== true;
        return exitsWith(result, [0], 'keep: marks a job with a list, or unmarks it');
      }
      case 'syncAll':
        return syncAllStep(this, step);
      case 'search':
        return searchStep(this, step);
      case 'preview':
        return previewStep(this, step);
      case 'kill':
        return killStep(this, step);
      case 'busy':
        return busyStep(this, step);
      case 'refused':
        return refusedStep(this, step);
    }
  }

  /** MODEL_DEBUG: what each step did, on stderr (the command's exit, what the service charged, each job). */
  #trace(step: Step): void {
    const jobs = this.model.jobs.map((job) => {
      const statuses = [...job.items.values()].map((item) => `${item.videoId}:${[...item.status].join('/')}`);
      return `  job ${job.id} ${job.state}${job.exact ? '' : ' (inexact)'} charged ${job.charged} released ${job.released}: ${statuses.join(' ')}`;
    });
    process.stderr.write(`step ${JSON.stringify(step)}\n${this.#lastTrace}\n${jobs.join('\n')}\n`);
  }

  #lastTrace = '';

  /** Runs a command line in process; its log (what the service saw of it) and its span. */
  async command(args: string[]): Promise<Ran> {
    const start = modelClock.now();
    const result = await runCommand(args);
    const log = this.logSince();
    if (DEBUG)
      this.#lastTrace = `  ${args.slice(0, 2).join(' ')} -> exit ${result.code} ${result.message}\n${log.calls
        .map(
          (call) =>
            `    ${call.seq} ${call.endpoint} ${JSON.stringify(call.query).slice(0, 90)} ${call.status}${call.charge ? ' charged' : ''}`,
        )
        .join('\n')}`;
    return { result, span: { start, end: modelClock.now() }, log };
  }

  /** The service's log of what happened since the last call, as one command's. */
  logSince(heldFrom?: number): CommandLog {
    const requests = this.sim.admin.requests().filter((request) => request.seq > this.#seen.seq);
    const ledger = this.sim.admin.ledger();
    const charges = ledger.slice(this.#seen.charges);
    this.#seen = { seq: requests.at(-1)?.seq ?? this.#seen.seq, charges: ledger.length };
    return new CommandLog(requests, charges, heldFrom);
  }

  /** The arguments of an export of `args` as `how` asks (sources as arguments or from a file). */
  exportArgs(job: ModelJob, args: JobArgs, how: ExportHow, path: string): string[] {
    const sources =
      how.from === undefined ? args.sources : ['--from', this.#sourceFile(args.sources, how.from)];
    return [
      'export',
      ...sources,
      ...jobFlags(args),
      ...formatFlags(args, formatsOf(args, how)),
      ...citationFlags(how.citation),
      ...(how.retry === undefined ? [] : [`--retry-${how.retry}`]),
      ...(how.budget === undefined ? [] : ['--budget', String(how.budget)]),
      ...(how.concurrency === undefined ? [] : ['--concurrency', String(how.concurrency)]),
      '--out',
      path,
      ...this.base,
    ];
  }

  /** A --from file of the sources: comments and blank lines around them, or a CSV with a header row. */
  #sourceFile(sources: readonly string[], form: 'file' | 'csv'): string {
    this.#outs += 1;
    const path = join(this.dir, `sources-${this.#outs}.${form === 'csv' ? 'csv' : 'txt'}`);
    const text =
      form === 'csv'
        ? `url,note\n${sources.map((source) => `"${source}",model`).join('\n')}\n`
        : `# the model's sources\n\n${sources.join('\n')}\n  # the end\n`;
    writeFileSync(path, text);
    return path;
  }

  /** A path in the sequence's folder, of a name no other step uses. */
  scratch(name: string): string {
    this.#outs += 1;
    return join(this.dir, `${this.#outs}-${name}`);
  }

  /** Runs a command line in process, for its result alone. */
  runInProcess(args: string[]): Promise<CommandResult> {
    return runCommand(args);
  }

  zipPath(job: ModelJob, out: 'same' | 'new'): string {
    this.#outs += 1;
    return join(this.dir, out === 'same' ? `job${job.id}.zip` : `job${job.id}-${this.#outs}.zip`);
  }

  async #export(job: ModelJob, how: ExportHow, args: JobArgs): Promise<Violation[]> {
    this.last = job;
    const path = this.zipPath(job, how.out);
    if (how.budget !== undefined) job.budget = how.budget;
    const chargedBefore = job.charged;
    if (how.retry !== undefined) this.model.retry(job, how.retry);
    const { result, log, span } = await this.command(this.exportArgs(job, args, how, path));
    const expected = this.model.run(job, 'export', { log, span, kill: 'none' });
    this.attribute(log);
    return [
      ...expected.violations,
      ...this.model.unexpectedPaid(log),
      ...spentWithinBudget(job, chargedBefore),
      ...budgetSpentWhenStopped(job, result),
      ...paymentNamed(result, log, this.plan),
      ...(await this.afterExport(job, how, args, { result, expected, path })),
    ];
  }

  /** The exit the command gave, and the rules on the ZIP it wrote when it should have written one. */
  async afterExport(
    job: ModelJob,
    how: ExportHow,
    args: JobArgs,
    { result, expected, path }: { result: CommandResult; expected: Expected; path: string },
  ): Promise<Violation[]> {
    const exited = exitsWith(result, [...expected.exits], 'export: exits as the run ended (0, 3, 4, 5, 6)');
    if (exited.length > 0) return exited;
    if (![0, 3, 5].includes(result.code)) return [];
    // The citation is kept with the job by the export that writes a ZIP.
    job.cite(how.citation);
    const corpus = readCorpus(path);
    return checkCorpus(this.model, job, corpus, {
      path,
      formats: formatsOf(args, how),
      args,
      citation: how.citation,
      complete: result.code !== 3,
    });
  }

  /** Credits the ledger charged during the command go to the job whose run the reference followed. */
  attribute(log: CommandLog): void {
    for (const [jobId, charged] of log.chargedByOwner()) {
      const job = this.model.jobs.find((candidate) => candidate.id === jobId);
      if (job !== undefined) job.charged += charged;
    }
  }

  async #sync(job: ModelJob): Promise<Violation[]> {
    const finished = job.state === 'completed';
    const chargedBefore = job.charged;
    const { result, log, span } = await this.command(['sync', String(job.id), ...this.base]);
    if (!finished) {
      return [
        ...exitsWith(result, [2], 'sync: refuses a job that has not finished (exit 2)'),
        ...unless(
          'sync: a refused sync sends nothing',
          log.calls.length > 0 ? [`${log.calls.length} requests`] : [],
        ),
      ];
    }
    const expected = this.model.run(job, 'sync', { log, span, kill: 'none' });
    job.syncs += 1;
    this.attribute(log);
    const exits = [...expected.exits].map((exit) => (exit === 5 ? 0 : exit));
    return [
      ...expected.violations,
      ...this.model.unexpectedPaid(log),
      ...spentWithinBudget(job, chargedBefore),
      ...budgetSpentWhenStopped(job, result),
      ...exitsWith(
        result,
        exits,
        'sync: brings a finished job up to date (exit 0), or stops as an export would',
      ),
    ];
  }
}

/** The formats an export writes: those it asks for, of those its job can have (no times: txt and json). */
function formatsOf(args: JobArgs, how: ExportHow): string {
  const formats = how.formats ?? args.formats;
  if (args.noTimestamps !== true) return formats;
  const untimed = formats.split(',').filter((format) => format === 'txt' || format === 'json');
  return untimed.length === 0 ? 'txt,json' : untimed.join(',');
}

export function exitsWith(result: CommandResult, codes: readonly number[], rule: string): Violation[] {
  return codes.includes(result.code)
    ? []
    : [{ rule, detail: `exit ${result.code} (expected ${codes.join(' or ')}): ${result.message}` }];
}
