import { closeSync, constants as fsConstants, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { constants as bufferConstants } from 'node:buffer';
import { parseLangPreference } from '../shared/limits';
import { checkSources, describeInvalid, readSourceLines, type Source } from '../shared/sources';
import type { ExportFormat } from '../core/export';
import type { JobOptions } from '../core/engine';

export const ALL_FORMATS: readonly ExportFormat[] = ['txt', 'json', 'srt', 'vtt'];

/** Rejected sources listed one by one; a --from file may reject thousands, which nobody reads. */
const REJECTIONS_LISTED = 20;

/** What `scriptorium export` was asked to do, after every argument has been checked. */
export interface ExportRequest {
  sources: Source[];
  /** Sources that were listed but rejected, each with its line and reason. */
  skipped: Array<{ input: string; reason: string }>;
  /**
   * What the user reads about the rejected sources: a line for each of the first few, then how many
   * more there are (the manifest's skipped_sources lists them all).
   */
  rejections: string[];
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

  const fromArguments = sourceArgs.map((text, index) => ({ where: `argument ${index + 1}`, text }));
  // concat, not push(...lines): spreading a file's lines as arguments overflows the stack past ~100,000.
  const entries = raw.from === undefined ? fromArguments : fromArguments.concat(readSourceFile(raw.from));
  if (entries.length === 0) {
    throw new ArgumentError(
      'No sources given: name videos, playlists, channels or search:<query>, or use --from FILE.',
    );
  }
  const { valid, invalid } = checkSources(entries);

  return {
    sources: valid.map((entry) => entry.source),
    skipped: invalid.map((entry) => ({ input: entry.input, reason: `${entry.where}: ${entry.reason}` })),
    rejections: listRejections(invalid),
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
  return readSourceLines(readSourceText(path)).map(({ line, text }) => ({ where: `line ${line}`, text }));
}

/** The text of a --from file, which must be a regular file (or a link to one) of UTF-8 text. */
function readSourceText(path: string): string {
  const bytes = readRegularFile(path);
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    throw new ArgumentError(
      `--from ${path}: it is not a text file (byte ${nul + 1} is a NUL byte). Give a UTF-8 text file with one source per line.`,
    );
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ArgumentError(
      `--from ${path}: it is not UTF-8 text (a binary file, or text saved in another encoding). Save it as UTF-8 text with one source per line.`,
    );
  }
}

/** The bytes of the file at `path`, refusing, without waiting on them, folders, pipes, sockets and devices. */
function readRegularFile(path: string): Buffer {
  let fd: number;
  try {
    refuseNonFile(path, statSync(path));
    // Non-blocking: should a named pipe take the file's place meanwhile, opening it still returns at once.
    fd = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (error) {
    throw error instanceof ArgumentError ? error : unreadable(path, error);
  }
  try {
    const stats = fstatSync(fd);
    refuseNonFile(path, stats);
    // Larger, its text could not be held as one string.
    if (stats.size > bufferConstants.MAX_STRING_LENGTH) {
      throw new ArgumentError(
        `--from ${path}: it is too large to read (${Math.round(stats.size / 2 ** 20)} MiB). Split it into smaller lists and export each one.`,
      );
    }
    return readFileSync(fd);
  } catch (error) {
    throw error instanceof ArgumentError ? error : unreadable(path, error);
  } finally {
    closeSync(fd);
  }
}

function refuseNonFile(path: string, stats: Stats): void {
  if (stats.isFile()) return;
  throw new ArgumentError(
    `--from ${path}: it is ${kindOfNonFile(stats)}, not a file. Give a text file with one source per line.`,
  );
}

function kindOfNonFile(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function unreadable(path: string, error: unknown): ArgumentError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code === 'ENOENT' ? 'no such file' : `it cannot be read (${code ?? String(error)})`;
  return new ArgumentError(`--from ${path}: ${reason}.`);
}

/** One line for each of the first rejected sources, then how many more there are. */
function listRejections(invalid: Array<{ where: string; input: string; reason: string }>): string[] {
  const listed = invalid.slice(0, REJECTIONS_LISTED).map(describeInvalid);
  const more = invalid.length - listed.length;
  return more > 0 ? [...listed, `... and ${more} more (the ZIP's manifest.json lists them all)`] : listed;
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
