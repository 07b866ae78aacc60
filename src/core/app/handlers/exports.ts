import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { citationChanges, mergeCitation, toCitation, type Citation } from '../../../shared/citation';
import type { CommandInput, CommandOutput, Settings } from '../../../shared/contract';
import { corpusFileName } from '../../../shared/job-name';
import { APP_NAME, APP_VERSION } from '../../../shared/version';
import { writeCorpus, type ExportInput } from '../../export';
import type { JobSummary } from '../../engine';
import { AppError } from '../errors';
import { releasedCorpusInput } from '../released-corpus';
import { changesOf } from '../../store/queries/changes';
import { exportRowsOf, membershipRowsOf } from '../../store/queries/export-rows';
import { jobHistory, servicesOfJob } from '../../store/queries/job-history';
import { corpusInput } from '../corpus';
import { exportsFolder } from '../exports-folder';
import { jobTitle } from '../views';
import type { AppContext, DomainHandlers } from './context';
import { jobSummary } from './job-views';

/** Writing a job's corpus (shared/contract/exports.ts). */
export function exportHandlers(ctx: AppContext): DomainHandlers<'exportJob'> {
  return { exportJob: async (input) => exportJob(ctx, input) };
}

/**
 * The exportJob command: writes the job's ZIP to `destination`, or for download when it is null; with
 * `version`, that released version again, byte for byte (released-corpus.ts). An automatic sync
 * exports through it too (keep-current.ts).
 */
export async function exportJob(
  ctx: AppContext,
  request: CommandInput<'exportJob'>,
): Promise<CommandOutput<'exportJob'>> {
  const { jobId, destination } = request;
  const exportId = randomUUID();
  const path = destination ?? join(exportsFolder(ctx.dataDir), `${exportId}.zip`);
  const { job, input, citationChanges } =
    request.version === undefined ? latestCorpus(ctx, request) : releasedCorpus(ctx, request, path);
  const fileName = corpusFileName(job.id, input.citation?.title ?? jobTitle(job));
  const controller = new AbortController();
  const running = ctx.exporting.get(jobId) ?? new Set();
  ctx.exporting.set(jobId, running.add(controller));
  try {
    const result = await writeCorpus(input, path, {
      signal: controller.signal,
      onProgress: ({ done, total }) => ctx.events.emit('exportProgress', { exportId, jobId, done, total }),
    });
    if (destination === null) ctx.downloads.set(exportId, { path: result.path, fileName });
    // Where the job's corpus is kept current; an earlier version written again is not that.
    else if (request.version === undefined) ctx.engine.configure(jobId, { exportPath: result.path });
    return {
      exportId,
      jobId,
      fileName,
      path: destination === null ? null : result.path,
      bytes: result.bytes,
      jobFinished: input.manifest.job_finished,
      copied: result.copied,
      written: result.written,
      citationChanges,
    };
  } finally {
    running.delete(controller);
  }
}

interface PreparedExport {
  job: JobSummary;
  input: ExportInput;
  citationChanges: string[];
}

/**
 * The corpus as the job is now: the version its contents make. The job's last citation, else the
 * defaults of Settings, with the parts given replacing theirs, is kept with the job for its later
 * exports.
 */
function latestCorpus(
  ctx: AppContext,
  { jobId, formats, citation: given }: CommandInput<'exportJob'>,
): PreparedExport {
  const { engine, db } = ctx;
  const before = jobSummary(ctx, jobId);
  const kept = before.settings.citation ?? citationFromSettings(ctx.settings.read());
  if (given !== undefined) {
    engine.configure(jobId, { citation: mergeCitation(kept, given) });
    ctx.events.jobTouched(jobId);
  }
  const job = given === undefined ? before : jobSummary(ctx, jobId);
  const citation = job.settings.citation ?? kept;
  const input = corpusInput(
    job,
    () => exportRowsOf(db, jobId),
    { formats, ...(citation !== undefined && { citation }) },
    { name: APP_NAME, version: APP_VERSION },
    {
      ...jobHistory(db, jobId),
      services: servicesOfJob(db, jobId),
      memberships: () => membershipRowsOf(db, jobId),
      changes: (through) => changesOf(db, jobId, through),
      release: (release) => engine.releaseCorpus(jobId, release),
    },
  );
  return { job, input, citationChanges: citationChanges(kept, citation) };
}

/** A released version, as it was released: its own citation and formats, whatever is given now. */
function releasedCorpus(
  ctx: AppContext,
  { jobId, version, citation }: CommandInput<'exportJob'>,
  path: string,
): PreparedExport {
  if (citation !== undefined) {
    throw new AppError(
      'invalid_input',
      `Version ${version} is written with the citation it was released with: give no citation with a version. Nothing was written.`,
    );
  }
  const job = jobSummary(ctx, jobId);
  return { job, input: releasedCorpusInput(ctx.db, job, version ?? 0, path), citationChanges: [] };
}

/** The authors and license Settings gives a job never exported with its own; undefined when none. */
function citationFromSettings(settings: Settings): Citation | undefined {
  const { authors, license } = settings.corpus;
  if (authors.length === 0 && license === null) return undefined;
  return toCitation({ authors, ...(license !== null && { license }) });
}
