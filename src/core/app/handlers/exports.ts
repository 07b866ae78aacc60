import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { citationChanges, mergeCitation, toCitation, type Citation } from '../../../shared/citation';
import type { CommandInput, CommandOutput, Settings } from '../../../shared/contract';
import { corpusFileName } from '../../../shared/job-name';
import { APP_NAME, APP_VERSION } from '../../../shared/version';
import { writeCorpus } from '../../export';
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
 * The exportJob command: writes the job's ZIP to `destination`, or for download when it is null.
 * An automatic sync exports through it too (keep-current.ts).
 */
export async function exportJob(
  ctx: AppContext,
  { jobId, formats, destination, citation: given }: CommandInput<'exportJob'>,
): Promise<CommandOutput<'exportJob'>> {
  const { engine, db } = ctx;
  const before = jobSummary(ctx, jobId);
  // The job's last citation, else the defaults of Settings; the parts given replace theirs, and the
  // result is kept with the job for its later exports.
  const kept = before.settings.citation ?? citationFromSettings(ctx.settings.read());
  if (given !== undefined) {
    engine.configure(jobId, { citation: mergeCitation(kept, given) });
    ctx.events.jobTouched(jobId);
  }
  const job = given === undefined ? before : jobSummary(ctx, jobId);
  const citation = job.settings.citation ?? kept;
  const exportId = randomUUID();
  const fileName = corpusFileName(job.id, citation?.title ?? jobTitle(job));
  const path = destination ?? join(exportsFolder(ctx.dataDir), `${exportId}.zip`);
  const controller = new AbortController();
  const running = ctx.exporting.get(jobId) ?? new Set();
  ctx.exporting.set(jobId, running.add(controller));
  try {
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
    const result = await writeCorpus(input, path, {
      signal: controller.signal,
      onProgress: ({ done, total }) => ctx.events.emit('exportProgress', { exportId, jobId, done, total }),
    });
    if (destination === null) ctx.downloads.set(exportId, { path: result.path, fileName });
    else engine.configure(jobId, { exportPath: result.path });
    return {
      exportId,
      jobId,
      fileName,
      path: destination === null ? null : result.path,
      bytes: result.bytes,
      jobFinished: input.manifest.job_finished,
      citationChanges: citationChanges(kept, citation),
      copied: result.copied,
      written: result.written,
    };
  } finally {
    running.delete(controller);
  }
}

/** The authors and license Settings gives a job never exported with its own; undefined when none. */
function citationFromSettings(settings: Settings): Citation | undefined {
  const { authors, license } = settings.corpus;
  if (authors.length === 0 && license === null) return undefined;
  return toCitation({ authors, ...(license !== null && { license }) });
}
