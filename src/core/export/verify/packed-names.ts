import { Differences } from './differences';
import { entryPathProblem, MAX_ENTRY_PATH_BYTES, printableBytes } from '../zip/layout';
import { MAX_ENTRIES } from '../zip/central-directory';
import type { ListedEntry } from '../zip/central-directory';
import type { ZipReader } from '../zip/reader';

/** What an entry of a ZIP is to `verify`. */
export const ENTRY_KIND = {
  /** A file of the corpus, to check. */
  file: 0,
  /** A folder entry (`txt/`), which zip -r and others add: it holds no file. */
  folder: 1,
  /** What macOS adds when it compresses a folder: `__MACOSX/…` and `.DS_Store` files. */
  addition: 2,
} as const;
export type EntryKind = (typeof ENTRY_KIND)[keyof typeof ENTRY_KIND];

const SLASH = 0x2f;
const MAC_RESOURCES = Buffer.from('__MACOSX');
const FINDER_SETTINGS = Buffer.from('.DS_Store');

/**
 * The names of a corpus as someone may have zipped it again (docs/product.md, "Checking a corpus"). An
 * archive manager that compresses the unzipped folder (Finder's or Windows' "Compress") puts every
 * entry under one top folder, and macOS adds `__MACOSX/` (the files' resource forks) and `.DS_Store`
 * files (Finder's view settings). So every name is judged two ways as the central directory is read:
 * as it is, and without its first folder; once every name has been seen, the second way counts when
 * all of them (macOS's additions aside) lie in one top folder. The additions are not the corpus's: their
 * names must still be safe ones, of any length, and their content is not checked.
 */
export class PackedNames {
  readonly #kinds = new Uint8Array(MAX_ENTRIES);
  readonly #asListed = new Differences();
  readonly #underTop = new Differences();
  /** The first folder of every name seen so far, while there is one. */
  #top: Buffer | undefined;
  #oneTop = true;

  /** Takes in an entry's name, as ZipReader.open's visitor. */
  visit(index: number, name: Buffer): void {
    const folder = name.length > 1 && name[name.length - 1] === SLASH;
    const path = folder ? name.subarray(0, -1) : name;
    const slash = path.indexOf(SLASH);
    if (isMacAddition(path, slash, folder)) {
      this.#kinds[index] = ENTRY_KIND.addition;
      const problem = entryPathProblem(path, Infinity);
      if (problem !== undefined) {
        this.#asListed.add('bad name', badName(name, problem));
        this.#underTop.add('bad name', badName(name, problem));
      }
      return;
    }
    if (folder) this.#kinds[index] = ENTRY_KIND.folder;
    this.#noteTop(slash < 0 ? (folder ? path : undefined) : path.subarray(0, slash));
    const asListed = entryPathProblem(path);
    if (asListed !== undefined) this.#asListed.add('bad name', badName(name, asListed));
    if (!this.#oneTop) return;
    // The whole name keeps every rule; only the part after the top folder is held to the length.
    const underTop = entryPathProblem(path, MAX_ENTRY_PATH_BYTES + slash + 1);
    if (underTop !== undefined) this.#underTop.add('bad name', badName(name, underTop));
  }

  /**
   * Once every name was visited: the top folder every file lies in (as a prefix ending in `/`), or
   * undefined when they do not all lie in one; and the names that break the ZIP layout, so judged.
   */
  finish(): { top: Buffer | undefined; badNames: Differences } {
    const top =
      this.#oneTop && this.#top !== undefined ? Buffer.concat([this.#top, Buffer.from('/')]) : undefined;
    return { top, badNames: top === undefined ? this.#asListed : this.#underTop };
  }

  kind(index: number): EntryKind {
    return (this.#kinds[index] ?? ENTRY_KIND.file) as EntryKind;
  }

  /** `first`: the name's first folder, or undefined for a file at the root. */
  #noteTop(first: Buffer | undefined): void {
    if (!this.#oneTop) return;
    if (first === undefined) this.#oneTop = false;
    else if (this.#top === undefined) this.#top = Buffer.from(first);
    else if (!this.#top.equals(first)) this.#oneTop = false;
  }
}

function badName(name: Buffer, problem: string): () => string {
  return () => `${printableBytes(name)} (${problem}; see the ZIP layout)`;
}

/** `__MACOSX` as the first folder, or a file named `.DS_Store` in any folder. */
function isMacAddition(path: Buffer, slash: number, folder: boolean): boolean {
  if ((slash < 0 ? path : path.subarray(0, slash)).equals(MAC_RESOURCES)) return true;
  return !folder && path.subarray(path.lastIndexOf(SLASH) + 1).equals(FINDER_SETTINGS);
}

/** The entries of a corpus by the names it writes, found under the top folder it was zipped in, if any. */
export class CorpusEntries {
  readonly #zip: ZipReader;
  readonly #top: Buffer | undefined;

  constructor(zip: ZipReader, top: Buffer | undefined) {
    this.#zip = zip;
    this.#top = top;
  }

  find(name: string | Uint8Array): ListedEntry | undefined {
    if (this.#top === undefined) return this.#zip.find(name);
    const bytes = typeof name === 'string' ? Buffer.from(name, 'utf8') : name;
    return this.#zip.find(Buffer.concat([this.#top, bytes]));
  }
}
