/**
 * The real side of the model test: a simulator on 127.0.0.1 and a data folder of its own, driven by
 * `scriptorium` command lines (in process), each followed by the reference model's update and, after
 * every export, by every rule of rules.ts on the ZIP it wrote.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { runCommand, type CommandResult } from './cli-in-process';
import { readCorpus, type CorpusReading } from './corpus-reader';
import { ReferenceModel, type Citation, type ModelJob } from './reference';
import {
  boughtOnce,
  datesHold,
  latestPositions,
  statusesAgree,
  uniquePositions,
  type Violation,
} from './rules';
import { CHANNELS, citationFlags, jobFlags, LISTS, VIDEOS, type Step } from './steps';

/** A sequence broke a rule: which, where, and the steps that led there. */
export class ModelFailure extends Error {
  constructor(
    readonly violations: Violation[],
    readonly steps: Step[],
  ) {
    super(
      `${violations.map((v) => `rule "${v.rule}" broken: ${v.detail}`).join('\n')}\n` +
        `after ${steps.length} step(s):\n${steps.map((step) => `  ${JSON.stringify(step)}`).join(',\n')}`,
    );
  }
}

/** Rules left out of a run (MODEL_SKIP_RULES: words of their names, comma-separated), to find the next. */
const SKIPPED = (process.env['MODEL_SKIP_RULES'] ?? '')
  .split(',')
  .map((word) => word.trim())
  .filter((word) => word !== '');

export class ModelWorld {
  readonly steps: Step[] = [];
  readonly model: ReferenceModel;
  #exports = 0;

  private constructor(
    readonly sim: RunningSimulator,
    readonly dir: string,
    /** Words of the only rules that count (a regression's), or undefined for every rule. */
    readonly only: readonly string[] | undefined,
  ) {
    this.model = new ReferenceModel(sim.admin);
  }

  static async start(only?: readonly string[]): Promise<ModelWorld> {
    const sim = await startSimulator({ credits: 1_000_000 });
    // The CLI reads its key from the environment, as a user's shell gives it.
    process.env['TRANSCRIPT_API_KEY'] = sim.key;
    return new ModelWorld(sim, mkdtempSync(join(tmpdir(), 'scriptorium-model-')), only);
  }

  async close(): Promise<void> {
    await this.sim.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  get #base(): string[] {
    return ['--base-url', this.sim.url, '--data-dir', join(this.dir, 'data')];
  }

  /** The job a step's number names among those it may apply to, or undefined when there is none. */
  pick(index: number, listsOnly: boolean): ModelJob | undefined {
    const jobs = this.model.jobs.filter((job) => !listsOnly || job.syncedLists.length > 0);
    return jobs.length === 0 ? undefined : jobs[index % jobs.length];
  }

  /** Whether the step can run now (a step naming a job needs one). */
  canRun(step: Step): boolean {
    switch (step.op) {
      case 'exportAgain':
        return this.pick(step.job, false) !== undefined;
      case 'sync':
      case 'keep':
        return this.pick(step.job, true) !== undefined;
      case 'fault':
        return this.#faultTargets().length > 0;
      default:
        return true;
    }
  }

  async run(step: Step): Promise<void> {
    this.steps.push(step);
    const violations = await this.#apply(step);
    violations.push(...boughtOnce(this.model, this.sim.admin.ledger()), ...(await this.#creditsTotal()));
    const counts = (rule: string): boolean =>
      !SKIPPED.some((word) => rule.includes(word)) &&
      (this.only === undefined || this.only.some((word) => rule.includes(word)));
    const kept = violations.filter((v) => counts(v.rule));
    if (kept.length > 0) throw new ModelFailure(kept, [...this.steps]);
  }

  async #apply(step: Step): Promise<Violation[]> {
    switch (step.op) {
      case 'export': {
        const { job, created } = this.model.jobFor(step.job);
        return this.#export(job, { created, citation: step.citation, out: step.out });
      }
      case 'exportAgain': {
        const job = this.pick(step.job, false)!;
        return this.#export(job, {
          created: false,
          citation: step.citation,
          out: step.out,
          retry: step.retry,
        });
      }
      case 'upload':
        this.sim.admin.addUploads(CHANNELS[step.channel], step.count);
        return [];
      case 'sync': {
        const job = this.pick(step.job, true)!;
        const { result, span, credits } = await this.#command(['sync', String(job.id), ...this.#base]);
        this.model.sync(job, span);
        if (job.credits !== null) job.credits += credits;
        return exitsWith(result, [0], 'sync: brings a finished job up to date');
      }
      case 'keep': {
        const job = this.pick(step.job, true)!;
        const { result } = await this.#command([
          'keep',
          String(job.id),
          'on',
          '--data-dir',
          join(this.dir, 'data'),
        ]);
        job.keep = true;
        return exitsWith(result, [0], 'keep: marks a job with a list');
      }
      case 'syncAll': {
        const { result, span, credits } = await this.#command(['sync', '--all', ...this.#base]);
        const kept = this.model.jobs.filter((job) => job.keep);
        for (const job of kept) {
          this.model.sync(job, span);
          job.credits = kept.length === 1 && job.credits !== null ? job.credits + credits : null;
        }
        return exitsWith(result, [0], 'sync --all: brings the kept jobs up to date');
      }
      case 'fault': {
        const targets = this.#faultTargets();
        const videoId = targets[step.pick % targets.length]!;
        this.sim.admin.addFault({
          match: { endpoint: 'transcript', videoId },
          kind: 'status',
          status: step.status,
          times: 1,
        });
        this.model.faults.set(videoId, { status: step.status, maybeSpent: false });
        return [];
      }
    }
  }

  #faultTargets(): string[] {
    const listed = LISTS.flatMap((list) =>
      list.startsWith('@')
        ? this.sim.admin.describeChannel(list).videoIds()
        : this.sim.admin.describePlaylist(list).videoIds(),
    );
    return this.model.faultTargets([...listed, ...VIDEOS]);
  }

  /** Runs a command line; the span it ran in, and what the ledger charged meanwhile. */
  async #command(args: string[]) {
    const before = this.sim.admin.ledger().length;
    const start = Date.now();
    const result = await runCommand(args);
    const span = { start, end: Date.now() };
    return { result, span, credits: this.sim.admin.ledger().length - before };
  }

  async #export(
    job: ModelJob,
    how: {
      created: boolean;
      citation: Citation | undefined;
      out: 'same' | 'new';
      retry?: 'failed' | 'unavailable';
    },
  ): Promise<Violation[]> {
    this.#exports += 1;
    const path = join(
      this.dir,
      how.out === 'same' ? `job${job.id}.zip` : `job${job.id}-${this.#exports}.zip`,
    );
    const retry = how.retry === undefined ? [] : [`--retry-${how.retry}`];
    const args = [
      'export',
      ...job.args.sources,
      ...jobFlags(job.args),
      ...citationFlags(how.citation),
      ...retry,
    ];
    const { result, span, credits } = await this.#command([...args, '--out', path, ...this.#base]);
    if (how.created) this.model.firstRun(job, span);
    else if (how.retry !== undefined) this.model.retry(job, how.retry);
    if (how.citation !== undefined && JSON.stringify(how.citation) !== JSON.stringify(job.citation)) {
      job.touched = true;
      job.citation = how.citation;
    }
    if (job.credits !== null) job.credits += credits;
    const exited = exitsWith(result, [0, 5], 'export: writes the corpus');
    if (exited.length > 0) return exited;
    const corpus = readCorpus(path);
    return [
      ...uniquePositions(corpus),
      ...latestPositions(job, corpus),
      ...statusesAgree(job, corpus),
      ...datesHold(this.model, corpus),
      ...(await this.#creditsOf(job, corpus)),
      ...versions(job, corpus, await this.#creditsSoFar(job)),
      ...(await this.#verify(path, corpus)),
    ];
  }

  /**
   * The manifest's credits_spent is what the ledger charged the job up to the release of the version
   * it carries: an export that keeps a version (a sync that found nothing spent a credit on a list
   * page since) writes that version's figure again, byte for byte.
   */
  async #creditsOf(job: ModelJob, corpus: CorpusReading): Promise<Violation[]> {
    const spent = corpus.manifest.credits_spent;
    const released = job.exports.find((earlier) => earlier.version === corpus.manifest.version);
    const expected = released === undefined ? await this.#creditsSoFar(job) : released.credits;
    return spent === expected
      ? []
      : [
          {
            rule: 'credits: credits_spent is what the ledger charged the job up to its version',
            detail: `job ${job.id}: manifest says ${spent}, the ledger ${expected}`,
          },
        ];
  }

  /** What the ledger charged the job so far (its own count, or the app's once a sync --all mixed jobs). */
  async #creditsSoFar(job: ModelJob): Promise<number | undefined> {
    return job.credits ?? (await this.#jobViews()).find((view) => view.id === job.id)?.creditsSpent;
  }

  /** After every step, the jobs together spent what the ledger charged. */
  async #creditsTotal(): Promise<Violation[]> {
    const jobs = await this.#jobViews();
    const total = jobs.reduce((sum, view) => sum + view.creditsSpent, 0);
    const charged = this.sim.admin.ledger().length;
    return total === charged
      ? []
      : [
          {
            rule: 'credits: the jobs together spent what the ledger charged',
            detail: `jobs ${total}, ledger ${charged}`,
          },
        ];
  }

  async #jobViews(): Promise<Array<{ id: number; creditsSpent: number }>> {
    const result = await runCommand(['jobs', '--json', '--data-dir', join(this.dir, 'data')]);
    return JSON.parse(result.stdout) as Array<{ id: number; creditsSpent: number }>;
  }

  /** verify accepts the export and its honest re-packaging, and refuses it with one byte changed. */
  async #verify(path: string, corpus: CorpusReading): Promise<Violation[]> {
    const violations: Violation[] = [];
    const verdict = async (file: string) => (await runCommand(['verify', file])).code;
    if ((await verdict(path)) !== 0) violations.push({ rule: 'verify: accepts the export', detail: path });
    const top = 'corpus';
    const repacked: Record<string, Uint8Array> = { [`${top}/`]: new Uint8Array(0) };
    for (const [name, bytes] of Object.entries(corpus.entries)) repacked[`${top}/${name}`] = bytes;
    repacked[`${top}/.DS_Store`] = strToU8('Bud1');
    repacked[`__MACOSX/${top}/._manifest.json`] = strToU8('Mac resource fork');
    const repackedPath = `${path}.repacked.zip`;
    writeFileSync(repackedPath, zipSync(repacked));
    if ((await verdict(repackedPath)) !== 0)
      violations.push({
        rule: 'verify: accepts an honest re-packaging (one top folder, __MACOSX/, .DS_Store)',
        detail: repackedPath,
      });
    const changed = { ...corpus.entries };
    const index = changed['index.csv']!.slice();
    index[index.length - 2] = index[index.length - 2]! ^ 0x01;
    changed['index.csv'] = index;
    const changedPath = `${path}.changed.zip`;
    writeFileSync(changedPath, zipSync(changed));
    if ((await verdict(changedPath)) !== 1)
      violations.push({ rule: 'verify: rejects a changed byte', detail: changedPath });
    return violations;
  }
}

function exitsWith(result: CommandResult, codes: number[], rule: string): Violation[] {
  return codes.includes(result.code) ? [] : [{ rule, detail: `exit ${result.code}: ${result.message}` }];
}

/**
 * Versions follow the bytes: an export after nothing changed gives the same bytes and version; one
 * version never names two corpora; versions never go back.
 */
function versions(job: ModelJob, corpus: CorpusReading, credits: number | undefined): Violation[] {
  const violations: Violation[] = [];
  const version = corpus.manifest.version;
  const previous = job.exports[job.exports.length - 1];
  if (
    previous !== undefined &&
    !job.touched &&
    (previous.sha256 !== corpus.sha256 || previous.version !== version)
  )
    violations.push({
      rule: 'versions: an export that changes nothing keeps the version and the bytes',
      detail: `job ${job.id}: version ${previous.version} -> ${version}, bytes ${previous.sha256 === corpus.sha256 ? 'kept' : 'changed'}`,
    });
  const twin = job.exports.find((earlier) => earlier.version === version && earlier.sha256 !== corpus.sha256);
  if (twin !== undefined)
    violations.push({
      rule: 'versions: one version number, one corpus',
      detail: `job ${job.id}: two different corpora carry version ${version}`,
    });
  if (previous !== undefined && version < previous.version)
    violations.push({
      rule: 'versions: never go back',
      detail: `job ${job.id}: version ${previous.version} -> ${version}`,
    });
  const released = job.exports.find((earlier) => earlier.version === version);
  job.exports.push({ sha256: corpus.sha256, version, credits: released?.credits ?? credits });
  job.touched = false;
  return violations;
}
