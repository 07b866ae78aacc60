import { constants, inflateRawSync } from 'node:zlib';
import { APP_NAME } from '../../../shared/version';
import { CORPUS_ENTRY } from './schema';
import {
  FLAG_DATA_DESCRIPTOR,
  FLAG_ENCRYPTED,
  LOCAL_HEADER,
  LOCAL_HEADER_BYTES,
  METHOD_DEFLATE,
} from '../zip/appnote';

/**
 * How much of a file's start is read to recognise a Scriptorium ZIP: the local header of manifest.json
 * and the first compressed bytes of its text. A deflate block's code tables take at most about 300
 * bytes, so this always reaches the manifest's opening; and being small, it bounds what inflating it
 * can produce (about a megabyte at most, whatever the file holds).
 */
export const ZIP_HEAD_BYTES = 1024;

// The records of the first entry, as ../write-corpus.ts lays them out (PKWARE APPNOTE 4.3.7).
const MANIFEST_NAME = CORPUS_ENTRY.manifest;

/**
 * How every manifest.json opens: renderManifest writes `tool` first and `name` first within it, so the
 * tool's name comes within the first few dozen characters, however long the manifest is.
 */
const MANIFEST_OPENING = new RegExp(`^\\s*\\{\\s*"tool"\\s*:\\s*\\{\\s*"name"\\s*:\\s*"${APP_NAME}"\\s*[,}]`);

/**
 * Whether `head`, the first bytes of a file (ZIP_HEAD_BYTES of them, or the whole file if shorter), is
 * the start of a ZIP that Scriptorium wrote: its first entry is a deflated manifest.json whose JSON
 * names Scriptorium as its tool. Only this start is read, so a corpus of any size is recognised at once.
 */
export function isScriptoriumZipHead(head: Buffer): boolean {
  if (head.length < LOCAL_HEADER_BYTES || head.readUInt32LE(0) !== LOCAL_HEADER) return false;
  const flags = head.readUInt16LE(6);
  if ((flags & FLAG_ENCRYPTED) !== 0 || head.readUInt16LE(8) !== METHOD_DEFLATE) return false;
  const nameEnd = LOCAL_HEADER_BYTES + head.readUInt16LE(26);
  if (head.toString('utf8', LOCAL_HEADER_BYTES, nameEnd) !== MANIFEST_NAME) return false;
  const dataStart = nameEnd + head.readUInt16LE(28);
  // With a data descriptor the header's sizes are zero (they follow the data); otherwise the entry ends
  // at its compressed size, which a ZIP64 header sets to 0xffffffff: either way `head` ends sooner.
  const dataEnd = (flags & FLAG_DATA_DESCRIPTOR) !== 0 ? head.length : dataStart + head.readUInt32LE(18);
  const opening = inflatePrefix(head.subarray(dataStart, dataEnd));
  return opening !== undefined && MANIFEST_OPENING.test(opening);
}

/** The text that a cut-off piece of a deflate stream starts with, or undefined if it is not deflate data. */
function inflatePrefix(compressed: Buffer): string | undefined {
  try {
    // A sync flush at the end takes the piece as cut short rather than broken.
    return inflateRawSync(compressed, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
  } catch {
    return undefined;
  }
}
