import type { Command } from 'commander';
import { JobNameSchema, type JobDetail, type JobDraft, type SourceEntry } from '../shared/contract';
import { checkFilters, type Filters } from '../shared/filters';
import { MAX_LANGUAGE_LIST_CHARS, MAX_SOURCES_PER_JOB, parseLangPreference, tooLong } from '../shared/limits';
import { sourceEntry } from '../shared/source-files';
import {
  CHUNK_SECONDS,
  CONCURRENCY,
  DEFAULT_CHUNKING,
  DEFAULT_LANGUAGES,
  defaultFormats,
  EXPORT_FORMATS,
  FILE_FORMATS,
  needsTimestamps,
  TIMED_FORMATS,
  type ExportFormat,
} from '../shared/vocabulary';
import { ArgumentError } from './argument-error';
import { readSourceFile } from './source-file';

export { ArgumentError };

/** What `export` and `preview` were asked to do, after every argument has been checked. */
export interface JobRequest {
  /** Every source given, as typed, with where it came from ("argument 2", "line 7"). */
  sources: SourceEntry[];
  draft: Omit<JobDraft, 'sources'>;
}

/** The raw option values commander hands over. */
export interface RawJobOptions {
  from?: string;
  lang?: string;
  timestamps: boolean;
  metadata: boolean;
  formats?: string;
  concurrency?: string;
  maxVideos?: string;
  budget?: string;
  matchTitle?: string;
  rejectTitle?: string;
  minDuration?: string;
  maxDuration?: string;
  publishedAfter?: string;
  publishedBefore?: string;
  publishedOverlap?: boolean;
  items?: string;
  skipUncaptioned?: boolean;
  chunkSeconds?: string;
  chunkOverlap?: string;
  name?: string;
}

/** The options that say what a job is and how it runs, shared by `export` and `preview`. */
export function addJobOptions(command: Command): Command {
  return command
    .argument(
      '[sources...]',
      'video or playlist IDs or URLs, channel @handles, URLs or UC ids, search:<query>',
    )
    .option(
      '--from <file>',
      "read sources from a file, one per line (blank lines and # comments skipped), or a .csv file's first column",
    )
    .option(
      '--lang <codes>',
      'language preference, tried in order, e.g. es,en,orig (orig: the original track)',
    )
    .option('--no-timestamps', 'do not ask for segment times (only txt and json can then be written)')
    .option('--no-metadata', 'do not ask for video metadata')
    .option(
      '--formats <list>',
      `formats to write: ${FILE_FORMATS.join(',')} (default all four), and chunks (chunks.jsonl, for retrieval)`,
    )
    .option(
      '--concurrency <n>',
      `transcript requests in flight at once, ${CONCURRENCY.min} to ${CONCURRENCY.max} (default ${CONCURRENCY.default})`,
    )
    .option('--max-videos <n>', 'at most this many videos from each playlist, channel or search')
    .option('--budget <n>', 'credits this job may spend in total')
    .option('--match-title <regex>', 'only videos whose title matches (case-insensitive)')
    .option('--reject-title <regex>', 'leave out videos whose title matches (case-insensitive)')
    .option('--min-duration <seconds>', 'leave out videos shorter than this (e.g. 60 skips Shorts)')
    .option('--max-duration <seconds>', 'leave out videos longer than this')
    .option(
      '--published-after <date>',
      'only videos published on or after YYYY-MM-DD (approximate from "3 weeks ago")',
    )
    .option('--published-before <date>', 'only videos published on or before YYYY-MM-DD')
    .option(
      '--published-overlap',
      'with a date filter, also keep videos whose date, known only roughly ("3 weeks ago"), may fall in the window',
    )
    .option('--items <spec>', "positions within each list, as yt-dlp's --playlist-items: 1-50,100,-10:")
    .option('--skip-uncaptioned', 'leave out videos the listing says have no captions (saves a request each)')
    .option(
      '--chunk-seconds <n>',
      `length of the passages of the chunks format, ${CHUNK_SECONDS.min} to ${CHUNK_SECONDS.max} (default ${DEFAULT_CHUNKING.targetSeconds})`,
    )
    .option(
      '--chunk-overlap <n>',
      `seconds shared by consecutive passages of the chunks format (default ${DEFAULT_CHUNKING.overlapSeconds})`,
    )
    .option('--name <text>', 'what to call the job (not part of what makes it the same job)')
    .option('--base-url <url>', 'the service address (or TRANSCRIPT_API_BASE_URL)')
    .option('--data-dir <dir>', 'the folder holding the database (or SCRIPTORIUM_DATA_DIR)');
}

export function parseJobRequest(sourceArgs: string[], raw: RawJobOptions): JobRequest {
  const longLang = tooLong('--lang', raw.lang, MAX_LANGUAGE_LIST_CHARS);
  if (longLang !== null) throw new ArgumentError(`${longLang}.`);
  const langs =
    raw.lang === undefined ? parseLangPreference(DEFAULT_LANGUAGES) : parseLangPreference(raw.lang);
  if (!langs.ok) throw new ArgumentError(`--lang ${raw.lang}: ${langs.reason}`);
  const formats = parseFormats(raw.formats, raw.timestamps);
  const sources: SourceEntry[] = sourceArgs.map((text, index) => sourceEntry(`argument ${index + 1}`, text));
  // concat, not push(...lines): a spread of 150,000 lines overflows the call stack.
  const fromFile = raw.from === undefined ? [] : readSourceFile(raw.from);
  const all = sources.concat(fromFile);
  if (all.length === 0) {
    throw new ArgumentError(
      'No sources given: name videos, playlists, channels or search:<query>, or use --from FILE.',
    );
  }
  if (all.length > MAX_SOURCES_PER_JOB) {
    const given = raw.from === undefined ? 'arguments' : `--from ${raw.from} and the arguments`;
    throw new ArgumentError(
      `${all.length.toLocaleString('en')} sources given (${given}): a job takes at most ${MAX_SOURCES_PER_JOB.toLocaleString('en')}. Split them into several jobs.`,
    );
  }
  return {
    sources: all,
    draft: {
      languages: langs.langs.join(','),
      includeTimestamp: raw.timestamps,
      sendMetadata: raw.metadata,
      maxVideos: raw.maxVideos === undefined ? null : parseWholeNumber('--max-videos', raw.maxVideos, 1),
      // Without --budget the job keeps the budget it has (none for a new job): it caps all its runs.
      ...optionalField(
        'budget',
        raw.budget === undefined ? undefined : parseWholeNumber('--budget', raw.budget, 0),
      ),
      concurrency:
        raw.concurrency === undefined
          ? CONCURRENCY.default
          : parseWholeNumber('--concurrency', raw.concurrency, CONCURRENCY.min, CONCURRENCY.max),
      formats,
      ...optionalField('filters', parseFilters(raw)),
      ...optionalField('chunking', parseChunking(raw)),
      ...optionalField('name', parseName(raw.name)),
    },
  };
}

function parseName(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = JobNameSchema.safeParse(value);
  if (!parsed.success) throw new ArgumentError(`--name: ${parsed.error.issues[0]?.message ?? 'not a name'}.`);
  return parsed.data;
}

function optionalField<K extends string, T>(name: K, value: T | undefined): { [P in K]?: T } {
  return value === undefined ? {} : ({ [name]: value } as { [P in K]: T });
}

/** The selection filters given, checked as the contract will check them; undefined when none is. */
function parseFilters(raw: RawJobOptions): Filters | undefined {
  const seconds = (option: string, value: string | undefined) =>
    value === undefined ? undefined : parseWholeNumber(option, value, 0);
  const filters: Filters = Object.fromEntries(
    Object.entries({
      matchTitle: raw.matchTitle,
      rejectTitle: raw.rejectTitle,
      minDuration: seconds('--min-duration', raw.minDuration),
      maxDuration: seconds('--max-duration', raw.maxDuration),
      publishedAfter: raw.publishedAfter,
      publishedBefore: raw.publishedBefore,
      publishedOverlap: raw.publishedOverlap === true ? true : undefined,
      items: raw.items,
      skipUncaptioned: raw.skipUncaptioned === true ? true : undefined,
    }).filter(([, value]) => value !== undefined),
  );
  if (Object.keys(filters).length === 0) return undefined;
  const problem = checkFilters(filters);
  if (problem !== null) throw new ArgumentError(`${problem}.`);
  return filters;
}

/** Passage length and overlap of the chunks format, when either is given. */
function parseChunking(raw: RawJobOptions): JobDraft['chunking'] {
  if (raw.chunkSeconds === undefined && raw.chunkOverlap === undefined) return undefined;
  const targetSeconds =
    raw.chunkSeconds === undefined
      ? DEFAULT_CHUNKING.targetSeconds
      : parseWholeNumber('--chunk-seconds', raw.chunkSeconds, CHUNK_SECONDS.min, CHUNK_SECONDS.max);
  const overlapSeconds =
    raw.chunkOverlap === undefined
      ? DEFAULT_CHUNKING.overlapSeconds
      : parseWholeNumber('--chunk-overlap', raw.chunkOverlap, 0, CHUNK_SECONDS.max);
  if (overlapSeconds >= targetSeconds) {
    throw new ArgumentError(
      `--chunk-overlap ${overlapSeconds} must be shorter than --chunk-seconds ${targetSeconds}.`,
    );
  }
  return { targetSeconds, overlapSeconds };
}

function parseFormats(value: string | undefined, timestamps: boolean): ExportFormat[] {
  if (value === undefined) return defaultFormats(timestamps);
  const requested = value.split(',').map((format) => format.trim().toLowerCase());
  const known: ReadonlySet<string> = new Set(EXPORT_FORMATS);
  const unknown = requested.filter((format) => !known.has(format));
  if (unknown.length > 0 || requested.length === 0) {
    throw new ArgumentError(
      `--formats ${value}: choose among ${EXPORT_FORMATS.join(', ')}, separated by commas.`,
    );
  }
  const formats = EXPORT_FORMATS.filter((format) => requested.includes(format));
  if (!timestamps && formats.some(needsTimestamps)) {
    throw new ArgumentError(
      `--formats ${TIMED_FORMATS.join(', ')} need timestamps: drop --no-timestamps or ask for ${defaultFormats(false).join(',')} only.`,
    );
  }
  return formats;
}

export function parseWholeNumber(
  option: string,
  value: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const number = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    throw new ArgumentError(`${option} ${value}: expected a whole number ${range}.`);
  }
  return number;
}

/** Beyond this many sources, the continue command names a file of them rather than each one. */
export const SOURCES_ON_THE_LINE = 20;

/**
 * The `export` arguments that find this job again and continue it, the inverse of parseJobRequest:
 * its sources and every option of its identity (languages, flags, max videos, filters), and how it
 * was run and exported (formats, concurrency, chunking, budget). `out` is where its ZIP goes.
 */
export function continueArguments(detail: JobDetail, out: string): string[] {
  const { job, options } = detail;
  const { filters } = options;
  const usual: readonly ExportFormat[] = defaultFormats(options.includeTimestamp);
  const sameFormats = job.formats.length === usual.length && job.formats.every((f, i) => f === usual[i]);
  const sources =
    job.sources.length > SOURCES_ON_THE_LINE
      ? ['--from', `FILE_OF_ITS_${job.sources.length}_SOURCES`]
      : job.sources;
  const flags: Array<[string, string | number | boolean | undefined | null]> = [
    ['--lang', options.languages.join(',') === DEFAULT_LANGUAGES ? undefined : options.languages.join(',')],
    ['--no-timestamps', !options.includeTimestamp],
    ['--no-metadata', !options.sendMetadata],
    ['--max-videos', options.maxVideos],
    ['--match-title', filters.matchTitle],
    ['--reject-title', filters.rejectTitle],
    ['--min-duration', filters.minDuration],
    ['--max-duration', filters.maxDuration],
    ['--published-after', filters.publishedAfter],
    ['--published-before', filters.publishedBefore],
    ['--published-overlap', filters.publishedOverlap === true],
    ['--items', filters.items],
    ['--skip-uncaptioned', filters.skipUncaptioned === true],
    ['--formats', sameFormats ? undefined : job.formats.join(',')],
    ['--concurrency', job.concurrency === CONCURRENCY.default ? undefined : job.concurrency],
    ['--budget', job.budget],
    ...(job.formats.includes('chunks')
      ? ([
          ['--chunk-seconds', options.chunking.targetSeconds],
          ['--chunk-overlap', options.chunking.overlapSeconds],
        ] as Array<[string, number]>)
      : []),
    ['--out', out],
  ];
  const given = flags.flatMap(([flag, value]): string[] => {
    if (value === undefined || value === null || value === false) return [];
    return value === true ? [flag] : [flag, String(value)];
  });
  return ['export', ...sources, ...given];
}
