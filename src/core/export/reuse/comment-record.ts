import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import type { ZipComment } from '../zip/writer';
import { END_OF_CENTRAL_DIRECTORY, END_RECORD_BYTES } from '../zip/appnote';

/**
 * What an export records of itself in the ZIP's comment, the last bytes of the file (readers show it,
 * e.g. `unzip -l`): the fingerprint of its inputs (corpus-fingerprint.ts), the SHA-256 of every byte
 * before the comment, and its counts. An export to the same path whose inputs have the same fingerprint
 * would write these very bytes, so it checks the SHA-256 and keeps the file as it is.
 */
export interface CommentRecord {
  fingerprint: Buffer;
  /** The SHA-256 of the file up to the comment. */
  sha256: Buffer;
  /** Entries in the ZIP. */
  entries: number;
  /** Of them, the transcripts' files and streams (ExportResult's copied + written). */
  files: number;
}

/** Far more than a record's comment needs: a longer comment is someone else's. */
const MAX_COMMENT_BYTES = 512;
const RECORD =
  /^Scriptorium corpus record 1: inputs ([0-9a-f]{32}), sha256 before this comment ([0-9a-f]{64}), entries (\d{1,10}), files (\d{1,10})$/;

/** The comment for a record: ASCII, never containing an end record's signature. */
export function commentText(record: CommentRecord): Buffer {
  const text =
    `Scriptorium corpus record 1: inputs ${record.fingerprint.toString('hex')}, ` +
    `sha256 before this comment ${record.sha256.toString('hex')}, ` +
    `entries ${record.entries}, files ${record.files}`;
  return Buffer.from(text, 'ascii');
}

/**
 * The ZIP's comment recording an export of inputs with this fingerprint, holding `files` transcripts'
 * files and streams; the writer gives the rest (its length does not depend on the SHA-256: hexadecimal,
 * fixed width).
 */
export function recordComment({ fingerprint, files }: { fingerprint: Buffer; files: number }): ZipComment {
  return ({ entries, sha256 }) => commentText({ fingerprint, files, entries, sha256 });
}

/**
 * The record at the end of the file at `path`, with where its comment starts and the file's size,
 * when the file ends with an end of central directory record whose comment is one; undefined
 * otherwise (no file, another program's ZIP, an older export, anything but a regular file).
 */
export async function readCommentRecord(
  path: string,
): Promise<{ record: CommentRecord; commentStart: number; size: number } | undefined> {
  let file;
  try {
    // Opening a named pipe would wait for a writer: only a regular file is opened.
    if (!(await stat(path)).isFile()) return undefined;
    file = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await file.stat();
    const length = Math.min(size, END_RECORD_BYTES + MAX_COMMENT_BYTES);
    const tail = Buffer.alloc(length);
    const { bytesRead } = await file.read(tail, 0, length, size - length);
    if (bytesRead !== length) return undefined;
    for (let at = length - END_RECORD_BYTES; at >= 0; at--) {
      if (tail.readUInt32LE(at) !== END_OF_CENTRAL_DIRECTORY) continue;
      const commentLength = tail.readUInt16LE(at + 20);
      if (at + END_RECORD_BYTES + commentLength !== length) continue;
      const match = RECORD.exec(tail.subarray(at + END_RECORD_BYTES).toString('latin1'));
      if (match === null) return undefined;
      const [, fingerprint = '', sha256 = '', entries = '', files = ''] = match;
      return {
        record: {
          fingerprint: Buffer.from(fingerprint, 'hex'),
          sha256: Buffer.from(sha256, 'hex'),
          entries: Number(entries),
          files: Number(files),
        },
        commentStart: size - commentLength,
        size,
      };
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    await file.close().catch(() => undefined);
  }
}

/** Whether the bytes of `path` before `commentStart` still have the SHA-256 its record says. */
export async function isIntact(path: string, record: CommentRecord, commentStart: number): Promise<boolean> {
  const hash = createHash('sha256');
  let file;
  try {
    file = await open(path, 'r');
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    for (let at = 0; at < commentStart;) {
      const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, commentStart - at), at);
      if (bytesRead === 0) return false;
      hash.update(buffer.subarray(0, bytesRead));
      at += bytesRead;
    }
    return hash.digest().equals(record.sha256);
  } catch {
    return false;
  } finally {
    await file?.close().catch(() => undefined);
  }
}
