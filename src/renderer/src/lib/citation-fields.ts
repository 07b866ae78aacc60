import { AuthorLineSchema, LicenseSchema, type CitationInput } from '../../../shared/citation';
import type { JobView, Settings } from '../../../shared/contract';

type CorpusDefaults = Settings['corpus'];

/**
 * Who made a corpus and under what terms, as the Export dialog and Settings show them: authors one
 * a line ("Given Family" or "Family, Given", then an ORCID iD if any), the license an SPDX id.
 */
export interface CitationFields {
  title: string;
  description: string;
  authors: string;
  license: string;
}

export type CitationProblems = Partial<Record<keyof CitationFields, string>>;

/** The fields an export starts from: the job's last citation, else the corpus defaults of Settings. */
export function citationFieldsOf(
  citation: JobView['citation'],
  defaults: CorpusDefaults | null,
): CitationFields {
  if (citation !== null) {
    return {
      title: citation.title ?? '',
      description: citation.description ?? '',
      authors: citation.authors.join('\n'),
      license: citation.license ?? '',
    };
  }
  return {
    title: '',
    description: '',
    authors: defaults?.authors.join('\n') ?? '',
    license: defaults?.license ?? '',
  };
}

/** The non-empty lines of the Authors field. */
export function authorLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Why the Authors field does not parse (naming the line), or undefined when it does. */
export function authorsProblem(text: string): string | undefined {
  const lines = authorLines(text);
  for (const [index, line] of lines.entries()) {
    const parsed = AuthorLineSchema.safeParse(line);
    if (!parsed.success) {
      const reason = parsed.error.issues[0]?.message ?? 'not an author';
      return lines.length === 1 ? `${reason}.` : `Line ${index + 1}: ${reason}.`;
    }
  }
  if (lines.length > 100) return 'At most 100 authors.';
  return undefined;
}

/** Why the License field does not parse, or undefined when it is empty or an SPDX id. */
export function licenseProblem(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  const parsed = LicenseSchema.safeParse(text);
  return parsed.success ? undefined : `${parsed.error.issues[0]?.message ?? 'not an SPDX license id'}.`;
}

/**
 * The citation to send with an export, checked here so that a mistake is shown before anything runs.
 * The fields show the whole citation, so an empty one clears its part (null; no authors: []).
 */
export function readCitationFields(
  fields: CitationFields,
): { ok: true; value: CitationInput } | { ok: false; problems: CitationProblems } {
  const problems: CitationProblems = {};
  const title = fields.title.trim();
  const description = fields.description.trim();
  if (/\p{Cc}/u.test(title)) problems.title = 'The title is one line, without control characters.';
  else if (title.length > 300) problems.title = 'The title has at most 300 characters.';
  if (description.length > 10_000) problems.description = 'The description has at most 10,000 characters.';
  const authors = authorsProblem(fields.authors);
  if (authors !== undefined) problems.authors = authors;
  const license = licenseProblem(fields.license);
  if (license !== undefined) problems.license = license;
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      authors: authorLines(fields.authors),
      title: title === '' ? null : title,
      description: description === '' ? null : description,
      license: fields.license.trim() === '' ? null : fields.license.trim(),
    },
  };
}
