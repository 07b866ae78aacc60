import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { CORPUS_ENTRY } from '../corpus/schema';
import { Differences } from './differences';
import { verifyFolder } from './folder';
import { systemErrorCode } from '../zip/system-error';
import { LineReader } from './line-reader';
import { CorpusEntries, ENTRY_KIND, PackedNames } from './packed-names';
import { printable, printableBytes } from '../zip/layout';
import { LONGEST_CHECKSUM_LINE, parseChecksumLine } from './checksum-lines';
import type { ListedEntry } from '../zip/central-directory';
import { NotAFileError, UnreadableMethodError, ZipFormatError, ZipLimitError } from '../zip/read-errors';
import { ZipReader } from '../zip/reader';
import { countDifferences, IndexTally, ManifestCounts, type PieceReader } from './table-readers';

const { checksums: CHECKSUMS, manifest: MANIFEST, index: INDEX } = CORPUS_ENTRY;

/**
 * However much its entries claim to hold, `verify` inflates at most INFLATED_BASE_BYTES plus
 * INFLATED_PER_BYTE bytes per byte of the file: a ZIP bomb is refused before anything is read, while
 * corpora, whose text deflates 3 to 10 times, stay far below.
 */
const INFLATED_BASE_BYTES = 256 * 1024 * 1024;
const INFLATED_PER_BYTE = 32;

/** What verifyCorpus found. */
export interface VerifyReport {
  /**
   * A plain line per difference, e.g. "changed: txt/1 - x [id].txt (…)": a few of each kind, then how
   * many more of that kind there were; none when the corpus is sound. Names are printable().
   */
  differences: string[];
  /** How many differences were found, listed or not. */
  found: number;
  /** How many entries were found to match their SHA-256 in SHA256SUMS. */
  matching: number;
  /**
   * The files that could not be checked at all, compressed in a way verify does not read (Deflate64,
   * Zstandard…): neither sound nor damaged. None were read when `files` is 0.
   */
  unchecked: UncheckedFiles;
}

/** The files verify could not read, by how they are compressed. */
export class UncheckedFiles {
  files = 0;
  readonly methods = new Set<string>();

  add(method: string): void {
    this.files += 1;
    this.methods.add(method);
  }
}

/** What reading one entry found: its SHA-256, that it is damaged (a difference is added), or that it cannot be read. */
type Reading = Buffer | 'damaged' | 'unchecked';

/** The file could not be read at all (missing, a folder, a named pipe, no permission): nothing was checked. */
export class CorpusUnreadableError extends Error {
  constructor(path: string, reason: string) {
    super(`Cannot verify ${printable(path)}: ${reason}`);
    this.name = 'CorpusUnreadableError';
  }

  /** From a file system error's code (ENOENT, EACCES…). */
  static fromCode(path: string, code: string): CorpusUnreadableError {
    const reasons: Record<string, string> = {
      ENOENT: 'there is no such file. Check the path.',
      EACCES: 'permission was denied. Check that you may read it.',
      EPERM: 'permission was denied. Check that you may read it.',
    };
    const reason = reasons[code] ?? `it could not be read (${code}).`;
    return new CorpusUnreadableError(path, reason);
  }
}

/**
 * Checks a corpus ZIP as written by writeCorpus: every entry path keeps the ZIP layout
 * (zip/layout.ts), every entry decompresses to bytes matching its CRC-32 and its SHA-256 in SHA256SUMS
 * (an entry missing, extra or changed is a difference), manifest.json's counts match index.csv's rows,
 * and every file index.csv names is in the ZIP.
 *
 * Whatever the file holds, memory and time stay bounded: entries whose bytes overlap, and a file whose
 * entries claim more than its size allows, are refused before any entry is read; each entry is read
 * in pieces, never past what it announces; the tables are read as streams keeping only what is
 * checked; and a few differences of each kind are listed, the rest counted.
 *
 * A folder is checked as the unzipped corpus (folder.ts). Rejects with CorpusUnreadableError when
 * the file cannot be read at all; a file that is not a ZIP, or is damaged, is a difference.
 */
export async function verifyCorpus(path: string): Promise<VerifyReport> {
  if (await isFolder(path)) {
    try {
      const { differences, matching } = await verifyFolder(path);
      return report(differences, matching, new UncheckedFiles());
    } catch (error) {
      throw unreadable(path, error);
    }
  }
  const differences = new Differences();
  const names = new PackedNames();
  let zip: ZipReader;
  try {
    zip = await ZipReader.open(path, (index, name, sameAs) => {
      names.visit(index, name);
      if (sameAs !== undefined) differences.add('listed twice', () => printableBytes(name));
    });
  } catch (error) {
    if (error instanceof NotAFileError) {
      throw new CorpusUnreadableError(path, `${error.message}. Give the path of the ZIP itself.`);
    }
    if (!(error instanceof ZipFormatError || error instanceof ZipLimitError)) throw unreadable(path, error);
    differences.add(error instanceof ZipLimitError ? 'too large' : 'not a ZIP', error.message);
    return report(differences, 0, new UncheckedFiles());
  }
  const { top, badNames } = names.finish();
  differences.merge(badNames);
  try {
    const entries = new CorpusEntries(zip, top);
    const unchecked = new UncheckedFiles();
    const matching = (await readable(zip, differences))
      ? await checkEntries(zip, entries, names, { differences, unchecked })
      : 0;
    return report(differences, matching, unchecked);
  } catch (error) {
    throw unreadable(path, error);
  } finally {
    await zip.close();
  }
}

/** Whether `path` is a folder: an unzipped corpus, checked file by file (folder.ts). */
async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (error) {
    throw unreadable(path, error);
  }
}

/** A file system error (it has a code: ENOENT, EACCES, EIO…) as CorpusUnreadableError; anything else as it is. */
function unreadable(path: string, error: unknown): unknown {
  const code = systemErrorCode(error);
  return code === undefined ? error : CorpusUnreadableError.fromCode(path, code);
}

function report(differences: Differences, matching: number, unchecked: UncheckedFiles): VerifyReport {
  return { differences: differences.lines(), found: differences.count, matching, unchecked };
}

/** What checking the entries gathers: the differences, and the files that could not be read. */
interface Findings {
  differences: Differences;
  unchecked: UncheckedFiles;
}

/** Adds a difference about `entry`, reading its name from the file only when the line is listed. */
async function addAbout(
  zip: ZipReader,
  differences: Differences,
  kind: string,
  entry: ListedEntry,
  detail: (name: string) => string,
): Promise<void> {
  const name = differences.listing(kind) ? printableBytes(await zip.nameOf(entry)) : '';
  differences.add(kind, detail(name));
}

/**
 * Whether the entries may be read at all: none overlaps the next or runs past where entries end, and
 * together they claim no more than the file's size allows. Adds a difference for each problem.
 */
async function readable(zip: ZipReader, differences: Differences): Promise<boolean> {
  let problems = 0;
  for (const { entry, next } of zip.spanProblems()) {
    problems += 1;
    if (next === undefined) {
      await addAbout(
        zip,
        differences,
        'damaged',
        entry,
        (name) => `${name} (its data runs past where the files end, into the central directory)`,
      );
    } else {
      const nextName = differences.listing('overlapping') ? printableBytes(await zip.nameOf(next)) : '';
      await addAbout(
        zip,
        differences,
        'overlapping',
        entry,
        (name) => `${name} and ${nextName} share bytes of the file (as in a ZIP bomb); no file was read`,
      );
    }
  }
  const allowed = INFLATED_BASE_BYTES + INFLATED_PER_BYTE * zip.fileSize;
  if (zip.inflatedBytes > allowed) {
    problems += 1;
    differences.add(
      'too large',
      `its files would unpack to ${mebibytes(zip.inflatedBytes)}, more than the ${mebibytes(allowed)} ` +
        `verify reads from a ZIP of this size (${mebibytes(INFLATED_BASE_BYTES)} and ${INFLATED_PER_BYTE} ` +
        'times its size), ' +
        'as in a ZIP bomb; no file was read',
    );
  }
  return problems === 0;
}

function mebibytes(bytes: number): string {
  return `${Math.ceil(bytes / 2 ** 20).toLocaleString('en-US')} MiB`;
}

/**
 * Reads every entry; returns how many match their SHA-256 in SHA256SUMS. What is judged is content:
 * the files, whatever their order, compression (stored, deflated, bzip2 or LZMA), the folder entries
 * around them, the top folder they were zipped in, or what macOS adds (packed-names.ts). A file in a
 * compression verify does not read is neither: it is counted as unchecked, and so are the checks
 * that needed it (the counts, when manifest.json or index.csv is one).
 */
async function checkEntries(
  zip: ZipReader,
  entries: CorpusEntries,
  names: PackedNames,
  findings: Findings,
): Promise<number> {
  const { differences } = findings;
  const checksumsEntry = entries.find(CHECKSUMS);
  const checksums =
    checksumsEntry === undefined ? undefined : await readChecksums(zip, entries, checksumsEntry, findings);
  if (checksumsEntry === undefined) differences.add('missing', `${CHECKSUMS} (so no entry can be checked)`);

  const manifestEntry = entries.find(MANIFEST);
  const indexEntry = entries.find(INDEX);
  const manifest = new ManifestCounts();
  const index = new IndexTally(entries);
  let tablesUnchecked = false;
  let matching = 0;
  for (const entry of zip.inFileOrder()) {
    if (entry.index === checksumsEntry?.index) continue;
    const kind = names.kind(entry.index);
    if (kind === ENTRY_KIND.addition) continue;
    if (kind === ENTRY_KIND.folder) {
      if (entry.size > 0)
        await addAbout(
          zip,
          differences,
          'bad name',
          entry,
          (name) => `${name} (a folder's name, yet it holds data)`,
        );
      continue;
    }
    const reader =
      entry.index === manifestEntry?.index ? manifest : entry.index === indexEntry?.index ? index : undefined;
    const sha256 = await checkedSha256(zip, entry, findings, reader);
    if (sha256 === 'unchecked' && reader !== undefined) tablesUnchecked = true;
    if (typeof sha256 === 'string' || checksums === undefined || entry.repeated) continue;
    const matches = checksums.matches(entry, sha256);
    if (matches === undefined) {
      await addAbout(zip, differences, 'extra', entry, (name) => `${name} (in the ZIP, not in ${CHECKSUMS})`);
    } else if (!matches) {
      await addAbout(
        zip,
        differences,
        'changed',
        entry,
        (name) => `${name} (its SHA-256 differs from ${CHECKSUMS})`,
      );
    } else matching += 1;
  }
  if (!tablesUnchecked) countDifferences(manifest, index, differences);
  if (index.complete) differences.merge(index.missingFiles);
  return matching;
}

/**
 * The entry's SHA-256 once its bytes decompress and match its CRC-32, handing them to `reader` as
 * they come; 'damaged', with the difference added, when they do not; 'unchecked', counted as such,
 * when it is compressed in a way verify does not read.
 */
async function checkedSha256(
  zip: ZipReader,
  entry: ListedEntry,
  { differences, unchecked }: Findings,
  reader?: PieceReader,
): Promise<Reading> {
  const hash = createHash('sha256');
  let crc = 0;
  try {
    await zip.read(entry, (piece) => {
      hash.update(piece);
      crc = crc32(piece, crc);
      reader?.push(piece);
    });
  } catch (error) {
    if (error instanceof UnreadableMethodError) {
      unchecked.add(error.method);
      return 'unchecked';
    }
    if (!(error instanceof ZipFormatError)) throw error;
    await addAbout(zip, differences, 'damaged', entry, (name) => `${name} (${error.message})`);
    return 'damaged';
  }
  if (crc !== entry.crc) {
    await addAbout(
      zip,
      differences,
      'damaged',
      entry,
      (name) => `${name} (its bytes do not match their CRC-32)`,
    );
    return 'damaged';
  }
  reader?.end();
  return hash.digest();
}

/** Of each SHA-256 compared, the first 16 bytes are kept: to match them, a changed file would take 2^128 tries. */
const KEPT_DIGEST_BYTES = 16;

/** The SHA-256 digests SHA256SUMS gives, by entry, in one buffer: no object per entry. */
class Checksums {
  /** Entry i's expected digest at i * KEPT_DIGEST_BYTES. */
  readonly #digests: Buffer;
  readonly #listed: Uint8Array;

  constructor(entries: number) {
    this.#digests = Buffer.alloc(entries * KEPT_DIGEST_BYTES);
    this.#listed = new Uint8Array(entries);
  }

  /** Records the digest a line gives for `entry`; false when an earlier line named it already. */
  expect(entry: ListedEntry, sha256: Buffer): boolean {
    if (this.#listed[entry.index] === 1) return false;
    this.#listed[entry.index] = 1;
    sha256.copy(this.#digests, entry.index * KEPT_DIGEST_BYTES, 0, KEPT_DIGEST_BYTES);
    return true;
  }

  /** Whether SHA256SUMS lists `entry`, and with this SHA-256; undefined when it does not list it. */
  matches(entry: ListedEntry, sha256: Buffer): boolean | undefined {
    if (this.#listed[entry.index] !== 1) return undefined;
    const at = entry.index * KEPT_DIGEST_BYTES;
    return sha256.subarray(0, KEPT_DIGEST_BYTES).equals(this.#digests.subarray(at, at + KEPT_DIGEST_BYTES));
  }
}

/**
 * Reads SHA256SUMS line by line as it streams: each line's path is looked up among the entries
 * (`missing` when the ZIP lacks it). Undefined when SHA256SUMS itself is damaged or unread: then no entry can be
 * checked against it.
 */
async function readChecksums(
  zip: ZipReader,
  entries: CorpusEntries,
  entry: ListedEntry,
  findings: Findings,
): Promise<Checksums | undefined> {
  const checksums = new Checksums(zip.count);
  // Gathered apart, and added only if SHA256SUMS itself is intact.
  const found = new Differences();
  let lineNumber = 0;
  const lines = new LineReader(LONGEST_CHECKSUM_LINE, (line) => {
    lineNumber += 1;
    if (line?.length === 0) return;
    const parsed = line === undefined ? undefined : parseChecksumLine(line);
    if (parsed === undefined) {
      found.add(CHECKSUMS, `line ${lineNumber} is not "<sha256>  <path>"`);
      return;
    }
    const listed = entries.find(parsed.path);
    if (listed === undefined) {
      found.add('missing', () => `${printableBytes(parsed.path)} (in ${CHECKSUMS}, not in the ZIP)`);
    } else if (!checksums.expect(listed, parsed.digest)) {
      found.add(CHECKSUMS, () => `line ${lineNumber} names ${printableBytes(parsed.path)} again`);
    }
  });
  if (typeof (await checkedSha256(zip, entry, findings, lines)) === 'string') return undefined;
  findings.differences.merge(found);
  return checksums;
}
