import { createHash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { crc32 } from 'node:zlib';
import { z } from 'zod';
import { CORPUS_STATUSES } from '../../shared/vocabulary';
import { CsvReader } from './csv-reader';
import { systemErrorCode } from './errors';
import { PATH_LIST_SEPARATOR } from './naming';
import { ZipFormatError, ZipReader } from './zip-reader';
import type { ListedEntry } from './zip-reader';

const CHECKSUMS = 'SHA256SUMS';
const MANIFEST = 'manifest.json';
const INDEX = 'index.csv';

/** What verifyCorpus found. */
export interface VerifyReport {
  /** One plain line per difference, e.g. "changed: txt/1 - x [id].txt (…)"; none when the corpus is sound. */
  differences: string[];
  /** How many entries were found to match their SHA-256 in SHA256SUMS. */
  matching: number;
}

/** The file could not be read at all (missing, a folder, no permission): nothing was checked. */
export class CorpusUnreadableError extends Error {
  constructor(path: string, code: string | undefined) {
    const reasons: Record<string, string> = {
      ENOENT: 'there is no such file. Check the path.',
      EISDIR: 'it is a folder. Give the path of the ZIP itself.',
      EACCES: 'permission was denied. Check that you may read it.',
      EPERM: 'permission was denied. Check that you may read it.',
    };
    const reason =
      (code === undefined ? undefined : reasons[code]) ??
      `it could not be read (${code ?? 'unknown error'}).`;
    super(`Cannot verify ${path}: ${reason}`);
    this.name = 'CorpusUnreadableError';
  }
}

/** `sha256  path` lines (a '*' in place of the second space marks binary mode, which changes nothing here). */
const CHECKSUM_LINE = /^([0-9a-f]{64}) [ *](.+)$/;

/**
 * Checks a corpus ZIP as written by writeCorpus: every entry decompresses to bytes matching its CRC-32
 * and its SHA-256 in SHA256SUMS (an entry missing, extra or changed is a difference), manifest.json's
 * counts match index.csv's rows, and every file index.csv names is in the ZIP. Entries are read one at
 * a time, in pieces; memory holds the directory's listing and SHA256SUMS, never an entry whole.
 *
 * Rejects with CorpusUnreadableError when the file cannot be read at all; a file that is not a ZIP,
 * or is damaged, is a difference.
 */
export async function verifyCorpus(path: string): Promise<VerifyReport> {
  let zip: ZipReader;
  try {
    zip = await ZipReader.open(path);
  } catch (error) {
    if (error instanceof ZipFormatError) return { differences: [`not a ZIP: ${error.message}`], matching: 0 };
    throw new CorpusUnreadableError(path, systemErrorCode(error));
  }
  try {
    return await checkCorpus(zip);
  } catch (error) {
    if (error instanceof ZipFormatError) return { differences: [`not a ZIP: ${error.message}`], matching: 0 };
    throw new CorpusUnreadableError(path, systemErrorCode(error));
  } finally {
    await zip.close();
  }
}

async function checkCorpus(zip: ZipReader): Promise<VerifyReport> {
  const differences: string[] = [];
  let matching = 0;
  const names = new Set<string>();
  for (const { name } of zip.entries) {
    if (names.has(name)) differences.push(`listed twice: ${name}`);
    names.add(name);
  }

  const checksumsEntry = zip.entries.find((entry) => entry.name === CHECKSUMS);
  const expected = new Map<string, string>();
  if (checksumsEntry === undefined) differences.push(`missing: ${CHECKSUMS} (so no entry can be checked)`);
  else {
    const text = await readText(zip, checksumsEntry, differences);
    for (const [at, line] of (text ?? '').split('\n').entries()) {
      if (line === '') continue;
      const match = CHECKSUM_LINE.exec(line);
      if (match?.[1] === undefined || match[2] === undefined) {
        differences.push(`${CHECKSUMS} line ${at + 1} is not "<sha256>  <path>"`);
      } else expected.set(match[2], match[1]);
    }
  }

  const index = new IndexTally(names);
  let manifest: string | undefined;
  for (const entry of zip.entries) {
    if (entry === checksumsEntry) continue;
    const collected: Buffer[] = [];
    const decoder = new StringDecoder('utf8');
    const sha256 = await checkedSha256(zip, entry, differences, (piece) => {
      if (entry.name === MANIFEST) collected.push(piece);
      if (entry.name === INDEX) index.push(decoder.write(piece));
    });
    const listed = expected.get(entry.name);
    expected.delete(entry.name);
    if (sha256 === undefined) continue;
    if (entry.name === MANIFEST) manifest = Buffer.concat(collected).toString('utf8');
    if (entry.name === INDEX) index.end(decoder.end());
    if (checksumsEntry === undefined) continue;
    if (listed === undefined) differences.push(`extra: ${entry.name} (in the ZIP, not in ${CHECKSUMS})`);
    else if (listed !== sha256)
      differences.push(`changed: ${entry.name} (its SHA-256 differs from ${CHECKSUMS})`);
    else matching += 1;
  }
  for (const name of expected.keys()) differences.push(`missing: ${name} (in ${CHECKSUMS}, not in the ZIP)`);

  differences.push(...countDifferences(manifest, index));
  if (index.complete) differences.push(...index.missingFiles);
  return { differences, matching };
}

/**
 * The entry's SHA-256 once its bytes decompress and match its CRC-32, handing each piece to `consume`;
 * undefined, with the difference added, when they do not.
 */
async function checkedSha256(
  zip: ZipReader,
  entry: ListedEntry,
  differences: string[],
  consume: (piece: Buffer) => void,
): Promise<string | undefined> {
  const hash = createHash('sha256');
  let crc = 0;
  try {
    await zip.read(entry, (piece) => {
      hash.update(piece);
      crc = crc32(piece, crc);
      consume(piece);
    });
  } catch (error) {
    if (!(error instanceof ZipFormatError)) throw error;
    differences.push(`damaged: ${entry.name} (${error.message})`);
    return undefined;
  }
  if (crc !== entry.crc) {
    differences.push(`damaged: ${entry.name} (its bytes do not match their CRC-32)`);
    return undefined;
  }
  return hash.digest('hex');
}

async function readText(
  zip: ZipReader,
  entry: ListedEntry,
  differences: string[],
): Promise<string | undefined> {
  const pieces: Buffer[] = [];
  const sha256 = await checkedSha256(zip, entry, differences, (piece) => pieces.push(piece));
  return sha256 === undefined ? undefined : Buffer.concat(pieces).toString('utf8');
}

/** index.csv's rows counted by status, and the files they name that the ZIP does not hold. */
class IndexTally {
  readonly counts = new Map<string, number>();
  readonly missingFiles: string[] = [];
  rows = 0;
  /** Whether index.csv was read to its end. */
  complete = false;
  readonly #names: ReadonlySet<string>;
  readonly #reader = new CsvReader();
  #statusColumn = -1;
  #filesColumn = -1;
  #header = true;

  constructor(names: ReadonlySet<string>) {
    this.#names = names;
  }

  push(text: string): void {
    for (const record of this.#reader.push(text)) this.#add(record);
  }

  end(text: string): void {
    this.push(text);
    for (const record of this.#reader.end()) this.#add(record);
    this.complete = true;
  }

  #add(record: string[]): void {
    if (this.#header) {
      this.#header = false;
      this.#statusColumn = record.indexOf('status');
      this.#filesColumn = record.indexOf('files');
      return;
    }
    this.rows += 1;
    const status = record[this.#statusColumn] ?? '';
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
    const files = record[this.#filesColumn] ?? '';
    for (const path of files === '' ? [] : files.split(PATH_LIST_SEPARATOR)) {
      if (!this.#names.has(path))
        this.missingFiles.push(`missing file: ${path} (named in ${INDEX}, row ${this.rows})`);
    }
  }
}

const ManifestCountsSchema = z.object({
  counts: z.object({
    videos: z.number(),
    ok: z.number(),
    unavailable: z.number(),
    failed: z.number(),
    pending: z.number(),
    skipped: z.number(),
  }),
});

/** Where manifest.json's counts and index.csv's rows disagree. */
function countDifferences(manifestText: string | undefined, index: IndexTally): string[] {
  if (manifestText === undefined) return [`counts: not checked, as ${MANIFEST} could not be read`];
  if (!index.complete) return [`counts: not checked, as ${INDEX} could not be read`];
  const manifest = parseJson(manifestText, ManifestCountsSchema);
  if (manifest === undefined) return [`counts: not checked, as ${MANIFEST} holds no counts`];
  const { counts } = manifest;
  const differences: string[] = [];
  if (counts.videos !== index.rows) {
    differences.push(`counts: ${MANIFEST} says ${counts.videos} videos, ${INDEX} lists ${index.rows}`);
  }
  // The statuses whose counts manifest.json gives and index.csv must match.
  for (const status of CORPUS_STATUSES) {
    const listed = index.counts.get(status) ?? 0;
    if (counts[status] !== listed) {
      differences.push(`counts: ${MANIFEST} says ${counts[status]} ${status}, ${INDEX} lists ${listed}`);
    }
  }
  return differences;
}

function parseJson<T>(text: string, schema: z.ZodType<T>): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
