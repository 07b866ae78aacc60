import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { openApp } from '../core/app';
import { checkExportTarget } from '../core/export';
import type { JobSummary } from '../core/engine';
import type { ConnectionCheck } from './environment';
import { CliExit, ExitCode } from './exit';
import type { ExportRequest } from './export-options';
import { exitForUnfinishedRun } from './outcome';
import { createProgressView } from './progress';

export interface ExportRun {
  request: ExportRequest;
  /** Needed only when the job still has requests to make. */
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

/**
 * Runs (or continues) the job that these sources and options identify, then writes its ZIP.
 * SIGINT and SIGTERM stop it promptly with everything saved. Throws CliExit for every outcome
 * that is not a written ZIP.
 */
export async function runExport(run: ExportRun): Promise<ExportSummary> {
  const startedAt = performance.now();
  const { request, stderr } = run;
  const zipPath = resolve(request.outPath);
  checkOutputLocation(zipPath);

  const app = openApp({ dataDir: run.dataDir });
  const interruption = new AbortController();
  const interrupt = () => interruption.abort();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    const { job, created } = app.findOrCreateJob({
      sources: request.sources,
      skipped: request.skipped,
      options: request.options,
    });
    if (run.retryFailed && job.counts.failed > 0) app.retryFailed(job.id);

    if (job.status !== 'completed' || run.retryFailed) {
      if ('problem' in run.connection) throw new CliExit(ExitCode.badInput, run.connection.problem);
      const estimate = app.estimate(job.id);
      stderr.write(
        `${created ? 'Starting' : 'Continuing'} job ${job.id}: ${request.sources.length} source(s), ` +
          `${estimate.exact ? '' : 'at least '}${estimate.pages + estimate.transcripts} credit(s) to spend ` +
          `(${estimate.pages} page(s), up to ${estimate.transcripts} transcript(s)).\n`,
      );
      const progress = createProgressView(stderr);
      const stopProgress = app.on('snapshot', (snapshot) => {
        if (snapshot.jobId === job.id) progress.update(snapshot);
      });
      const outcome = await app
        .runJob(job.id, run.connection.connection, {
          concurrency: request.concurrency,
          budget: request.budget,
          signal: interruption.signal,
        })
        .finally(() => {
          stopProgress();
          progress.stop();
        });
      if (outcome.status !== 'completed') throw exitForUnfinishedRun(outcome, request.budget);
    } else {
      stderr.write(`Job ${job.id} is already complete: writing its ZIP again without any request.\n`);
    }

    await app.exportJob(job.id, zipPath, { formats: request.formats });
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
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    app.close();
  }
}

/**
 * Refuses an --out that cannot be written, or whose replacement would destroy something of the
 * user's, before anything is sent or charged.
 */
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
}
