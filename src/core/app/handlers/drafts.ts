import type { JobDraft, SourceLine } from '../../../shared/contract';
import { checkFilters } from '../../../shared/filters';
import { parseLangPreference } from '../../../shared/limits';
import { checkSources } from '../../../shared/sources';
import type { JobSpec, JobSummary } from '../../engine';
import { AppError } from '../errors';
import { toSourceLines } from '../views';
import type { AppContext } from './context';

/** The job a draft describes; throws AppError when nothing in it can run. */
export function specOf(draft: JobDraft): { spec: JobSpec; rejected: SourceLine[] } {
  const langs = parseLangPreference(draft.languages);
  if (!langs.ok) throw new AppError('invalid_input', `Languages "${draft.languages}": ${langs.reason}.`);
  const filtersProblem = draft.filters === undefined ? null : checkFilters(draft.filters);
  if (filtersProblem !== null) throw new AppError('invalid_input', `${filtersProblem}.`);
  const checked = checkSources(draft.sources);
  const rejected = toSourceLines(draft.sources, checked).filter((line) => line.kind === null);
  if (checked.valid.length === 0) {
    throw new AppError(
      'invalid_input',
      `No valid source remains (${rejected.length} refused), so nothing was sent. Fix the sources and try again.`,
    );
  }
  return {
    spec: {
      sources: checked.valid.map((entry) => entry.source),
      skipped: checked.invalid.map((entry) => ({
        input: entry.input,
        reason: `${entry.where}: ${entry.reason}`,
      })),
      options: {
        langs: langs.langs,
        includeTimestamp: draft.includeTimestamp,
        sendMetadata: draft.sendMetadata,
        ...(draft.maxVideos !== null && { maxVideos: draft.maxVideos }),
        ...(draft.filters !== undefined && { filters: draft.filters }),
      },
    },
    rejected,
  };
}

/** Finds or creates the draft's job with its run settings; returns it with the lines refused. */
export function jobFor(
  ctx: AppContext,
  draft: JobDraft,
): { job: JobSummary; created: boolean; rejected: SourceLine[] } {
  const { spec, rejected } = specOf(draft);
  const { job, created } = ctx.engine.findOrCreateJob(spec, {
    concurrency: draft.concurrency,
    formats: draft.formats,
    budget: draft.budget,
    ...(draft.chunking !== undefined && { chunking: draft.chunking }),
    ...(draft.name !== undefined && { name: draft.name }),
  });
  ctx.events.jobTouched(job.id);
  return { job, created, rejected };
}
