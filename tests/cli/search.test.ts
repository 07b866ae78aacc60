import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { runCli, startCli, startCliSetup } from '../support/cli';
import { BACK_TO_SCHEMA_6 } from '../support/older-schema';

// `scriptorium search`, the built CLI against a data folder filled from the simulator: English,
// Japanese and French transcripts bought by `export`, then searched without sending anything.

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;

interface Results {
  videos: number;
  hits: number;
  groups: Array<{
    videoId: string;
    title: string;
    url: string;
    language: string;
    hits: Array<{ start: number | null; url: string; snippet: Array<{ text: string; match: boolean }> }>;
  }>;
}

async function searched(args: string[]): Promise<Results> {
  const run = await runCli(['search', ...args, '--json', '--limit', '1000'], env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Results;
}

beforeAll(async () => {
  ({ sim, dir, env } = await startCliSetup(10_000));
  for (const [source, lang] of [
    ['PLcliSearchEnglish_n20', 'en'],
    ['PLcliSearchJapanese_n20', 'ja'],
    ['PLcliSearchFrench_n20', 'fr'],
  ] as const) {
    const run = await runCli(['export', source, '--lang', lang, '--out', join(dir, `${lang}.zip`)], env);
    expect(run.code, run.stderr).toBe(0);
  }
}, 120_000);
afterAll(() => sim.close());

describe('scriptorium search', () => {
  it('prints one line per hit, grouped by video, with its time, marked snippet and link, then the totals', async () => {
    const requests = sim.admin.requests().length;
    const results = await searched(['river']);
    expect(results.hits).toBeGreaterThan(3);
    const run = await runCli(['search', 'river', '--limit', '1000'], env);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    const s = (n: number) => (n === 1 ? '' : 's');
    expect(lines.at(-1)).toBe(
      `${results.hits} hit${s(results.hits)} in ${results.videos} video${s(results.videos)}.`,
    );
    const hitLines = lines.slice(0, -1);
    expect(hitLines).toHaveLength(results.hits);
    // In the order of the groups: best video first, its hits in time order.
    const expected = results.groups.flatMap((g) => g.hits.map((h) => ({ g, h })));
    hitLines.forEach((line, index) => {
      const { g, h } = expected[index] ?? { g: undefined, h: undefined };
      const seconds = Math.floor(h?.start ?? 0);
      const time = `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
      expect(line.startsWith(`${g?.videoId}  ${g?.language}  `), line).toBe(true);
      expect(line).toMatch(/\[river\]/i);
      expect(line.endsWith(`  https://www.youtube.com/watch?v=${g?.videoId}&t=${seconds}s`), line).toBe(true);
      if (seconds < 3600) expect(line).toContain(`  ${time}  `);
      else expect(line).toMatch(/ {2}\d:\d\d:\d\d {2}/);
    });
    expect(sim.admin.requests().length).toBe(requests);
  });

  it('says how many are not shown under --limit', async () => {
    const results = await searched(['river']);
    const run = await runCli(['search', 'river', '--limit', '2'], env);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.at(-1)).toBe(
      `${results.hits} hits in ${results.videos} videos; the first 2 shown (--limit to see more).`,
    );
  });

  it('finds a Japanese substring', async () => {
    const results = await searched(['静か']);
    expect(results.hits).toBeGreaterThan(0);
    expect(results.groups.every((g) => g.language === 'ja')).toBe(true);
    const marked = results.groups.flatMap((g) => g.hits.flatMap((h) => h.snippet.filter((p) => p.match)));
    for (const part of marked) expect(part.text.replaceAll('静か', '')).toBe('');
    const run = await runCli(['search', '静か'], env);
    expect(run.stdout).toMatch(/\[静か\]/);
  });

  it('ignores diacritics: "lumiere" finds "lumière", narrowed to a language', async () => {
    const plain = await searched(['lumiere', '--lang', 'fr']);
    expect(plain.hits).toBeGreaterThan(0);
    expect(await searched(['LUMIÈRE'])).toEqual(plain);
    const run = await runCli(['search', 'lumiere'], env);
    expect(run.stdout).toMatch(/\[lumière\]/i);
    const none = await runCli(['search', 'lumiere', '--lang', 'en'], env);
    expect(none).toMatchObject({ code: 1, stdout: '0 hits in 0 videos.\n', stderr: '' });
  });

  it('narrows to a job, and writes every hit as CSV', async () => {
    const inJob = await searched(['river', '--job', '1']);
    expect(inJob.groups.every((g) => g.language === 'en')).toBe(true);
    const csv = await runCli(['search', 'river', '--job', '1', '--csv'], env);
    expect(csv.code, csv.stderr).toBe(0);
    const lines = csv.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('video_id,transcript_id,language,title,time,start_seconds,url,snippet');
    expect(lines.filter((line) => line.includes('&t=')).length).toBe(inJob.hits);
    expect(inJob.hits).toBeGreaterThan(2);
    // --limit applies to --csv too (without it, every hit above).
    const two = await runCli(['search', 'river', '--job', '1', '--csv', '--limit', '2'], env);
    expect(two.code, two.stderr).toBe(0);
    expect(two.stdout.trimEnd().split('\n')).toEqual(lines.slice(0, 3));
  });

  it('refuses a job that does not exist with exit 2, rather than finding nothing in it', async () => {
    const run = await runCli(['search', 'river', '--job', '99'], env);
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: 'There is no job 99.\n' });
  });

  it('ends quietly when the reader closes the output early (search … | head -1)', async () => {
    for (const format of [[], ['--csv'], ['--json']]) {
      // The reader is gone before the first line: every line meets a closed pipe.
      const cli = startCli(['search', 'the', '--limit', '1000', ...format], env);
      cli.child.stdout?.destroy();
      const run = await cli.done;
      expect(run, format.join(' ')).toMatchObject({ code: 0, stderr: '' });
    }
  });

  it('exits 2 with one plain line for a query it cannot read, and 1 when nothing matches', async () => {
    for (const [query, message] of [
      ['"river', 'A quote is not closed: add the closing " or remove the opening one.'],
      ['*', "A * stands for the end of a word: put it after the word's start, as in astro*."],
      [
        '-river',
        'Add a word to search for: a search of excluded words alone (-word) would match everything else.',
      ],
    ]) {
      // A query starting with - follows --, as for any command line.
      const run = await runCli(['search', '--', query ?? ''], env);
      expect(run, query).toMatchObject({ code: 2, stdout: '', stderr: `${message}\n` });
    }
    const long = await runCli(['search', 'a'.repeat(10_000)], env);
    expect(long).toMatchObject({ code: 2, stdout: '' });
    expect(long.stderr).toMatch(/^A search has at most 500 characters/);
    const nothing = await runCli(['search', 'zzyzx'], env);
    expect(nothing).toMatchObject({ code: 1, stdout: '0 hits in 0 videos.\n', stderr: '' });
    const bad = await runCli(['search', 'river', '--limit', '0'], env);
    expect(bad.code).toBe(2);
  });

  // Last: it takes the data folder back to the schema before the Library.
  it('prepares the transcripts of a database from before the Library first, telling its progress', async () => {
    const before = await searched(['river']);
    const db = new BetterSqlite3(join(env.SCRIPTORIUM_DATA_DIR ?? '', 'scriptorium.db'));
    const transcripts = db.prepare('SELECT count(*) FROM transcripts').pluck().get() as number;
    db.exec(BACK_TO_SCHEMA_6);
    db.close();
    const run = await runCli(['search', 'river', '--json', '--limit', '1000'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(
      `Preparing your stored transcripts for search and export: ${transcripts} of ${transcripts}`,
    );
    expect(JSON.parse(run.stdout)).toEqual(before);
    const again = await runCli(['search', 'river'], env);
    expect(again.stderr).toBe('');
  });
});
