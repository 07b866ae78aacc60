import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptoriumApp } from '../../../src/core/app';
import type { ScriptoriumApi, Trend } from '../../../src/shared/contract';
import {
  itemTranscript,
  storeInstrumentsLibrary,
  type Transcript,
  TRANSCRIPTS,
  VIDEOS,
} from '../../support/instruments-library';
import {
  channelOf,
  expectCell,
  figuresOf,
  type Measure,
  periodKey,
  referenceCell,
  referenceUndated,
  type Unit,
  videoDays,
} from '../../support/instruments-reference';

// Trends (issue 47) against counts made apart from src/core (tests/support/instruments-library.ts):
// every figure and both its bounds, for every measure, by month and by year, per channel, job and
// language, the undated videos apart.

let app: ScriptoriumApp;
let api: ScriptoriumApi;
let jobIds: Record<1 | 2 | 3, number>;

beforeAll(async () => {
  ({ app, api, jobIds } = await storeInstrumentsLibrary());
});

afterAll(async () => {
  await app?.close();
});

type Per = 'channel' | 'job' | 'language' | null;

/** The groups of the reference: their key (as the app names it) and transcripts. */
function referenceGroups(per: Per): Array<{ key: string | null; transcripts: Transcript[] }> {
  const keyOf = (t: Transcript): string[] => {
    switch (per) {
      case null:
        return ['*'];
      case 'channel':
        return [channelOf(t.video)];
      case 'language':
        return [t.bought.language];
      case 'job':
        // A transcript is in each job an item of which holds it.
        return t.video.listings
          .filter((listing) => itemTranscript(t.video, listing.job) === t.bought)
          .map((listing) => String(jobIds[listing.job]));
    }
  };
  const groups = new Map<string, Transcript[]>();
  for (const t of TRANSCRIPTS) for (const key of keyOf(t)) groups.set(key, [...(groups.get(key) ?? []), t]);
  return [...groups].map(([key, transcripts]) => ({ key: per === null ? null : key, transcripts }));
}

function checkTrend(trend: Trend, queries: string[], unit: Unit, measure: Measure, per: Per) {
  const groups = referenceGroups(per);
  // The axis: every period any dated video of the scope may fall in.
  const days = VIDEOS.map(videoDays).filter((d): d is [number, number] => d !== null);
  const first = Math.min(...days.map((d) => d[0]));
  const last = Math.max(...days.map((d) => d[1]));
  const keys: string[] = [];
  for (let d = first; d <= last; d++) if (!keys.includes(periodKey(d, unit))) keys.push(periodKey(d, unit));
  expect(trend.periods.map((p) => p.label)).toEqual(keys);
  const shown = groups.filter(
    (g) => g.key === null || queries.some((q) => figuresOf(g.transcripts, q).some((v) => v.matching)),
  );
  expect(new Set(trend.series.map((s) => s.group))).toEqual(new Set(shown.map((g) => g.key)));
  for (const group of shown)
    for (const query of queries) {
      const series = trend.series.find((s) => s.group === group.key && s.query === query);
      expect(series, `${query} in ${group.key}`).toBeDefined();
      const videos = figuresOf(group.transcripts, query);
      keys.forEach((key, p) =>
        expectCell(
          series?.values[p],
          referenceCell(videos, (d) => periodKey(d, unit) === key, measure),
          `${query} / ${group.key} / ${key} / ${measure}`,
        ),
      );
      expectCell(
        series?.undated,
        referenceUndated(videos, measure),
        `${query} / ${group.key} / undated / ${measure}`,
      );
    }
}

describe('trends', () => {
  const QUERIES = ['river', '"quiet river"', 'lake OR sea', 'rivière', '川'];
  for (const unit of ['month', 'year'] as const)
    for (const measure of ['videos', 'share', 'hits', 'airtime'] as const)
      for (const per of [null, 'channel', 'job', 'language'] as const)
        it(`counts ${measure} by ${unit}${per === null ? '' : ` per ${per}`}, every bound as the dates allow`, async () => {
          const queries = per === null ? QUERIES : QUERIES.slice(0, 3);
          const trend = await api.libraryTrends({ queries, by: unit, measure, per });
          checkTrend(trend, queries, unit, measure, per);
        });

  it('shows the periods of a window of dates, each counted as without it', async () => {
    const trend = await api.libraryTrends({
      queries: ['river'],
      by: 'month',
      measure: 'share',
      publishedAfter: '2023-02-15',
      publishedBefore: '2023-03-01',
    });
    expect(trend.periods.map((p) => p.label)).toEqual(['2023-02', '2023-03']);
    const videos = figuresOf(TRANSCRIPTS, 'river');
    trend.periods.forEach((period, p) =>
      expectCell(
        trend.series[0]?.values[p],
        referenceCell(videos, (d) => periodKey(d, 'month') === period.label, 'share'),
        period.label,
      ),
    );
    await expect(
      api.libraryTrends({ queries: ['river'], by: 'day', publishedAfter: '1990-01-01' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/at most 10,000/),
    });
  });

  it('refuses a query it cannot read, plainly', async () => {
    await expect(api.libraryTrends({ queries: ['"river'] })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
