import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { openApp, type ScriptoriumApp } from '../core/app';
import type { JobSummary, RunOutcome } from '../core/engine';
import { ExportError, ExportInterruptedError } from '../core/export';
import type { CorpusOptions } from '../core/export-mapping';
import type { ConnectionCheck } from './environment';
import { CliExit, ExitCode } from './exit';
import type { ExportRequest } from './export-options';
import { exitForUnfinishedRun } from './outcome';
import { createProgressView } from './progress';

export interface ExportRun {
  request: ExportRequest;
  /** Needed only when the job still has requests to make; otherwise its problem is never shown. */
  connection: ConnectionCheck;
  dataDir: string;
  retryFailed: boolean;
  stderr: NodeJS.WriteStream;
}

export interface ExportSummary {
  jobId: number;
  resumed: boolean;
  zipPath: string;
  job: JobSummary;
  seconds: number;
}

/** Waits longer than this are worth a line: shorter ones pass unnoticed in the progress bar. */
const WAIT_WORTH_SHOWING_MS = 3_000;

/**
 * Runs (or continues) the job that these sources and options identify, then writes its ZIP. The
 * first SIGINT or SIGTERM stops it (requests in flight finish and are recorded, at most 10 s), a
 * second cuts them; either way everything is saved. Throws CliExit for every outcome that is not a
 * written ZIP; a job paused for credits or budget still gets the ZIP of what it bought.
 */
export async function runExport(run: ExportRun): Promise<ExportSummary> {
  const startedAt = performance.now();
  const { request, stderr } = run;
  const zipPath = resolve(request.outPath);
  checkOutputLocation(zipPath);

  const app = openApp({ dataDir: run.dataDir });
  const stop = new StopSignals(stderr);
  try {
    const { job, created } = app.findOrCreateJob({
      sources: request.sources,
      skipped: request.skipped,
      options: request.options,
    });
    if (run.retryFailed) app.retryFailed(job.id);
    const formats = { formats: request.formats };

    if (job.status !== 'completed' || run.retryFailed || hasUnwalkedLists(job)) {
      if ('problem' in run.connection) throw new CliExit(ExitCode.badInput, run.connection.problem);
      const estimate = app.estimate(job.id);
      stderr.write(
        `${created ? 'Starting' : 'Continuing'} job ${job.id}: ${request.sources.length} source(s), ` +
          `${estimate.exact ? '' : 'at least '}${estimate.pages + estimate.transcripts} credit(s) to spend ` +
          `(${estimate.pages} page(s), up to ${estimate.transcripts} transcript(s)).\n`,
      );
      const outcome = await runWithProgress(app, job.id, run, stop);
      if (outcome.status !== 'completed') {
        const exit = exitForUnfinishedRun(outcome, request.budget);
        // What was bought is the user's to read before paying more.
        if (exit.code === ExitCode.paused) throw await withPartialZip(exit, app, job.id, zipPath, formats);
        throw exit;
      }
    } else {
      stderr.write(`Job ${job.id} is already complete: writing its ZIP again without any request.\n`);
    }

    await exportOrStop(app, job.id, zipPath, formats, stop.interrupt);
    const finished = app.job(job.id);
    if (!finished) throw new Error(`job ${job.id} disappeared from the database`);
    return {
      jobId: job.id,
      resumed: !created,
      zipPath,
      job: finished,
      seconds: (performance.now() - startedAt) / 1000,
    };
  } finally {
    stop.dispose();
    app.close();
  }
}

/**
 * SIGINT and SIGTERM as PRODUCT.md's interrupt rule has them: the first stops the work gently
 * (`interrupt`), a second cuts what is in flight (`force`).
 */
class StopSignals {
  readonly #interrupt = new AbortController();
  readonly #force = new AbortController();
  readonly #stderr: NodeJS.WriteStream;
  readonly #onSignal = (): void => {
    if (this.#interrupt.signal.aborted) {
      this.#force.abort();
      return;
    }
    this.#stderr.write(
      '\nStopping: requests already sent may take up to 10 s to finish, and are kept. Press Ctrl+C again to stop at once.\n',
    );
    this.#interrupt.abort();
  };

  constructor(stderr: NodeJS.WriteStream) {
    this.#stderr = stderr;
    process.on('SIGINT', this.#onSignal);
    process.on('SIGTERM', this.#onSignal);
  }

  get interrupt(): AbortSignal {
    return this.#interrupt.signal;
  }

  get force(): AbortSignal {
    return this.#force.signal;
  }

  dispose(): void {
    process.off('SIGINT', this.#onSignal);
    process.off('SIGTERM', this.#onSignal);
  }
}

/** Lists a job has not been able to walk yet: the next run tries them again. */
function hasUnwalkedLists(job: JobSummary): boolean {
  return job.walks.some((walk) => walk.walkStatus === 'failed' || walk.walkStatus === 'unavailable');
}

async function runWithProgress(
  app: ScriptoriumApp,
  jobId: number,
  run: ExportRun,
  stop: StopSignals,
): Promise<RunOutcome> {
  if ('problem' in run.connection) throw new CliExit(ExitCode.badInput, run.connection.problem);
  const { request, stderr } = run;
  const progress = createProgressView(stderr);
  const stopProgress = app.on('snapshot', (snapshot) => {
    if (snapshot.jobId === jobId) progress.update(snapshot);
  });
  const stopWaits = app.onWait((wait) => {
    if (wait.jobId !== jobId || wait.waitMs < WAIT_WORTH_SHOWING_MS) return;
    progress.note(
      `Waiting ${Math.ceil(wait.waitMs / 1000)} s before trying again: the service answered ${wait.status}.`,
    );
  });
  try {
    return await app.runJob(jobId, run.connection.connection, {
      concurrency: request.concurrency,
      budget: request.budget,
      signal: stop.interrupt,
      force: stop.force,
    });
  } finally {
    stopProgress();
    stopWaits();
    progress.stop();
  }
}

/** Writes the ZIP; an interrupt stops it with nothing written at the target (exit 130). */
async function exportOrStop(
  app: ScriptoriumApp,
  jobId: number,
  zipPath: string,
  options: CorpusOptions,
  signal: AbortSignal,
): Promise<void> {
  try {
    await app.exportJob(jobId, zipPath, options, { signal });
  } catch (error) {
    if (error instanceof ExportInterruptedError) {
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
  app: ScriptoriumApp,
  jobId: number,
  zipPath: string,
  options: CorpusOptions,
): Promise<CliExit> {
  try {
    await app.exportJob(jobId, zipPath, options);
  } catch (error) {
    const reason = error instanceof ExportError ? error.message : String(error);
    return new CliExit(
      exit.code,
      `${exit.message} (The ZIP of what was bought could not be written: ${reason})`,
    );
  }
  const ok = app.job(jobId)?.counts.ok ?? 0;
  return new CliExit(
    exit.code,
    `${exit.message} Meanwhile ${zipPath} holds the ${ok} transcript(s) bought so far; its manifest says it is incomplete and index.csv lists the videos still pending.`,
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
  let existing: ReturnType<typeof statSync> | undefined;
  try {
    existing = statSync(zipPath);
  } catch {
    existing = undefined;
  }
  if (existing?.isDirectory()) {
    throw new CliExit(
      ExitCode.badInput,
      `Cannot write ${zipPath}: it is a folder. Give a file name ending in .zip.`,
    );
  }
}
