import { closeSync, constants as fsConstants, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { constants as bufferConstants } from 'node:buffer';
import type { SourceEntry } from '../shared/contract';
import { sourceEntry, sourceLinesOfFile } from '../shared/source-files';
import { ArgumentError } from './argument-error';

/**
 * The sources of a --from file, each with its line number: one per line, or a CSV file's first
 * column, as the desktop app reads a file dropped on it.
 */
export function readSourceFile(path: string): SourceEntry[] {
  return sourceLinesOfFile(path, readSourceText(path)).map(({ line, text }) =>
    sourceEntry(`line ${line}`, text),
  );
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
