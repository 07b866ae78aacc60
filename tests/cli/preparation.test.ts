import BetterSqlite3 from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { runCli, startCliSetup } from '../support/cli';
import { BEFORE_DERIVED_TRANSCRIPTS } from '../support/older-schema';

// The built CLI prepares stored transcripts (indexed for search, derived for export) on its worker
// thread (out/cli/preparation-worker.js), after the transactions that store them: a run's export finds
// them all derived; a failure there crosses the thread as one line, never a stack, and the next start
// carries on; a data folder from before derivation is derived in the background, telling its
// progress, and an export meanwhile writes the same corpus.

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;
const PLAYLIST = 'PLcliPreparation_n40';

function database(): BetterSqlite3.Database {
  return new BetterSqlite3(join(env.SCRIPTORIUM_DATA_DIR ?? '', 'scriptorium.db'));
}

function counts(): { transcripts: number; derived: number } {
  const db = database();
  try {
    return {
      transcripts: db.prepare('SELECT count(*) FROM transcripts').pluck().get() as number,
      derived: db.prepare('SELECT count(*) FROM derived_transcripts').pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

async function exported(name: string): Promise<{ stderr: string; bytes: Buffer }> {
  const out = join(dir, name);
  const run = await runCli(['export', PLAYLIST, '--out', out], env);
  expect(run.code, run.stderr).toBe(0);
  return { stderr: run.stderr, bytes: readFileSync(out) };
}

/** What the CLI said on stderr besides its progress bar and its summary. */
function preparationLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('Prepar'));
}

beforeAll(async () => {
  ({ sim, dir, env } = await startCliSetup(10_000));
}, 60_000);
afterAll(() => sim.close());

it("derives a run's transcripts before its export, and an export of a new path writes the same corpus", async () => {
  const first = await exported('first.zip');
  expect(preparationLines(first.stderr)).toEqual([]);
  const { transcripts, derived } = counts();
  expect(transcripts).toBeGreaterThan(30);
  expect(derived).toBe(transcripts);
  expect((await exported('second.zip')).bytes.equals(first.bytes)).toBe(true);
});

it('says a failure of the worker thread once, as a bug with the stack it had there, and carries on at the next start', async () => {
  const db = database();
  db.exec(`DELETE FROM derived_transcripts;
    CREATE TRIGGER full BEFORE INSERT ON derived_transcripts
    BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;`);
  db.close();
  const failing = await exported('while-failing.zip');
  expect(preparationLines(failing.stderr)).toEqual([
    'Preparing your stored transcripts for search and export: 0 of ' + String(counts().transcripts),
    'Preparing stored transcripts for search and export stopped; it carries on at the next start. ' +
      'SqliteError: database or disk is full',
  ]);
  // A trigger's error is no full disk (SQLITE_CONSTRAINT_TRIGGER): a bug, whose stack on the worker
  // thread crossed to be logged (store/background-failure.ts); a real full disk is one plain line.
  expect(failing.stderr).toMatch(/SqliteError: database or disk is full\n(\s+at .+\n)+/);
  expect(counts().derived).toBe(0);
  // The export rendered what was not derived: the same corpus.
  expect(failing.bytes.equals(readFileSync(join(dir, 'first.zip')))).toBe(true);

  const fixed = database();
  fixed.exec('DROP TRIGGER full');
  fixed.close();
  await exported('after.zip');
  const { transcripts, derived } = counts();
  expect(derived).toBe(transcripts);
});

it('derives a data folder from before derivation in the background, telling its progress; an export meanwhile writes the same corpus', async () => {
  const { transcripts } = counts();
  const db = database();
  db.exec(BEFORE_DERIVED_TRANSCRIPTS);
  db.close();
  const meanwhile = await exported('meanwhile.zip');
  const lines = preparationLines(meanwhile.stderr);
  expect(lines[0]).toBe(`Preparing your stored transcripts for search and export: 0 of ${transcripts}`);
  expect(meanwhile.bytes.equals(readFileSync(join(dir, 'first.zip')))).toBe(true);
  // Whatever the first command left, the next ones finish, and then there is nothing to tell.
  for (let command = 0; command < 20 && counts().derived < transcripts; command++) {
    expect((await runCli(['jobs'], env)).code).toBe(0);
  }
  expect(counts().derived).toBe(transcripts);
  expect(preparationLines((await exported('after-upgrade.zip')).stderr)).toEqual([]);
});
