/**
 * Odd source files (issue 24): `--from` reads a CSV file as the desktop app reads one dropped on its
 * window (one function in src/shared for both faces), and a line too long to be a source is named by
 * its line, like any other refused line, instead of failing the whole request.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { readZip, runCli, tempDir } from '../support/cli';

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startSimulator({ credits: 1000 });
  dir = tempDir();
  env = {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
  };
});
afterAll(async () => {
  await sim.close();
});

describe('--from FILE.csv', () => {
  it('reads the first column as a dropped CSV file is read: no header row, quotes removed, lines kept', async () => {
    const csv = join(dir, 'sources.csv');
    writeFileSync(
      csv,
      'url,note\n"@csv_channel_n3","a channel, quoted"\n# not this one\nPLcsvSpreadsheet_n2;semicolons\nnot a source,x\n',
    );
    const out = join(dir, 'csv.zip');
    const result = await runCli(['export', '--from', csv, '--out', out], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'Skipping 1 invalid source:\n  line 5: "not a source" is not a valid source',
    );
    const zip = await readZip(out);
    expect(zip.manifest.sources).toEqual(['@csv_channel_n3', 'PLcsvSpreadsheet_n2']);
    expect(zip.manifest.counts.videos).toBe(5);
  });
});

describe('a line too long to be a source', () => {
  it('is refused by its line, and the others are exported', async () => {
    const list = join(dir, 'long-line.txt');
    writeFileSync(list, `dQw4w9WgXcQ\nhttps://www.youtube.com/watch?v=${'a'.repeat(5000)}\n`);
    const out = join(dir, 'long-line.zip');
    const result = await runCli(['export', '--from', list, '--out', out], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /^ {2}line 2: "https:\/\/www\.youtube\.com\/watch\?v=a+…" is not a valid source: too long: a source has at most 2048 characters/m,
    );
    expect((await readZip(out)).manifest.counts.videos).toBe(1);
  });

  it('as the only source, is refused with exit 2 and nothing sent', async () => {
    const before = sim.admin.requests().length;
    const result = await runCli(
      ['export', `search:${'x'.repeat(10_000)}`, '--out', join(dir, 'none.zip')],
      env,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/argument 1: "search:x+…" is not a valid source: too long/);
    expect(sim.admin.requests()).toHaveLength(before);
  });
});
