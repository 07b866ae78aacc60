import { JobNameSchema, type JobDraft } from '../../../shared/contract';
import { MAX_SOURCES_PER_JOB } from '../../../shared/limits';
import { readOptionFields, type OptionFields, type OptionProblems } from '../lib/job-options';
import { readSelectionFields, type SelectionFields } from '../lib/selection-fields';
import { sourceEntries } from '../lib/source-text';

/** A paste too long for one job, said with the limit. */
export function tooManySources(count: number): string {
  return `There are ${count.toLocaleString('en')} sources: a job takes at most ${MAX_SOURCES_PER_JOB.toLocaleString('en')}. Split them into several jobs.`;
}

/** The parts of the New job form a draft is read from. */
export interface DraftForm {
  text: string;
  name: string;
  fields: OptionFields;
  selection: SelectionFields;
}

export type DraftReading =
  | { ok: true; draft: JobDraft }
  /** What keeps the form from being sent, and the option fields to mark. */
  | { ok: false; formProblem: string; fieldProblems: OptionProblems };

/** The job the form describes, or the first thing that is missing or wrong in it. */
export function readDraft({ text, name, fields, selection }: DraftForm): DraftReading {
  const sources = sourceEntries(text);
  const options = readOptionFields(fields);
  if (!options.ok) {
    return {
      ok: false,
      fieldProblems: options.problems,
      formProblem: 'Some options are not valid: see the fields marked below.',
    };
  }
  const refused = (formProblem: string): DraftReading => ({ ok: false, fieldProblems: {}, formProblem });
  // The Selection group shows its problems as they are typed.
  const filters = readSelectionFields(selection);
  if (!filters.ok) return refused('Some of the Selection is not valid: see the fields marked below.');
  if (sources.length === 0) {
    return refused(
      'Paste at least one source first: a video, playlist or channel address, an @handle, or search: followed by words.',
    );
  }
  if (sources.length > MAX_SOURCES_PER_JOB) return refused(tooManySources(sources.length));
  const named = name.trim() === '' ? undefined : JobNameSchema.safeParse(name);
  if (named !== undefined && !named.success)
    return refused(`Job name: ${named.error.issues[0]?.message ?? 'not a name'}.`);
  return {
    ok: true,
    draft: {
      sources,
      ...options.value,
      ...(filters.filters !== undefined && { filters: filters.filters }),
      ...(named !== undefined && { name: named.data }),
    },
  };
}
