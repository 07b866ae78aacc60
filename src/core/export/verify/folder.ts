import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { CORPUS_ENTRY } from '../corpus/schema';
import { MAX_ENTRIES } from '../zip/central-directory';
import { entryPathProblem, printable } from '../zip/layout';
import { Differences } from './differences';
import { LONGEST_CHECKSUM_LINE, parseChecksumLine } from './checksum-lines';
import { LineReader } from './line-reader';
import { countDifferences, IndexTally, ManifestCounts, type PieceReader } from './table-readers';

const { checksums: CHECKSUMS, manifest: MANIFEST, index: INDEX } = CORPUS_ENTRY;

/** What macOS adds to a folder it has shown (Finder's view settings) or unzipped (resource forks). */
const FINDER_SETTINGS = '.DS_Store';
const MAC_RESOURCES = '__MACOSX';

/** What checking a folder found: as for a ZIP (verify.ts), with no file it could not read. */
export interface FolderFindings {
  differences: Differences;
  matching: number;
}

/**
 * Checks an unzipped corpus (docs/product.md, "Checking a corpus"): the folder's files against
 * SHA256SUMS (a file changed, missing or extra is a difference), their paths against the ZIP layout,
 * manifest.json's counts against index.csv's rows, and that every file index.csv names is there. What
 * macOS adds (`.DS_Store`, `__MACOSX/`) is left aside. A link or anything but a regular file is a
 * difference, never followed nor opened. Files are read as streams; at most MAX_ENTRIES of them
 * are checked. Errors of the file system (a file that cannot be read) reject as they come.
 */
export async function verifyFolder(folder: string): Promise<FolderFindings> {
  const differences = new Differences();
  const files = await listFiles(folder, differences);
  const present = new Set(files);
  const expected = present.has(CHECKSUMS)
    ? await readChecksums(join(folder, CHECKSUMS), present, differences)
    : undefined;
  if (expected === undefined && !present.has(CHECKSUMS)) {
    differences.add('missing', `${CHECKSUMS} (so no file can be checked)`);
  }
  const manifest = new ManifestCounts();
  const index = new IndexTally({ find: (path) => (present.has(path) ? path : undefined) });
  let matching = 0;
  for (const path of files) {
    if (path === CHECKSUMS) continue;
    const reader = path === MANIFEST ? manifest : path === INDEX ? index : undefined;
    const sha256 = await sha256Of(join(folder, path), reader);
    const wanted = expected?.get(path);
    if (expected === undefined) continue;
    if (wanted === undefined)
      differences.add('extra', `${printable(path)} (in the folder, not in ${CHECKSUMS})`);
    else if (!wanted.equals(sha256))
      differences.add('changed', `${printable(path)} (its SHA-256 differs from ${CHECKSUMS})`);
    else matching += 1;
  }
  countDifferences(manifest, index, differences);
  if (index.complete) differences.merge(index.missingFiles);
  return { differences, matching };
}

/**
 * The paths of the folder's regular files, relative, with `/`, sorted; each path that breaks the ZIP
 * layout, and each link or special file, is a difference.
 */
async function listFiles(folder: string, differences: Differences): Promise<string[]> {
  const files: string[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.pop() ?? '';
    for await (const entry of await opendir(join(folder, relative))) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.name === FINDER_SETTINGS || path === MAC_RESOURCES) continue;
      if (entry.isDirectory()) {
        pending.push(path);
        continue;
      }
      if (!entry.isFile()) {
        differences.add(
          'not a file',
          `${printable(path)} (a link or a special file; verify does not open it)`,
        );
        continue;
      }
      const problem = entryPathProblem(path);
      if (problem !== undefined)
        differences.add('bad name', `${printable(path)} (${problem}; see the ZIP layout)`);
      if (files.length === MAX_ENTRIES) {
        differences.add('too large', `it holds more than ${MAX_ENTRIES.toLocaleString('en-US')} files`);
        return files.sort();
      }
      files.push(path);
    }
  }
  return files.sort();
}

/** The SHA-256 of a regular file, read as a stream and handed to `reader` as it comes. */
async function sha256Of(path: string, reader?: PieceReader): Promise<Buffer> {
  // Checked again at the moment of reading: a file replaced by a named pipe since is not opened.
  if (!(await lstat(path)).isFile()) throw new Error(`${printable(path)} is no longer a regular file`);
  const hash = createHash('sha256');
  for await (const piece of createReadStream(path)) {
    hash.update(piece as Buffer);
    reader?.push(piece as Buffer);
  }
  reader?.end();
  return hash.digest();
}

/** SHA256SUMS's digests by path; each line naming a path the folder lacks is a difference. */
async function readChecksums(
  path: string,
  present: ReadonlySet<string>,
  differences: Differences,
): Promise<Map<string, Buffer>> {
  const expected = new Map<string, Buffer>();
  let lineNumber = 0;
  const lines = new LineReader(LONGEST_CHECKSUM_LINE, (line) => {
    lineNumber += 1;
    if (line?.length === 0) return;
    const parsed = line === undefined ? undefined : parseChecksumLine(line);
    const named = parsed?.path.toString('utf8');
    if (parsed === undefined || named === undefined) {
      differences.add(CHECKSUMS, `line ${lineNumber} is not "<sha256>  <path>"`);
    } else if (expected.has(named)) {
      differences.add(CHECKSUMS, `line ${lineNumber} names ${printable(named)} again`);
    } else {
      expected.set(named, parsed.digest);
      if (!present.has(named))
        differences.add('missing', `${printable(named)} (in ${CHECKSUMS}, not in the folder)`);
    }
  });
  await sha256Of(path, lines);
  return expected;
}
