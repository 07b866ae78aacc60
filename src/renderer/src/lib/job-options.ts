import type { JobDefaults } from '../../../shared/contract';
import { MAX_LANGUAGE_LIST_CHARS } from '../../../shared/limits';
import {
  CHUNK_SECONDS,
  CONCURRENCY,
  DEFAULT_CHUNKING,
  EXPORT_FORMATS,
  type ExportFormat,
  ORIGINAL_TRACK,
} from '../../../shared/vocabulary';

/**
 * The job options as a form holds them: numbers as the text the user typed, so that a half-typed
 * value is kept as it is and refused with a reason only when it is used.
 */
export interface OptionFields {
  languages: string;
  includeTimestamp: boolean;
  sendMetadata: boolean;
  formats: ExportFormat[];
  /** '' means every video of each list. */
  maxVideos: string;
  /** '' means no limit. */
  budget: string;
  concurrency: string;
  /** Seconds; used only while the chunks format is chosen. */
  chunkSeconds: string;
  chunkOverlap: string;
}

export type OptionProblems = Partial<Record<keyof OptionFields, string>>;

export function fieldsOf(defaults: JobDefaults): OptionFields {
  return {
    languages: defaults.languages,
    includeTimestamp: defaults.includeTimestamp,
    sendMetadata: defaults.sendMetadata,
    formats: [...defaults.formats],
    maxVideos: defaults.maxVideos === null ? '' : String(defaults.maxVideos),
    budget: defaults.budget === null ? '' : String(defaults.budget),
    concurrency: String(defaults.concurrency),
    chunkSeconds: String((defaults.chunking ?? DEFAULT_CHUNKING).targetSeconds),
    chunkOverlap: String((defaults.chunking ?? DEFAULT_CHUNKING).overlapSeconds),
  };
}

/** The fields as job defaults, or what is wrong with each field that is not valid. */
export function readOptionFields(
  fields: OptionFields,
): { ok: true; value: JobDefaults } | { ok: false; problems: OptionProblems } {
  const problems: OptionProblems = {};
  const maxVideos = wholeNumber(fields.maxVideos, 1);
  if (maxVideos === undefined)
    problems.maxVideos = 'Enter a whole number of 1 or more, or leave it empty for every video.';
  const budget = wholeNumber(fields.budget, 0);
  if (budget === undefined)
    problems.budget = 'Enter a whole number of credits, or leave it empty for no limit.';
  const concurrency = wholeNumber(fields.concurrency, CONCURRENCY.min, CONCURRENCY.max);
  if (concurrency === undefined || concurrency === null)
    problems.concurrency = `Enter a whole number from ${CONCURRENCY.min} to ${CONCURRENCY.max}.`;
  const languages = fields.languages.trim();
  if (languages === '')
    problems.languages = `Enter at least one language code, such as en, or ${ORIGINAL_TRACK} for the original track.`;
  else if (languages.length > MAX_LANGUAGE_LIST_CHARS)
    problems.languages = `At most ${MAX_LANGUAGE_LIST_CHARS} characters: this has ${languages.length}.`;
  if (fields.formats.length === 0) problems.formats = 'Choose at least one file format.';
  const chunking = fields.formats.includes('chunks') ? readChunking(fields, problems) : undefined;
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      languages,
      includeTimestamp: fields.includeTimestamp,
      sendMetadata: fields.sendMetadata,
      formats: EXPORT_FORMATS.filter((format) => fields.formats.includes(format)),
      maxVideos: maxVideos ?? null,
      budget: budget ?? null,
      concurrency: concurrency ?? CONCURRENCY.min,
      ...(chunking !== undefined && { chunking }),
    },
  };
}

/** The chunks' length and overlap, or undefined after noting what is wrong in `problems`. */
function readChunking(
  fields: OptionFields,
  problems: OptionProblems,
): { targetSeconds: number; overlapSeconds: number } | undefined {
  // An empty field is a missing number here: both are needed.
  const targetSeconds = wholeNumber(fields.chunkSeconds, CHUNK_SECONDS.min, CHUNK_SECONDS.max) ?? undefined;
  const overlapSeconds = wholeNumber(fields.chunkOverlap, 0, CHUNK_SECONDS.max) ?? undefined;
  if (targetSeconds === undefined)
    problems.chunkSeconds = `Enter a whole number of seconds from ${CHUNK_SECONDS.min} to ${CHUNK_SECONDS.max}.`;
  if (overlapSeconds === undefined) problems.chunkOverlap = 'Enter a whole number of seconds, 0 for none.';
  else if (targetSeconds !== undefined && overlapSeconds >= targetSeconds)
    problems.chunkOverlap = 'The overlap must be shorter than the chunk length.';
  if (targetSeconds === undefined || overlapSeconds === undefined || overlapSeconds >= targetSeconds)
    return undefined;
  return { targetSeconds, overlapSeconds };
}

/** null for an empty field, undefined for a value that is not a whole number within the bounds. */
export function wholeNumber(
  text: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) && value >= min && value <= max ? value : undefined;
}
