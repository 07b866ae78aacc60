import { createHash } from 'node:crypto';
import { accessSync, constants, createReadStream, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { checkExportTarget } from '../core/app';
import type { JobDetail, JobView, RunOutcomeView, ScriptoriumApi } from '../shared/contract';
import { ContractError } from '../shared/contract-error';
import { JOB_STATUS, STOP_REASON } from '../shared/vocabulary';
import { CliExit, ExitCode } from './exit';
import type { CitationInput } from '../shared/citation';
import type { JobRequest } from './job-options';
import { exitForUnfinishedRun } from './outcome';
import { createProgressView } from './progress';
import { reportSources } from './sources-report';
import { plural } from './plural';

export interface ExportRun {
  request: JobRequest;
  outPath: string;
  retryFailed: boolean;
  /** Ask again for the videos the service had no transcript for. */
  retryUnavailable: boolean;
  /** Title, description, authors and license for the corpus; left out, the job's last ones. */
  citation?: CitationInput;
  stderr: NodeJS.WriteStream;
}

export interface ExportSummary {
  zipPath: string;
  job: JobView;
  /** What happened to its failed videos (JobDetail's failures). */
  failures: JobDetail['failures'];
  /** Its lists that could not be walked, each with why. */
  unwalked: Array<{ input: string; error: string }>;
  seconds: number;
  /** The transcripts' files copied unchanged from the previous export at zipPath, and those written. */
  files: { copied: number; written: number };
  /** What the corpus carries now that it did not before: a line per part of its citation that changed. */
  citationChanges: string[];
}

/** Waits longer than this are worth a line: shorter ones pass unnoticed in the progress bar. */
const WAIT_WORTH_SHOWING_MS = 3_000;

/**
 * Runs (or continues) the job that these sources and options identify, then writes its ZIP, all
 * through the contract. The first SIGINT or SIGTERM stops it (requests in flight finish and are
 * kept, at most 10 s; an export under way stops with nothing written), a second cuts what is in
 * flight. Throws CliExit for every outcome that is not a written ZIP; a job paused for credits or
 * budget still gets the ZIP of what it bought.
 */
export async function runExport(api: ScriptoriumApi, run: ExportRun): Promise<ExportSummary> {
  const startedAt = performance.now();
  const { request, stderr } = run;
  const zipPath = resolve(run.outPath);
  checkOutputLocation(zipPath);
  await reportSources(api, request.sources, stderr);

  const draft = { ...request.draft, sources: request.sources };
  const known = (await api.findJob({ draft })).job;
  // Nothing is created when nothing could run: a missing key or address is said first.
  if (known === null || needsRun(known, run)) await api.checkService({});
  // The path is remembered at once: a run stopped before its ZIP still shows it in `jobs`.
  const { job, created } = await api.createJob({ draft, start: false, exportPath: zipPath });
  // Another process runs it: said before anything else is (no plan, no progress), as exit 7.
  if (job.runningIn === 'elsewhere') {
    throw new CliExit(
      ExitCode.busy,
      `Job ${job.id} is being run by another Scriptorium process; wait for it to finish or stop it first. Nothing was sent.`,
    );
  }
  const stop = new StopSignals(api, job.id, stderr);
  try {
    const retried =
      (run.retryFailed ? (await api.retryFailed({ jobId: job.id })).reset : 0) +
      (run.retryUnavailable ? (await api.retryUnavailable({ jobId: job.id })).reset : 0);
    const target = {
      formats: request.draft.formats,
      ...(run.citation !== undefined && { citation: run.citation }),
    };
    if (job.status !== JOB_STATUS.completed || retried > 0 || job.sourcesFailed > 0) {
      const { job: current, estimate } = await api.jobDetail({ jobId: job.id });
      const budgetLeft = current.budget === null ? null : Math.max(0, current.budget - current.creditsSpent);
      if (budgetLeft === 0) {
        // Spent already: say so at once, rather than promise credits to spend and then pause.
        const spent = exitForUnfinishedRun(
          { status: JOB_STATUS.paused, reason: STOP_REASON.budget, message: null },
          current.budget,
        );
        throw await withPartialZip(spent, api, job.id, zipPath, target);
      }
      const plan = describePlan(current, estimate, created, budgetLeft);
      const { job: ran, outcome } = await runWithProgress(api, job.id, plan, stderr);
      if (outcome.status !== JOB_STATUS.completed) {
        const exit = exitForUnfinishedRun(outcome, ran.budget);
        // What was bought is the user's to read before paying more.
        if (exit.code === ExitCode.paused) throw await withPartialZip(exit, api, job.id, zipPath, target);
        throw exit;
      }
    } else {
      stderr.write(`Job ${job.id} is already complete: writing its ZIP again without any request.\n`);
    }

    const { copied, written, citationChanges } = await exportOrStop(api, job.id, zipPath, target);
    const exported = await api.jobDetail({ jobId: job.id });
    return {
      zipPath,
      job: exported.job,
      failures: exported.failures,
      unwalked: exported.lists.flatMap((list) =>
        list.error === null ? [] : [{ input: list.input, error: list.error }],
      ),
      seconds: (performance.now() - startedAt) / 1000,
      files: { copied, written },
      citationChanges,
    };
  } finally {
    stop.dispose();
  }
}

/**
 * Writes a released version of the job these sources and options identify again, as it was released,
 * sending nothing; says what it wrote (with the file's SHA-256, to compare with the one cited).
 */
export async function writeReleasedVersion(
  api: ScriptoriumApi,
  run: { request: JobRequest; outPath: string; version: number; stderr: NodeJS.WriteStream },
): Promise<string> {
  const zipPath = resolve(run.outPath);
  checkOutputLocation(zipPath);
  const draft = { ...run.request.draft, sources: run.request.sources };
  const { job } = await api.findJob({ draft });
  if (job === null) {
    throw new CliExit(
      ExitCode.badInput,
      'No job was made with these sources and options, so it has no version to write. Nothing was sent.',
    );
  }
  const stop = new StopSignals(api, job.id, run.stderr);
  try {
    await exportOrStop(api, job.id, zipPath, { formats: run.request.draft.formats, version: run.version });
  } finally {
    stop.dispose();
  }
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(zipPath)) hash.update(chunk as Buffer);
  const sha256 = hash.digest('hex');
  return `Wrote version ${run.version} of job ${job.id}, as it was released, to ${zipPath}\n  SHA-256: ${sha256}`;
}

/** Whether running the same command on this existing job would send anything. */
function needsRun(job: JobView, run: ExportRun): boolean {
  return (
    job.status !== JOB_STATUS.completed ||
    job.sourcesFailed > 0 ||
    (run.retryFailed && job.counts.failed > 0) ||
    (run.retryUnavailable && job.counts.unavailable > 0)
  );
}

/**
 * What the run is about to do, in one line that the counts will not contradict: while lists are
 * still to be read, their size (and so the transcripts' cost) is not known yet.
 */
export function describePlan(
  job: JobView,
  estimate: JobDetail['estimate'],
  created: boolean,
  budgetLeft: number | null,
): string {
  const verb = created ? 'Starting' : 'Continuing';
  const sources = plural(job.sources.length, 'source');
  const cost = estimate.exact
    ? estimate.transcripts === 0
      ? 'nothing left to buy'
      : `up to ${plural(estimate.transcripts, 'transcript')} to buy, at most ${plural(estimate.transcripts, 'credit')}`
    : `${plural(estimate.pages, 'list')} to read first (a credit a page), then a credit for each transcript they hold` +
      (estimate.transcripts > 0
        ? ` besides the ${plural(estimate.transcripts, 'transcript')} known so far`
        : '');
  const budget = budgetLeft === null ? '' : `; the budget allows ${plural(budgetLeft, 'more credit')}`;
  return `${verb} job ${job.id}, “${job.title}” (${sources}): ${cost}${budget}.`;
}

/**
 * SIGINT and SIGTERM as docs/product.md's interrupt rule has them, through the contract: the first
 * pauses the job as interrupted (it drains), a second pauses it with force.
 */
class StopSignals {
  readonly #onSignal: () => void;

  constructor(api: ScriptoriumApi, jobId: number, stderr: NodeJS.WriteStream) {
    let signals = 0;
    this.#onSignal = () => {
      signals += 1;
      if (signals === 1) {
        stderr.write(
          '\nStopping: requests already sent may take up to 10 s to finish, and are kept. Press Ctrl+C again to stop at once.\n',
        );
      }
      void api.pauseJob({ jobId, interrupted: true, force: signals > 1 }).catch(() => undefined);
    };
    process.on('SIGINT', this.#onSignal);
    process.on('SIGTERM', this.#onSignal);
  }

  dispose(): void {
    process.off('SIGINT', this.#onSignal);
    process.off('SIGTERM', this.#onSignal);
  }
}

/**
 * Runs the job with its progress shown. `plan` is said once the run has started: a job another
 * process runs never starts here (exit 7), and then no plan is promised.
 */
async function runWithProgress(
  api: ScriptoriumApi,
  jobId: number,
  plan: string,
  stderr: NodeJS.WriteStream,
): Promise<{ job: JobView; outcome: RunOutcomeView }> {
  const progress = createProgressView(stderr);
  let started = false;
  const start = (): void => {
    if (!started) stderr.write(`${plan}\n`);
    started = true;
  };
  const stopProgress = api.on('jobChanged', (job) => {
    if (job.id !== jobId) return;
    // Running here: a job another process runs is never this command's to show.
    if (job.status === JOB_STATUS.running && job.runningIn === 'here') start();
    if (started) progress.update(job);
  });
  const stopWaits = api.on('retryWait', (wait) => {
    if (wait.jobId !== jobId || wait.waitMs < WAIT_WORTH_SHOWING_MS) return;
    progress.note(
      `Waiting ${Math.ceil(wait.waitMs / 1000)} s before trying again: the service answered ${wait.status}.`,
    );
  });
  try {
    const ran = await api.runJob({ jobId });
    start();
    // Progress events are throttled, so the last one may still be on its way: the last line printed
    // is the job as its run left it, never a count the summary below contradicts.
    progress.update(ran.job);
    return ran;
  } finally {
    stopProgress();
    stopWaits();
    progress.stop();
  }
}

/** What an export writes: its formats, and the citation when one was given, or a released version. */
interface ExportTarget {
  formats: JobRequest['draft']['formats'];
  citation?: CitationInput;
  version?: number;
}

/** Writes the ZIP; an interrupt stops it with nothing written at the target (exit 130). */
async function exportOrStop(
  api: ScriptoriumApi,
  jobId: number,
  zipPath: string,
  target: ExportTarget,
): Promise<{ copied: number; written: number; citationChanges: string[] }> {
  try {
    return await api.exportJob({ jobId, ...target, destination: zipPath });
  } catch (error) {
    if (error instanceof ContractError && error.code === 'interrupted') {
      throw new CliExit(
        ExitCode.interrupted,
        `Interrupted while writing the ZIP: nothing was written at ${zipPath}, and the job is saved. Run the same command again to write it.`,
      );
    }
    throw error;
  }
}

/** The paused exit, after writing the ZIP of what was bought so far (marked incomplete in its manifest). */
async function withPartialZip(
  exit: CliExit,
  api: ScriptoriumApi,
  jobId: number,
  zipPath: string,
  target: ExportTarget,
): Promise<CliExit> {
  try {
    await api.exportJob({ jobId, ...target, destination: zipPath });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return new CliExit(
      exit.code,
      `${exit.message} (The ZIP of what was bought could not be written: ${reason})`,
    );
  }
  const { job } = await api.jobDetail({ jobId });
  return new CliExit(
    exit.code,
    `${exit.message} Meanwhile ${zipPath} holds the ${plural(job.counts.ok, 'transcript')} bought so far; its manifest says it is incomplete and index.csv lists the videos still pending.`,
  );
}

/** Refuses an --out that cannot be written before anything is sent or charged. */
function checkOutputLocation(zipPath: string): void {
  const folder = dirname(zipPath);
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
    accessSync(folder, constants.W_OK);
  } catch {
    isFolder = false;
  }
  if (!isFolder) {
    throw new CliExit(
      ExitCode.badInput,
      `Cannot write ${zipPath}: the folder ${folder} does not exist or is not writable. Choose another --out; nothing was sent.`,
    );
  }
  checkExportTarget(zipPath);
  // A ZIP named .txt opens in nothing that expects a text: the name says what the file is.
  if (!/\.zip$/i.test(zipPath)) {
    const name = basename(zipPath);
    throw new CliExit(
      ExitCode.badInput,
      `--out ${name}: a corpus is a ZIP file, so its name ends in .zip (${name.replace(/\.[^.]*$/, '')}.zip, say). Nothing was sent.`,
    );
  }
}
