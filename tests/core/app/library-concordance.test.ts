import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptoriumApp } from '../../../src/core/app';
import type { ScriptoriumApi } from '../../../src/shared/contract';
import { runCli } from '../../support/cli';
import {
  storeInstrumentsLibrary,
  type Transcript,
  TRANSCRIPTS,
  type VideoFixture,
  VIDEOS,
} from '../../support/instruments-library';
import {
  channelOf,
  compareKeys,
  DAY,
  figuresOf,
  type Kwic,
  kwicKey,
  periodKey,
  referenceCell,
  referenceConcordance,
  referenceWords,
  SORT_KEYS,
  videoDays,
} from '../../support/instruments-reference';

// The concordance, a period's hits, distinctive words and the command line (issue 47), against
// counts made apart from src/core (tests/support/instruments-library.ts).

let dataDir: string;
let app: ScriptoriumApp;
let api: ScriptoriumApi;

beforeAll(async () => {
  ({ dataDir, app, api } = await storeInstrumentsLibrary());
});

afterAll(async () => {
  await app?.close();
});

describe('concordance', () => {
  for (const query of ['river', '"quiet river"', 'lake OR sea', 'rivière'])
    it(`gives every hit of ${query} with three words each side, in every order`, async () => {
      const expected = referenceConcordance(query, 3);
      for (const sort of ['relevance', 'date', 'channel', 'left', 'right'] as const) {
        const { hits, rows } = await api.libraryConcordance({ query, context: 3, sort });
        expect(hits).toBe(expected.length);
        const shown = rows.map((row) => ({
          videoId: row.videoId,
          segment: row.segment,
          language: row.language,
          left: row.left,
          match: row.match,
          right: row.right,
          publishedFrom: row.publishedFrom,
          channelTitle: row.channelTitle,
        }));
        expect([...shown].sort((a, b) => kwicKey(a).localeCompare(kwicKey(b)))).toEqual(
          [...expected].sort((a, b) => kwicKey(a).localeCompare(kwicKey(b))),
        );
        const key = SORT_KEYS[sort];
        for (let i = 1; i < shown.length; i++)
          expect(
            compareKeys(key(shown[i - 1] as Kwic), key(shown[i] as Kwic)),
            `${sort} at ${i}`,
          ).toBeLessThanOrEqual(0);
      }
    });

  it('counts the words of Japanese as the index does, a pair of characters each', async () => {
    const { rows } = await api.libraryConcordance({ query: '川', context: 3, sort: 'relevance' });
    expect(rows.map((row) => [row.left, row.match, row.right]).sort()).toEqual(
      [
        ['静かな', '川', 'の音 海と'],
        // Three tokens back from 川 in 海と川: 海と, と, and 音 ending the caption before.
        ['音 海と', '川', ''],
      ].sort(),
    );
  });

  it('writes every hit as CSV with Export hits, one line each', async () => {
    const destination = join(dataDir, 'concordance.csv');
    const written = await api.exportSearchResults({
      query: 'river',
      destination,
      concordance: { context: 3, sort: 'left' },
    });
    expect(written.hits).toBe(referenceConcordance('river', 3).length);
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(destination, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe(
      'video_id,transcript_id,language,title,channel_title,published_from,published_to,time,start_seconds,url,left,match,right',
    );
    expect(lines).toHaveLength(written.hits + 1);
  });
});

/** Order keys as the reference reads the sorts: words folded, compared by code point. */

describe('distinctive words', () => {
  const inMonth = (t: Transcript, month: string) => {
    const days = videoDays(t.video);
    if (days === null) return 'neither';
    const first = periodKey(days[0], 'month');
    const last = periodKey(days[1], 'month');
    if (first === month && last === month) return 'target';
    return first <= month && month <= last ? 'neither' : 'reference';
  };
  const CASES = [
    {
      name: 'of a query',
      request: { query: 'river' },
      side: (t: Transcript) => (figuresOf([t], 'river')[0]?.matching ? 'target' : 'reference'),
    },
    { name: 'of a month', request: { period: '2023-02' }, side: (t: Transcript) => inMonth(t, '2023-02') },
    {
      name: 'of a channel',
      request: { targetChannel: 'LAKE notes' },
      side: (t: Transcript) => (channelOf(t.video) === 'Lake Notes' ? 'target' : 'reference'),
    },
  ] as const;
  for (const { name, request, side } of CASES)
    it(`ranks the words ${name} by log-likelihood against the rest, without stop words`, async () => {
      const found = await api.distinctiveWords({ ...request, limit: 500 });
      const expected = referenceWords(side as (t: Transcript) => 'target' | 'reference' | 'neither');
      expect(found.words.map((w) => [w.word, w.target, w.reference])).toEqual(
        expected.map((w) => [w.word, w.target, w.reference]),
      );
      found.words.forEach((w, i) =>
        expect(w.logLikelihood).toBeCloseTo(expected[i]?.logLikelihood ?? NaN, 9),
      );
    });

  it('asks for a target, and reads a period plainly or refuses it', async () => {
    await expect(api.distinctiveWords({})).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(api.distinctiveWords({ period: '2023-13' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });
});

describe("a period's hits", () => {
  it('lists the hits of the videos that may have been published in the period, and counts them', async () => {
    const within = { from: '2023-02-01', to: '2023-02-28' };
    const [from, to] = [Date.parse('2023-02-01') / DAY, Date.parse('2023-02-28') / DAY];
    const expected = referenceConcordance('river', 3).filter((row) => {
      const days = videoDays(VIDEOS.find((v) => v.id === row.videoId) as VideoFixture);
      return days !== null && days[0] <= to && from <= days[1];
    });
    const { hits, rows } = await api.libraryConcordance({ query: 'river', context: 3, sort: 'date', within });
    expect(hits).toBe(expected.length);
    expect(rows.map(kwicKey).sort()).toEqual(expected.map(kwicKey).sort());
  });
});

// ---------------------------------------------------------------------------------------------
// The command line, over the same data folder

describe('scriptorium trends, search --kwic and words', () => {
  const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);

  it('prints a table of every period with low–high where dates are intervals, the undated, and a sparkline', async () => {
    const { code, stdout } = await cli('trends', 'river', '--by', 'year');
    expect(code).toBe(0);
    const videos = figuresOf(TRANSCRIPTS, 'river');
    const lines = stdout.trimEnd().split('\n');
    // 2019: the span of vid09's contradictory listings begins there.
    for (const year of ['2019', '2020', '2021', '2022', '2023']) {
      const cell = referenceCell(videos, (d) => periodKey(d, 'year') === year, 'videos');
      const shown = cell.low === cell.high ? `${cell.low}` : `${cell.low}–${cell.high}`;
      expect(lines.find((line) => line.startsWith(year))?.split(/\s+/)[1]).toBe(shown);
    }
    expect(lines.find((line) => line.startsWith('undated'))?.split(/\s+/)[1]).toBe('1');
    expect(lines.at(-1)).toMatch(/^river {2}[▁-█ ]{5} {2}2019 to 2023$/u);
  });

  it('prints CSV with a line per period and the undated, and exits 1 with no match, 2 for a query it cannot read', async () => {
    const csv = await cli('trends', 'river', 'lake OR sea', '--by', 'year', '--measure', 'share', '--csv');
    expect(csv.code).toBe(0);
    const lines = csv.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('query,group,period,from,to,low,high,count_low,count_high,of_low,of_high');
    expect(lines).toHaveLength(1 + 2 * (5 + 1));
    expect((await cli('trends', 'zebra')).code).toBe(1);
    const refused = await cli('trends', '"river');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/quote/);
    expect((await cli('trends', 'a', 'b', 'c', 'd', 'e', 'f')).code).toBe(2);
    expect((await cli('trends', 'river', '--by', 'decade')).code).toBe(2);
  });

  it('prints every hit in context, as lines or as CSV', async () => {
    const expected = referenceConcordance('river', 3);
    const text = await cli('search', 'river', '--kwic', '--context', '3', '--sort', 'left');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${expected.length} hits.`);
    expect(text.stdout).toContain('the quiet [river] runs a lake');
    const csv = await cli('search', 'river', '--kwic', '--csv');
    expect(csv.stdout.trimEnd().split('\n')).toHaveLength(expected.length + 1);
    expect((await cli('search', 'river', '--sort', 'left')).code).toBe(2);
  });

  it('lists distinctive words, and says when there is no target', async () => {
    const words = await cli('words', 'river', '--limit', '3');
    expect(words.code).toBe(0);
    expect(words.stdout.split('\n')[0]).toMatch(/^word +target +rest of scope +log-likelihood$/);
    expect((await cli('words')).code).toBe(2);
    expect((await cli('words', 'zebra')).code).toBe(1);
  });
});
