import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeStaleTempFiles } from '../../src/core/export/zip/temp-files';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { runCli, startCli, tempDir } from '../support/cli';

let sim: RunningSimulator;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ credits: 100_000 });
  dir = tempDir();
});

afterAll(async () => {
  await sim.close();
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isTemporary = (name: string) => name.endsWith('.partial') || name.endsWith('.spool');

it('the temporary files of an export killed while writing its ZIP are removed by the next export to that path', async () => {
  const folder = join(dir, 'zips');
  mkdirSync(folder);
  const out = join(folder, 'corpus.zip');
  // A thousand videos in four formats, some four thousand files, keep the ZIP phase busy for seconds.
  const args = [
    'export',
    'PLkilledWhileZipping_n1000',
    '--concurrency',
    '16',
    '--formats',
    'txt,json,srt,vtt',
    '--out',
    out,
  ];
  const env = {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
  };

  const running = startCli(args, env);
  let exited = false;
  void running.done.then(() => (exited = true));
  // Three spool files (the SHA256SUMS lines, index.csv and transcripts.jsonl, then memberships.csv's
  // and changes.csv's as the export reaches them) mean the ZIP has its first tables: the export is
  // then in the middle of the files.
  const spools = () => readdirSync(folder).filter((name) => name.endsWith('.spool'));
  while (!exited && spools().length < 3) await wait(5);
  expect(exited, 'the export ended before it started its ZIP').toBe(false);

  // A writer at work keeps its files, whoever else exports to the same path meanwhile (it may have
  // started more of them by then).
  const writing = readdirSync(folder).filter(isTemporary);
  await removeStaleTempFiles(out);
  const kept = readdirSync(folder);
  expect(writing.filter((name) => !kept.includes(name))).toEqual([]);

  running.child.kill('SIGKILL');
  expect((await running.done).signal).toBe('SIGKILL');
  const left = readdirSync(folder);
  expect(left.filter((name) => name.endsWith('.partial'))).toHaveLength(1);
  // However far it got, everything it left is its own.
  expect(left.filter((name) => name.endsWith('.spool')).length).toBeGreaterThanOrEqual(3);
  expect(left.every((name) => name.includes(`.${running.child.pid}.`))).toBe(true);

  const next = await runCli(args, env);
  expect(next.code, next.stderr).toBe(0);
  expect(readdirSync(folder)).toEqual(['corpus.zip']);
}, 60_000);
