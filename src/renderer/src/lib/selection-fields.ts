import { FILTER_LIMITS, parseDay, parsePositions, type Filters } from '../../../shared/filters';
import { sentence } from './format';

/**
 * New job's Selection group as the user typed it: lengths in minutes and every value as text, so
 * that a half-typed one stays as it is. The job's filters (src/shared/filters.ts) are made from it.
 */
export interface SelectionFields {
  matchTitle: string;
  rejectTitle: string;
  /** Minutes, '' for no limit. */
  shortestMinutes: string;
  longestMinutes: string;
  /** YYYY-MM-DD as typed, '' for none. */
  publishedAfter: string;
  publishedBefore: string;
  positions: string;
  skipUncaptioned: boolean;
}

export type SelectionProblems = Partial<Record<keyof SelectionFields, string>>;

/** Every video of every list. */
export const NO_SELECTION: SelectionFields = {
  matchTitle: '',
  rejectTitle: '',
  shortestMinutes: '',
  longestMinutes: '',
  publishedAfter: '',
  publishedBefore: '',
  positions: '',
  skipUncaptioned: false,
};

/** Whole seconds in `text` minutes ("1.5" is 90); null when empty, undefined when not a number of minutes. */
export function minutesToSeconds(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
  const seconds = Math.round(Number(trimmed) * 60);
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}

/**
 * The filters the fields ask for (undefined when they ask for none), or the problem with each field
 * that cannot be used. The same rules as checkFilters, said per field and in the page's words.
 */
export function readSelectionFields(
  fields: SelectionFields,
): { ok: true; filters: Filters | undefined } | { ok: false; problems: SelectionProblems } {
  const problems: SelectionProblems = {};
  const filters: Filters = {};

  for (const key of ['matchTitle', 'rejectTitle'] as const) {
    const pattern = fields[key].trim();
    if (pattern === '') continue;
    const problem = patternProblem(pattern);
    if (problem === null) filters[key] = pattern;
    else problems[key] = problem;
  }

  const shortest = minutesToSeconds(fields.shortestMinutes);
  const longest = minutesToSeconds(fields.longestMinutes);
  const notMinutes = 'Enter a number of minutes, such as 10 or 1.5, or leave it empty for no limit.';
  if (shortest === undefined) problems.shortestMinutes = notMinutes;
  else if (shortest !== null) filters.minDuration = shortest;
  if (longest === undefined) problems.longestMinutes = notMinutes;
  else if (longest !== null) filters.maxDuration = longest;
  if (typeof shortest === 'number' && typeof longest === 'number' && shortest > longest)
    problems.longestMinutes = 'This is less than the shortest: no video would be kept.';

  for (const key of ['publishedAfter', 'publishedBefore'] as const) {
    const day = fields[key].trim();
    if (day === '') continue;
    if (parseDay(day) === undefined) problems[key] = 'Enter a date such as 2024-05-31.';
    else filters[key] = day;
  }
  if (
    filters.publishedAfter !== undefined &&
    filters.publishedBefore !== undefined &&
    filters.publishedAfter > filters.publishedBefore
  )
    problems.publishedBefore = 'This is before the “Published after” day: no video would be kept.';

  const positions = fields.positions.trim();
  if (positions !== '') {
    const parsed = parsePositions(positions);
    if (positions.length > FILTER_LIMITS.positions)
      problems.positions = tooLong(positions, FILTER_LIMITS.positions);
    else if (parsed.ok) filters.items = positions;
    else problems.positions = sentence(parsed.reason);
  }

  if (fields.skipUncaptioned) filters.skipUncaptioned = true;

  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return { ok: true, filters: Object.keys(filters).length > 0 ? filters : undefined };
}

/** "At most 500 characters: this has 600." */
function tooLong(text: string, max: number): string {
  return `At most ${max.toLocaleString('en')} characters: this has ${text.length.toLocaleString('en')}.`;
}

/** Why a title pattern cannot be used, or null when it can (compiled as the app compiles it). */
function patternProblem(pattern: string): string | null {
  if (pattern.length > FILTER_LIMITS.titlePattern) return tooLong(pattern, FILTER_LIMITS.titlePattern);
  try {
    new RegExp(pattern, 'iu');
    return null;
  } catch (error) {
    // "Invalid regular expression: /(/iu: Unterminated group": the last part is the reason.
    const reason = error instanceof Error ? (error.message.split(': ').at(-1) ?? error.message) : '';
    return `Not a regular expression${reason ? ` (${reason.toLowerCase()})` : ''}: for example lecture|seminar.`;
  }
}
