import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localApi, memoryKeyStore, openApp, type ScriptoriumApp } from '../../../src/core/app';
import type { JobDraft, ScriptoriumApi, SearchResults } from '../../../src/shared/contract';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { tempDir } from '../../support/cli';

// The Library tells the same truth as the corpus (issue 34): a library with markup and entities,
// videos bought again in the same language by another job, German ß, zh-Hans, pt-BR and Korean is
// exported, and every count and every row `search` reports is compared with a count made apart from
// Scriptorium's code, by tests/support/count_corpus_hits.py reading the exported txt files itself
// (Python's str.casefold() for Unicode's full case folding).

const COUNTER = fileURLToPath(new URL('../../support/count_corpus_hits.py', import.meta.url));

/** A term as the independent counter reads it: words of a spaced script, or unspaced text. */
type Term = { words: string[]; prefix?: boolean } | { text: string };

interface Case {
  query: string;
  /** The same query, written out by hand for the counter (AND of ORs, and the excluded terms). */
  groups: Term[][];
  excluded?: Term[];
  jobId?: 'first' | 'korean';
  language?: string;
}

const word = (...words: string[]): Term => ({ words });
/** 엔진 as macOS file names and some keyboards give it: six conjoining jamo. */
const KOREAN_IN_JAMO = '엔진'.normalize('NFD');

const CASES: Case[] = [
  { query: 'river', groups: [[word('river')]] },
  { query: 'amp', groups: [[word('amp')]] },
  { query: 'b', groups: [[word('b')]] },
  { query: 'jerry', groups: [[word('jerry')]] },
  { query: '"jerry friends"', groups: [[word('jerry', 'friends')]] },
  { query: '"bold markup"', groups: [[word('bold', 'markup')]] },
  { query: 'größer', groups: [[word('größer')]] },
  { query: 'GRÖSSER', groups: [[word('GRÖSSER')]] },
  { query: 'grosser', groups: [[word('grosser')]] },
  { query: '엔진', groups: [[{ text: '엔진' }]] },
  { query: '엔진을 만든다', groups: [[{ text: '엔진을' }], [{ text: '만든다' }]] },
  { query: '引擎', groups: [[{ text: '引擎' }]] },
  { query: 'ques*', groups: [[{ words: ['ques'], prefix: true }]] },
  { query: 'river OR fluss', groups: [[word('river'), word('fluss')]] },
  { query: 'river -light', groups: [[word('river')]], excluded: [word('light')] },
  { query: '"small engine"', groups: [[word('small', 'engine')]] },
  { query: 'motor', groups: [[word('motor')]] },
  { query: 'motor', groups: [[word('motor')]], language: 'pt' },
  { query: '引擎', groups: [[{ text: '引擎' }]], language: 'zh' },
  { query: '엔진', groups: [[{ text: '엔진' }]], language: 'KO' },
  { query: 'river', groups: [[word('river')]], jobId: 'first' },
  { query: 'river', groups: [[word('river')]], jobId: 'korean' },
  { query: 'today', groups: [[word('today')]], language: 'en' },
  // The same words typed in compatibility forms (issue 43): conjoining jamo, fullwidth, halfwidth.
  { query: KOREAN_IN_JAMO, groups: [[{ text: KOREAN_IN_JAMO }]] },
  { query: 'ｒｉｖｅｒ', groups: [[word('ｒｉｖｅｒ')]] },
  { query: 'ＲＩＶＥＲ ｅｎｇｉｎｅ', groups: [[word('ＲＩＶＥＲ')], [word('ｅｎｇｉｎｅ')]] },
  { query: 'ｴﾝｼﾞﾝ', groups: [[{ text: 'ｴﾝｼﾞﾝ' }]] },
];

let sim: RunningSimulator;
let dataDir: string;
let app: ScriptoriumApp;
let api: ScriptoriumApi;
const jobs: Record<'first' | 'again' | 'korean', number> = { first: 0, again: 0, korean: 0 };
const corpora: Record<string, string> = {};

function draft(source: string, languages: string, overrides: Partial<JobDraft> = {}): JobDraft {
  return {
    sources: [{ where: 'line 1', text: source }],
    languages,
    includeTimestamp: true,
    sendMetadata: true,
    maxVideos: null,
    budget: null,
    concurrency: 4,
    formats: ['txt'],
    ...overrides,
  };
}

async function boughtAndExported(source: string, languages: string, overrides: Partial<JobDraft> = {}) {
  const { job } = await api.createJob({ draft: draft(source, languages, overrides), start: false });
  expect((await api.runJob({ jobId: job.id })).outcome.status).toBe('completed');
  const path = join(dataDir, `job-${job.id}.zip`);
  await api.exportJob({ jobId: job.id, formats: ['txt'], destination: path });
  corpora[String(job.id)] = path;
  return job.id;
}

interface Counted {
  videos: number;
  hits: number;
  rows: Array<[string, string, number, string]>;
  /** The hits again, a caption counted in every corpus that holds it. */
  in_every_corpus: number;
}

function countedApart(): Counted[] {
  const searches = CASES.map((c) => ({
    groups: c.groups,
    excluded: c.excluded ?? [],
    job: c.jobId === undefined ? null : jobs[c.jobId],
    language: c.language ?? null,
  }));
  const run = spawnSync('python3', [COUNTER], {
    input: JSON.stringify({ corpora, searches }),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`the counter failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Counted[];
}

/** The rows a search lists, as the counter names a caption: video, language, line, text. */
function rowsOf(found: SearchResults): Array<[string, string, number, string]> {
  return found.groups
    .flatMap((group) =>
      group.hits.map((hit): [string, string, number, string] => [
        group.videoId,
        group.language,
        hit.segment,
        hit.snippet.map((part) => part.text).join(''),
      ]),
    )
    .sort((a, b) => compare(a[0], b[0]) || compare(a[1], b[1]) || a[2] - b[2] || compare(a[3], b[3]));
}

/** Strings in the order of their code points, as Python sorts them. */
function compare(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return x.length - y.length;
}

let expected: Counted[];

beforeAll(async () => {
  sim = await startSimulator({ credits: 10_000 });
  dataDir = tempDir();
  app = openApp({
    dataDir,
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    serviceUrl: sim.url,
  });
  api = localApi(app);
  jobs.first = await boughtAndExported('PLlibraryTruth_n60', 'orig');
  // The same videos in the same language, bought again by another job (without times this time).
  jobs.again = await boughtAndExported('PLlibraryTruth_n60', 'orig', {
    includeTimestamp: false,
    maxVideos: 30,
  });
  jobs.korean = await boughtAndExported('PLlibraryTruthOthers_n60', 'ko,zh-Hans,pt-BR,de');
  expected = countedApart();
}, 120_000);

afterAll(async () => {
  await app.close();
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('every count the Library reports equals a count over the exported text', () => {
  it('holds what the issues name: markup, entities, a caption bought twice, ß, zh-Hans, pt-BR, Korean, and queries in compatibility forms', () => {
    const at = (query: string, language?: string) =>
      expected[CASES.findIndex((c) => c.query === query && c.language === language && c.jobId === undefined)];
    expect(at('river')?.in_every_corpus, 'captions bought twice').toBeGreaterThan(at('river')?.hits ?? 0);
    expect(at('"jerry friends"')?.hits).toBeGreaterThan(0);
    expect(at('"bold markup"')?.hits).toBeGreaterThan(0);
    expect(at('amp')?.hits).toBe(0);
    expect(at('größer')?.hits).toBeGreaterThan(0);
    expect(at('엔진')?.hits).toBeGreaterThan(0);
    expect(at('引擎', 'zh')?.rows.map((row) => row[1])).toContain('zh-Hans');
    expect(at('motor', 'pt')?.rows.map((row) => row[1])).toContain('pt-BR');
    expect(KOREAN_IN_JAMO).toHaveLength(6);
    expect(at(KOREAN_IN_JAMO)?.hits).toBe(at('엔진')?.hits);
    expect(at('ｒｉｖｅｒ')?.hits).toBe(at('river')?.hits);
    expect(at('ｴﾝｼﾞﾝ')?.hits).toBeGreaterThan(0);
  });

  it.each(CASES.map((c, index) => [index, c] as const))('search %i: %o', async (index, c) => {
    const search = {
      query: c.query,
      jobId: c.jobId === undefined ? null : jobs[c.jobId],
      language: c.language ?? null,
    };
    const found = await api.searchTranscripts({ ...search, limit: 1000 });
    const counted = expected[index];
    expect({ videos: found.videos, hits: found.hits }).toEqual({
      videos: counted?.videos,
      hits: counted?.hits,
    });
    expect(rowsOf(found)).toEqual(counted?.rows);
  });
});
