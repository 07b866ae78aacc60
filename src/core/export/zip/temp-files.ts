import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AppendFile } from './append-file';
import { systemErrorCode } from './system-error';

/** What a temporary file beside a ZIP holds: the ZIP being written, or an entry being spooled. */
export type TempFileKind = 'partial' | 'spool';

const TEMP_FILE_KINDS: readonly string[] = ['partial', 'spool'] satisfies TempFileKind[];
/** The middle of a temporary file's name: the writer's pid, then 12 random hex digits. */
const WRITER_AND_RANDOM = /^(\d+)\.[0-9a-f]{12}$/;

/**
 * `.<name>.<pid>.<random>.<kind>` in the target's folder: hidden, tied to its target by name and to
 * the process writing it by pid, so that a later run can tell what a killed writer left behind from
 * the files of a writer still at work.
 */
export function tempPathBeside(targetPath: string, kind: TempFileKind): string {
  const random = randomBytes(6).toString('hex');
  return join(dirname(targetPath), `.${basename(targetPath)}.${process.pid}.${random}.${kind}`);
}

/** A new temporary file beside a target (tempPathBeside), written from start to end. */
export class TempFile {
  private constructor(
    readonly path: string,
    readonly file: AppendFile,
  ) {}

  /** Creates the file; fails if something already has its name. `hashed`: see AppendFile. */
  static async beside(
    targetPath: string,
    kind: TempFileKind,
    options: { hashed?: boolean } = {},
  ): Promise<TempFile> {
    const path = tempPathBeside(targetPath, kind);
    return new TempFile(path, await AppendFile.create(path, options));
  }

  /** Closes and deletes the file, as far as it can. */
  async remove(): Promise<void> {
    await this.file.close().catch(() => undefined);
    await rm(this.path, { force: true }).catch(() => undefined);
  }
}

/**
 * Deletes the temporary files that writers of `targetPath` left when they were killed (by kill -9, a
 * crash or a power cut), and only those: the files of a live writer (another process may be exporting
 * to the same path right now), of other targets and of anyone else stay. Best effort: a file that
 * cannot be listed or deleted is left, and the export goes on.
 */
export async function removeStaleTempFiles(targetPath: string): Promise<void> {
  const folder = dirname(targetPath);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return;
  }
  const prefix = `.${basename(targetPath)}.`;
  for (const name of names) {
    const writer = writerOf(name, prefix);
    if (writer !== undefined && !isRunning(writer)) {
      await rm(join(folder, name), { force: true }).catch(() => undefined);
    }
  }
}

/** The pid in the name of one of the target's temporary files (`prefix` is `.<target name>.`). */
function writerOf(name: string, prefix: string): number | undefined {
  if (!name.startsWith(prefix)) return undefined;
  const kindAt = name.lastIndexOf('.');
  if (kindAt < prefix.length || !TEMP_FILE_KINDS.includes(name.slice(kindAt + 1))) return undefined;
  const match = WRITER_AND_RANDOM.exec(name.slice(prefix.length, kindAt));
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** Whether a process with this pid exists; when in doubt (EPERM: someone else's process), it does. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return systemErrorCode(error) !== 'ESRCH';
  }
}
