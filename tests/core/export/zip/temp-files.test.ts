import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeStaleTempFiles, tempPathBeside } from '../../../../src/core/export/zip/temp-files';
import { AtomicZipFile } from '../../../../src/core/export/zip/writer';

/** The pid of a process that has run and exited: no process has it now. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  if (pid === undefined) throw new Error('could not start a process');
  return pid;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-temp-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function touch(...names: string[]): void {
  for (const name of names) writeFileSync(join(dir, name), 'x');
}

describe('temporary files beside a ZIP', () => {
  it('are hidden and carry the name of their target and the pid of their writer', () => {
    const target = join(dir, 'corpus.zip');
    expect(basename(tempPathBeside(target, 'partial'))).toMatch(
      new RegExp(`^\\.corpus\\.zip\\.${process.pid}\\.[0-9a-f]{12}\\.partial$`),
    );
    expect(basename(tempPathBeside(target, 'spool'))).toMatch(/^\.corpus\.zip\.\d+\.[0-9a-f]{12}\.spool$/);
  });

  it('left by a dead writer of the target are removed when an export to it starts; all else stays', async () => {
    const dead = deadPid();
    const stale = [`.corpus.zip.${dead}.0123456789ab.partial`, `.corpus.zip.${dead}.ba9876543210.spool`];
    const kept = [
      // Live writers: this process, and init (pid 1), which always runs.
      `.corpus.zip.${process.pid}.0123456789ab.partial`,
      '.corpus.zip.1.0123456789ab.spool',
      // Another target's leftovers wait for an export to that target.
      `.other.zip.${dead}.0123456789ab.partial`,
      // Names that only look alike: no pid (written before pids were added), or not a temporary file.
      '.corpus.zip.0123456789ab.partial',
      `.corpus.zip.${dead}.notes`,
      `.corpus.zip.${dead}.0123456789ab.partial.bak`,
      'corpus.txt',
    ];
    touch(...stale, ...kept);

    const zip = await AtomicZipFile.create(join(dir, 'corpus.zip'));
    await zip.add('manifest.json', '{}');
    await zip.commit();

    expect(readdirSync(dir).sort()).toEqual([...kept, 'corpus.zip'].sort());
  });

  it('are left alone, to the last one, while their writer lives', async () => {
    const target = join(dir, 'corpus.zip');
    const zip = await AtomicZipFile.create(target);
    await (await zip.spool('transcripts.jsonl')).write('{}\n');
    // The ZIP, the central directory's spool and the entry's.
    const writing = readdirSync(dir);
    expect(writing).toHaveLength(3);

    await removeStaleTempFiles(target);
    expect(readdirSync(dir)).toEqual(writing);
    await zip.discard();
    expect(readdirSync(dir)).toEqual([]);
  });
});
