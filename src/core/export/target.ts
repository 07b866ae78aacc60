import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import type { ErrorCode } from '../../shared/errors';
import { describeWriteFailure } from './errors';
import { systemErrorCode } from './zip/system-error';
import { isScriptoriumZipHead, ZIP_HEAD_BYTES } from './corpus/signature';

/** The ZIP path given would destroy or misuse something that is there; nothing was written. */
export class ExportTargetError extends Error {
  readonly code: ErrorCode = 'output_refused';
  /** The path the ZIP was asked to go to. */
  readonly path: string;

  constructor(path: string, message: string) {
    super(message);
    this.name = 'ExportTargetError';
    this.path = path;
  }
}

/**
 * Refuses, before any work, a ZIP path where exporting would destroy something of the user's or write
 * into something that is not a file: a folder, a device, a named pipe, a socket, a symbolic link (even
 * to a ZIP: the export replaces the path itself), or an existing file that Scriptorium did not write.
 * Accepts a path where nothing is yet, an empty file, and a ZIP that Scriptorium wrote, which the export
 * then replaces atomically. Throws ExportTargetError saying what the path is and what to do.
 */
export function checkExportTarget(path: string): void {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'ENOENT') return;
    throw new ExportTargetError(path, describeWriteFailure(path, code));
  }
  const refusal = stats.isFile() ? refusalOfFile(path) : refusalOfNonFile(path, stats);
  if (refusal !== undefined) throw new ExportTargetError(path, `Cannot write ${path}: ${refusal}`);
}

/** Why the path, which is not a regular file, cannot take the ZIP. */
function refusalOfNonFile(path: string, stats: Stats): string {
  const advice = 'Choose a file name for the ZIP, such as corpus.zip.';
  if (stats.isDirectory()) {
    return `it is a folder. Choose a file name for the ZIP, such as ${join(path, 'corpus.zip')}.`;
  }
  if (stats.isSymbolicLink()) {
    return (
      `it is a symbolic link (to ${readlinkSync(path)}), and exporting would replace the link. ` +
      'Give the path of the file itself, or another name for the ZIP.'
    );
  }
  if (stats.isFIFO()) return `it is a named pipe, not a file. ${advice}`;
  if (stats.isSocket()) return `it is a socket, not a file. ${advice}`;
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return `it is a device, not a file. ${advice}`;
  return `it is not a regular file. ${advice}`;
}

/** Why the existing regular file at `path` must not be replaced, or undefined if it may be. */
function refusalOfFile(path: string): string | undefined {
  const foreign =
    'it is an existing file that Scriptorium did not write, and exporting would replace it. ' +
    'Move or rename that file, or choose another name for the ZIP.';
  let head: Buffer;
  try {
    head = readHead(path);
  } catch (error) {
    if (error instanceof NotAFileError) return refusalOfNonFile(path, error.stats);
    const code = systemErrorCode(error) ?? 'unknown error';
    return `it is an existing file that cannot be read (${code}), so it may not be Scriptorium's to replace. Choose another name for the ZIP.`;
  }
  // An empty file holds nothing to lose (and `mktemp` makes one to export into).
  if (head.length === 0) return undefined;
  return isScriptoriumZipHead(head) ? undefined : foreign;
}

/** The path was swapped for something else between the look and the opening. */
class NotAFileError extends Error {
  constructor(readonly stats: Stats) {
    super('not a regular file');
  }
}

/** The file's first ZIP_HEAD_BYTES, read without following a link or waiting on a pipe. */
function readHead(path: string): Buffer {
  // Both flags are undefined on Windows, where they then add nothing.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotAFileError(stats);
    const head = Buffer.alloc(ZIP_HEAD_BYTES);
    const length = readSync(fd, head, 0, ZIP_HEAD_BYTES, 0);
    return head.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
