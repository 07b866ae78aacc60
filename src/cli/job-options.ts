import type { Command } from 'commander';
import { EXPORT_FORMATS, type ExportFormat, type JobDraft, type SourceEntry } from '../shared/contract';
import { parseLangPreference } from '../shared/limits';
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
}

/** The options that say what a job is and how it runs, shared by `export` and `preview`. */
export function addJobOptions(command: Command): Command {
  return command
    .argument(
      '[sources...]',
      'video or playlist IDs or URLs, channel @handles, URLs or UC ids, search:<query>',
    )
    .option('--from <file>', 'read sources from a file, one per line (blank lines and # comments skipped)')
    .option(
      '--lang <codes>',
      'language preference, tried in order, e.g. es,en,orig (orig: the original track)',
    )
    .option('--no-timestamps', 'do not ask for segment times (only txt and json can then be written)')
    .option('--no-metadata', 'do not ask for video metadata')
    .option('--formats <list>', 'formats to write: txt,json,srt,vtt (default all four)')
    .option('--concurrency <n>', 'transcript requests in flight at once (default 4)')
    .option('--max-videos <n>', 'at most this many videos from each playlist, channel or search')
    .option('--budget <n>', 'credits this job may spend in total')
    .option('--base-url <url>', 'the service address (or TRANSCRIPT_API_BASE_URL)')
    .option('--data-dir <dir>', 'the folder holding the database (or SCRIPTORIUM_DATA_DIR)');
}

export function parseJobRequest(sourceArgs: string[], raw: RawJobOptions): JobRequest {
  const langs =
    raw.lang === undefined ? { ok: true as const, langs: ['orig'] } : parseLangPreference(raw.lang);
  if (!langs.ok) throw new ArgumentError(`--lang ${raw.lang}: ${langs.reason}`);
  const formats = parseFormats(raw.formats, raw.timestamps);
  const sources: SourceEntry[] = sourceArgs.map((text, index) => ({ where: `argument ${index + 1}`, text }));
  // concat, not push(...lines): a spread of 150,000 lines overflows the call stack.
  const fromFile = raw.from === undefined ? [] : readSourceFile(raw.from);
  const all = sources.concat(fromFile);
  if (all.length === 0) {
    throw new ArgumentError(
      'No sources given: name videos, playlists, channels or search:<query>, or use --from FILE.',
    );
  }
  return {
    sources: all,
    draft: {
      languages: langs.langs.join(','),
      includeTimestamp: raw.timestamps,
      sendMetadata: raw.metadata,
      maxVideos: raw.maxVideos === undefined ? null : parseWholeNumber('--max-videos', raw.maxVideos, 1),
      budget: raw.budget === undefined ? null : parseWholeNumber('--budget', raw.budget, 0),
      concurrency:
        raw.concurrency === undefined ? 4 : parseWholeNumber('--concurrency', raw.concurrency, 1, 64),
      formats,
    },
  };
}

function parseFormats(value: string | undefined, timestamps: boolean): ExportFormat[] {
  if (value === undefined) return timestamps ? [...EXPORT_FORMATS] : ['txt', 'json'];
  const requested = value.split(',').map((format) => format.trim().toLowerCase());
  const known: ReadonlySet<string> = new Set(EXPORT_FORMATS);
  const unknown = requested.filter((format) => !known.has(format));
  if (unknown.length > 0 || requested.length === 0) {
    throw new ArgumentError(
      `--formats ${value}: choose among ${EXPORT_FORMATS.join(', ')}, separated by commas.`,
    );
  }
  const formats = EXPORT_FORMATS.filter((format) => requested.includes(format));
  if (!timestamps && formats.some((format) => format === 'srt' || format === 'vtt')) {
    throw new ArgumentError(
      '--formats srt and vtt need timestamps: drop --no-timestamps or ask for txt,json only.',
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
