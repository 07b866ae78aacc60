/**
 * ZIP files made byte by byte, for testing what `verify` does with files nobody honest writes:
 * overlapping entries, names that break the ZIP layout, contents of hundreds of megabytes. A large
 * content is one piece deflated once (a full flush makes it a block that stands alone) and that block
 * repeated, so that a file inflating to gigabytes costs the test a few kilobytes and little time.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * What an entry holds: text or bytes, `piece` repeated `times` times, or several contents one after
 * another.
 */
export type CraftedContent =
  string | Buffer | { piece: string | Buffer; times: number } | { parts: CraftedContent[] };

export interface CraftedEntry {
  /** Its name: text (written as UTF-8) or the exact bytes. */
  name: string | Buffer;
  content: CraftedContent;
  /** Stored as it is rather than deflated. */
  stored?: boolean;
}

export interface CraftedZip {
  entries: CraftedEntry[];
  /**
   * More central directory records, each naming the local header and data of `entries[of]` under
   * another name: the overlap by which a ZIP bomb reads the same bytes again and again.
   */
  aliases?: Array<{ name: string; of: number }>;
  /** How many entries the end records say there are, when not the true count. */
  claimedEntries?: number;
}

/** The final, empty block of a deflate stream (fixed Huffman codes, end of block). */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);
const UTF8_NAME_FLAG = 0x0800;
/** 1980-01-01, the first date a ZIP can hold. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

interface Written {
  name: Buffer;
  method: number;
  crc: number;
  size: number;
  compressedSize: number;
  offset: number;
}

/** The content's bytes in pieces: a repeated piece is yielded `times` times without being copied. */
function* pieces(content: CraftedContent): Generator<Buffer> {
  if (typeof content === 'string' || Buffer.isBuffer(content)) yield Buffer.from(content);
  else if ('parts' in content) for (const part of content.parts) yield* pieces(part);
  else {
    const piece = Buffer.from(content.piece);
    for (let i = 0; i < content.times; i++) yield piece;
  }
}

export function contentSize(content: CraftedContent): number {
  let size = 0;
  for (const piece of pieces(content)) size += piece.length;
  return size;
}

/** The SHA-256 (hex) of a content, as SHA256SUMS lists it. */
export function contentSha256(content: CraftedContent): string {
  const hash = createHash('sha256');
  for (const piece of pieces(content)) hash.update(piece);
  return hash.digest('hex');
}

/** Deflate blocks that stand alone (a full flush ends each), to be followed by the final block. */
function deflateBlocks(content: CraftedContent): Buffer[] {
  const block = (bytes: string | Buffer) =>
    deflateRawSync(Buffer.from(bytes), { finishFlush: constants.Z_FULL_FLUSH });
  if (typeof content === 'string' || Buffer.isBuffer(content)) return [block(content)];
  if ('parts' in content) return content.parts.flatMap(deflateBlocks);
  const repeated = block(content.piece);
  return Array.from({ length: content.times }, () => repeated);
}

function compressed(content: CraftedContent, stored: boolean): Buffer[] {
  return stored ? [...pieces(content)] : [...deflateBlocks(content), FINAL_EMPTY_BLOCK];
}

function localHeader(entry: Written): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(UTF8_NAME_FLAG, 6);
  header.writeUInt16LE(entry.method, 8);
  header.writeUInt16LE(DOS_DATE, 12);
  header.writeUInt32LE(entry.crc, 14);
  header.writeUInt32LE(entry.compressedSize, 18);
  header.writeUInt32LE(entry.size, 22);
  header.writeUInt16LE(entry.name.length, 26);
  return Buffer.concat([header, entry.name]);
}

function centralHeader(entry: Written): Buffer {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE((3 << 8) | 20, 4);
  header.writeUInt16LE(20, 6);
  header.writeUInt16LE(UTF8_NAME_FLAG, 8);
  header.writeUInt16LE(entry.method, 10);
  header.writeUInt16LE(DOS_DATE, 14);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.compressedSize, 20);
  header.writeUInt32LE(entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt32LE(entry.offset, 42);
  return Buffer.concat([header, entry.name]);
}

/**
 * The end records: the classic one, preceded by the ZIP64 record and locator when there are 65,535
 * entries or more (or `claimed` says so): what a reader takes the count of entries from.
 */
function endRecords(entries: number, offset: number, size: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries, 0xffff), 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  if (entries < 0xffff) return end;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(45, 12);
  record.writeUInt16LE(45, 14);
  record.writeBigUInt64LE(BigInt(entries), 24);
  record.writeBigUInt64LE(BigInt(entries), 32);
  record.writeBigUInt64LE(BigInt(size), 40);
  record.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + size), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
}

/** Writes `zip` to `path`: local headers and data in order, then the central directory. */
export function craftZip(path: string, zip: CraftedZip): void {
  const parts: Buffer[] = [];
  let offset = 0;
  const written: Written[] = [];
  for (const entry of zip.entries) {
    let crc = 0;
    for (const piece of pieces(entry.content)) crc = crc32(piece, crc);
    const data = compressed(entry.content, entry.stored === true);
    const record: Written = {
      name: Buffer.from(entry.name),
      method: entry.stored === true ? 0 : 8,
      crc,
      size: contentSize(entry.content),
      compressedSize: data.reduce((sum, part) => sum + part.length, 0),
      offset,
    };
    const header = localHeader(record);
    parts.push(header, ...data);
    offset += header.length + record.compressedSize;
    written.push(record);
  }
  const aliases = (zip.aliases ?? []).map(({ name, of }) => {
    const original = written[of];
    if (original === undefined) throw new Error(`no entry ${of} to alias`);
    return { ...original, name: Buffer.from(name) };
  });
  const directory = [...written, ...aliases].map(centralHeader);
  const directorySize = directory.reduce((sum, header) => sum + header.length, 0);
  parts.push(...directory, endRecords(zip.claimedEntries ?? directory.length, offset, directorySize));
  writeFileSync(path, Buffer.concat(parts));
}

/**
 * A corpus `verify` finds sound but for what `files` carry: a manifest.json counting no video, an
 * index.csv with its header alone, the files, and a SHA256SUMS listing them all. Each part can be
 * replaced, and `checksumLines` adds lines to SHA256SUMS.
 */
export function craftCorpus(
  path: string,
  parts: {
    files?: CraftedEntry[];
    manifest?: CraftedContent;
    index?: CraftedContent;
    checksumLines?: string[];
  } = {},
): void {
  const entries: CraftedEntry[] = [
    { name: 'manifest.json', content: parts.manifest ?? EMPTY_MANIFEST },
    { name: 'index.csv', content: parts.index ?? `${INDEX_HEADER}\n` },
    ...(parts.files ?? []),
  ];
  // Byte for byte, so that a name that is not UTF-8 is listed as the directory has it.
  const lines = [
    ...entries.map((entry) =>
      Buffer.concat([Buffer.from(`${contentSha256(entry.content)}  `), Buffer.from(entry.name)]),
    ),
    ...(parts.checksumLines ?? []).map((line) => Buffer.from(line)),
  ];
  const checksums = Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\n')]));
  craftZip(path, { entries: [...entries, { name: 'SHA256SUMS', content: checksums }] });
}

export const INDEX_HEADER =
  'video_id,title,language,status,segments,source,position,channel_title,channel_id,published,' +
  'duration_seconds,view_count,url,requested_language,word_count,fetched_at,files';

/** manifest.json's counts for `videos` videos, all ok. */
export function manifestCounting(videos: number): string {
  const counts = { videos, ok: videos, unavailable: 0, failed: 0, pending: 0, skipped: 0, sources_failed: 0 };
  return `${JSON.stringify({ tool: { name: 'scriptorium', version: '0.1.0' }, counts })}\n`;
}

const EMPTY_MANIFEST = manifestCounting(0);
