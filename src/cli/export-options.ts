import { readFileSync } from 'node:fs';
import { parseLangPreference } from '../shared/limits';
import {
  checkSources,
  describeInvalid,
  describeWarning,
  readSourceLines,
  type Source,
} from '../shared/sources';
import type { ExportFormat } from '../core/export';
import type { JobOptions } from '../core/engine';

export const ALL_FORMATS: readonly ExportFormat[] = ['txt', 'json', 'srt', 'vtt'];

/** What `scriptorium export` was asked to do, after every argument has been checked. */
export interface ExportRequest {
  sources: Source[];
  /** Sources that were listed but rejected, each with its line and reason. */
  skipped: Array<{ input: string; reason: string }>;
  /** One line per rejected source, for the user. */
  rejections: string[];
  /** One line per source read in a way the user may not have meant (e.g. a bare 11-character PL…). */
  warnings: string[];
  options: JobOptions;
  formats: ExportFormat[];
  outPath: string;
  concurrency: number;
  budget: number | undefined;
}

/** The raw option values commander hands over. */
export interface RawExportOptions {
  out?: string;
  from?: string;
  lang?: string;
  timestamps: boolean;
  metadata: boolean;
  formats?: string;
  concurrency?: string;
  maxVideos?: string;
  budget?: string;
}

/** A problem with the arguments themselves: the command exits 2 with this message. */
export class ArgumentError extends Error {}

export function parseExportRequest(sourceArgs: string[], raw: RawExportOptions): ExportRequest {
  if (!raw.out) throw new ArgumentError('Missing --out FILE.zip: say where the ZIP should be written.');
  const langs =
    raw.lang === undefined ? { ok: true as const, langs: ['orig'] } : parseLangPreference(raw.lang);
  if (!langs.ok) throw new ArgumentError(`--lang ${raw.lang}: ${langs.reason}`);
  const formats = parseFormats(raw.formats, raw.timestamps);

  const entries = sourceArgs.map((text, index) => ({ where: `argument ${index + 1}`, text }));
  if (raw.from !== undefined) entries.push(...readSourceFile(raw.from));
  if (entries.length === 0) {
    throw new ArgumentError(
      'No sources given: name videos, playlists, channels or search:<query>, or use --from FILE.',
    );
  }
  const { valid, invalid, warnings } = checkSources(entries);

  return {
    sources: valid.map((entry) => entry.source),
    skipped: invalid.map((entry) => ({ input: entry.input, reason: `${entry.where}: ${entry.reason}` })),
    rejections: invalid.map(describeInvalid),
    warnings: warnings.map(describeWarning),
    options: {
      langs: langs.langs,
      includeTimestamp: raw.timestamps,
      sendMetadata: raw.metadata,
      ...(raw.maxVideos !== undefined && { maxVideos: parseWholeNumber('--max-videos', raw.maxVideos, 1) }),
    },
    formats,
    outPath: raw.out,
    concurrency:
      raw.concurrency === undefined ? 4 : parseWholeNumber('--concurrency', raw.concurrency, 1, 64),
    budget: raw.budget === undefined ? undefined : parseWholeNumber('--budget', raw.budget, 0),
  };
}

function readSourceFile(path: string): Array<{ where: string; text: string }> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'it cannot be read';
    throw new ArgumentError(`--from ${path}: ${reason}.`);
  }
  return readSourceLines(text).map(({ line, text }) => ({ where: `line ${line}`, text }));
}

function parseFormats(value: string | undefined, timestamps: boolean): ExportFormat[] {
  if (value === undefined) return timestamps ? [...ALL_FORMATS] : ['txt', 'json'];
  const requested = value.split(',').map((format) => format.trim().toLowerCase());
  const unknown = requested.filter((format) => !ALL_FORMATS.includes(format as ExportFormat));
  if (unknown.length > 0 || requested.length === 0) {
    throw new ArgumentError(
      `--formats ${value}: choose among ${ALL_FORMATS.join(', ')}, separated by commas.`,
    );
  }
  const formats = ALL_FORMATS.filter((format) => requested.includes(format));
  if (!timestamps && formats.some((format) => format === 'srt' || format === 'vtt')) {
    throw new ArgumentError(
      '--formats srt and vtt need timestamps: drop --no-timestamps or ask for txt,json only.',
    );
  }
  return formats;
}

function parseWholeNumber(option: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const number = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    throw new ArgumentError(`${option} ${value}: expected a whole number ${range}.`);
  }
  return number;
}
