import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localApi, memoryKeyStore, openApp, type ScriptoriumApp } from '../../../src/core/app';
import { DATABASE_FILE, openDatabase } from '../../../src/core/store';
import { storeTranscript } from '../../../src/core/store/transcripts';
import type { ScriptoriumApi, Trend, TrendCell } from '../../../src/shared/contract';
import { runCli, tempDir } from '../../support/cli';

// Trends, the concordance and distinctive words (issue 47) against counts made apart from
// src/core, from the raw data this test stores: a library with exact dates, dates known to a few
// days, a month or a year, a video two listings date differently (one exactly) and one they date
// in contradiction, undated videos, three channels and a channel only the metadata names, English,
// French and Japanese, a transcript without times, a video bought again whole and one bought again
// with a caption changed. The reference's every bound is found by trying every way the uncertain
// videos' dates could fall, not by the rule the app applies.

type Seg = [text: string, start: number | null, duration: number | null];

interface Bought {
  job: 1 | 2 | 3;
  language: string;
  sendMetadata?: boolean;
  segments: Seg[];
}

interface VideoFixture {
  id: string;
  /** What list pages named as its channel; null for a video given alone. */
  channel: string | null;
  /** The metadata's author (the channel of a video no list named). */
  author: string;
  /** Per job that lists it: the published text and when the page was read (null: given alone). */
  listings: Array<{ job: 1 | 2 | 3; published: string | null; listedAt: string }>;
  bought: Bought[];
}

const T = (text: string, start: number | null = null, duration: number | null = null): Seg => [
  text,
  start,
  duration,
];

const VIDEOS: VideoFixture[] = [
  {
    id: 'vid01aaaaaa',
    channel: 'River Talks',
    author: 'River Talks',
    listings: [
      { job: 1, published: '2023-01-15', listedAt: '2023-06-01T00:00:00Z' },
      { job: 3, published: null, listedAt: '2023-06-01T00:00:00Z' },
    ],
    bought: [
      {
        job: 1,
        language: 'en',
        segments: [
          T('the quiet river runs', 0, 4),
          T('a lake of light', 4, 3),
          T('', 7, 1),
          T('river and sea', 8, 5),
        ],
      },
      {
        job: 3,
        language: 'en',
        sendMetadata: false,
        segments: [
          T('the quiet river runs', 0, 4),
          T('a lake of light', 4, 3),
          T('', 7, 1),
          T('river and sea', 8, 5),
        ],
      },
    ],
  },
  {
    id: 'vid02aaaaaa',
    channel: 'River Talks',
    author: 'River Talks',
    listings: [{ job: 1, published: '3 days ago', listedAt: '2023-01-20T08:00:00Z' }],
    bought: [
      {
        job: 1,
        language: 'en',
        segments: [T('nothing here at all', 0, 3), T('the river bends', 2, 4), T('slow water', 6, 2)],
      },
    ],
  },
  {
    id: 'vid03aaaaaa',
    channel: 'Lake Notes',
    author: 'Lake Notes',
    listings: [
      { job: 1, published: '1 month ago', listedAt: '2023-04-10T12:00:00Z' },
      { job: 2, published: '2023-02-20', listedAt: '2023-04-11T00:00:00Z' },
    ],
    bought: [
      {
        job: 1,
        language: 'en',
        segments: [
          T('lake water is calm', 0, 3),
          T('a quiet river joins the lake', 3, 3),
          T('sea birds', 6, 2),
        ],
      },
      {
        job: 2,
        language: 'en',
        sendMetadata: false,
        segments: [
          T('lake water is calm', 0, 3),
          T('a quiet river joins the lake', 3, 3),
          T('sea birds and river', 6, 2),
        ],
      },
    ],
  },
  {
    id: 'vid04aaaaaa',
    channel: 'Lake Notes',
    author: 'Lake Notes',
    listings: [{ job: 1, published: '2 weeks ago', listedAt: '2023-03-20T00:00:00Z' }],
    bought: [{ job: 1, language: 'en', segments: [T('river river river', 0, 2), T('lake', 2, 2)] }],
  },
  {
    id: 'vid05aaaaaa',
    channel: 'Sea Radio',
    author: 'Sea Radio',
    listings: [{ job: 2, published: '2023-03-01T10:00:00Z', listedAt: '2023-04-01T00:00:00Z' }],
    bought: [{ job: 2, language: 'en', segments: [T('the sea is loud', 0, 5), T('no river today', 5, 5)] }],
  },
  {
    id: 'vid06aaaaaa',
    channel: 'Sea Radio',
    author: 'Sea Radio',
    listings: [{ job: 2, published: '1 year ago', listedAt: '2024-02-15T00:00:00Z' }],
    bought: [
      {
        job: 2,
        language: 'fr',
        segments: [T('la rivière est calme', 0, 3), T('le café près de la mer', 3, 3)],
      },
    ],
  },
  {
    id: 'vid07aaaaaa',
    channel: null,
    author: 'Solo Author',
    listings: [{ job: 3, published: null, listedAt: '2023-06-01T00:00:00Z' }],
    bought: [{ job: 3, language: 'en', segments: [T('a river without a date', 0, 3), T('lake', 3, 1)] }],
  },
  {
    id: 'vid08aaaaaa',
    channel: 'River Talks',
    author: 'River Talks',
    listings: [{ job: 1, published: '2023-02-10', listedAt: '2023-06-01T00:00:00Z' }],
    bought: [{ job: 1, language: 'ja', segments: [T('静かな川の音', 0, 3), T('海と川', 3, 3)] }],
  },
  {
    id: 'vid09aaaaaa',
    channel: 'Lake Notes',
    author: 'Lake Notes',
    listings: [
      { job: 3, published: '2 years ago', listedAt: '2023-01-01T00:00:00Z' },
      { job: 1, published: '2023-01-25', listedAt: '2023-06-01T00:00:00Z' },
    ],
    bought: [{ job: 1, language: 'en', segments: [T('the lake and the sea', 0, 4)] }],
  },
  {
    id: 'vid10aaaaaa',
    channel: 'Sea Radio',
    author: 'Sea Radio',
    listings: [{ job: 2, published: '2023-03-15', listedAt: '2023-06-01T00:00:00Z' }],
    bought: [{ job: 2, language: 'en', segments: [T('river talk without times'), T('sea again')] }],
  },
  {
    id: 'vid11aaaaaa',
    channel: 'River Talks',
    author: 'River Talks',
    listings: [{ job: 1, published: '2023-02-02', listedAt: '2023-06-01T00:00:00Z' }],
    bought: [{ job: 1, language: 'en', segments: [T('mountains and snow', 0, 6), T('snow falls', 6, 6)] }],
  },
  {
    id: 'vid12aaaaaa',
    channel: 'Lake Notes',
    author: 'Lake Notes',
    listings: [{ job: 1, published: '2 weeks ago', listedAt: '2023-03-20T00:00:00Z' }],
    bought: [{ job: 1, language: 'fr', segments: [T('le lac est calme', 0, 3), T('rivière', 3, 1)] }],
  },
];

// ---------------------------------------------------------------------------------------------
// The reference: every count from VIDEOS, by rules written here.

const DAY = 86_400_000;
const RELATIVE_UNIT: Record<string, [number, number]> = {
  day: [DAY, DAY],
  week: [7 * DAY, 7 * DAY],
  month: [28 * DAY, 31 * DAY],
  year: [365 * DAY, 366 * DAY],
};

/** Days since the epoch of a listing's words: at least N and less than N + 1 units before the read. */
function listingDays(published: string, listedAt: string): [number, number] {
  const relative = /^(\d+) (day|week|month|year)s? ago$/.exec(published);
  if (relative !== null) {
    const n = Number(relative[1]);
    const [shortest, longest] = RELATIVE_UNIT[relative[2] ?? 'day'] ?? [DAY, DAY];
    const at = Date.parse(listedAt);
    return [Math.floor((at - (n + 1) * longest) / DAY), Math.floor((at - n * shortest) / DAY)];
  }
  const day = Math.floor(Date.parse(published.length === 10 ? `${published}T00:00:00Z` : published) / DAY);
  return [day, day];
}

/** The days every listing allows, or their span when they share none; null when none dates it. */
function videoDays(video: VideoFixture): [number, number] | null {
  const dated = video.listings
    .filter((l) => l.published !== null)
    .map((l) => listingDays(l.published ?? '', l.listedAt));
  if (dated.length === 0) return null;
  const first = Math.max(...dated.map((d) => d[0]));
  const last = Math.min(...dated.map((d) => d[1]));
  if (first <= last) return [first, last];
  return [Math.min(...dated.map((d) => d[0])), Math.max(...dated.map((d) => d[1]))];
}

type Unit = 'month' | 'year';
const periodKey = (day: number, unit: Unit): string =>
  new Date(day * DAY).toISOString().slice(0, unit === 'month' ? 7 : 4);

/** Words as the reference reads them: runs of letters and digits, lower case, Latin accents dropped. */
function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** A caption matches a query: a word, a "phrase", `a OR b`, or text in a script without spaces. */
function captionMatches(query: string, text: string): boolean {
  if (query.includes(' OR ')) return query.split(' OR ').some((q) => captionMatches(q, text));
  if (/\p{Script=Han}/u.test(query)) return text.includes(query);
  const wanted = words(query.replaceAll('"', ''));
  const have = words(text);
  return have.some((_, i) => wanted.every((w, j) => have[i + j] === w));
}

/** Each caption's milliseconds: to its end, or to the next caption's start when that comes first. */
function airtimes(segments: Seg[]): number[] {
  const ms = segments.map(() => 0);
  let next = Infinity;
  for (let i = segments.length - 1; i >= 0; i--) {
    const [text, start, duration] = segments[i] ?? ['', null, null];
    if (text.trim() === '' || start === null || duration === null) continue;
    const s = Math.round(start * 1000);
    const end = Math.round((start + duration) * 1000);
    ms[i] = (next > s ? Math.min(end, next) : end) - s;
    next = s;
  }
  return ms;
}

interface Transcript {
  order: number;
  video: VideoFixture;
  bought: Bought;
}

/** Every transcript in the order it is stored (its id's order). */
const TRANSCRIPTS: Transcript[] = VIDEOS.flatMap((video) =>
  video.bought.map((bought) => ({ video, bought })),
).map((t, order) => ({ ...t, order }));

const channelOf = (video: VideoFixture): string => video.channel ?? video.author;

/** The transcript a job's item of the video holds: the one bought in that job, else the first bought. */
const itemTranscript = (video: VideoFixture, job: 1 | 2 | 3): Bought | undefined =>
  video.bought.find((b) => b.job === job) ?? video.bought[0];

/** The captions a set of transcripts holds, each once (same video, language, place and text). */
function distinctCaptions(transcripts: Transcript[]): Array<{ t: Transcript; index: number }> {
  const seen = new Set<string>();
  const captions: Array<{ t: Transcript; index: number }> = [];
  for (const t of [...transcripts].sort((a, b) => a.order - b.order))
    t.bought.segments.forEach(([text], index) => {
      if (text.trim() === '') return;
      const key = JSON.stringify([t.video.id, t.bought.language, index, text]);
      if (seen.has(key)) return;
      seen.add(key);
      captions.push({ t, index });
    });
  return captions;
}

interface VideoFigures {
  days: [number, number] | null;
  matching: boolean;
  hits: number;
  matchingMs: number;
  totalMs: number;
}

/** The videos of a group (its transcripts) with what the query finds in each. */
function figuresOf(transcripts: Transcript[], query: string): VideoFigures[] {
  const byVideo = new Map<string, VideoFigures>();
  for (const t of transcripts)
    byVideo.set(t.video.id, {
      days: videoDays(t.video),
      matching: false,
      hits: 0,
      matchingMs: 0,
      totalMs: 0,
    });
  for (const { t, index } of distinctCaptions(transcripts)) {
    const figures = byVideo.get(t.video.id);
    const [text] = t.bought.segments[index] ?? [''];
    const ms = airtimes(t.bought.segments)[index] ?? 0;
    if (figures === undefined) continue;
    figures.totalMs += ms;
    if (!captionMatches(query, text)) continue;
    figures.matching = true;
    figures.hits++;
    figures.matchingMs += ms;
  }
  return [...byVideo.values()];
}

/** The least and most of a ratio over every choice of the uncertain videos: tried one by one. */
function bruteRatio(
  certain: VideoFigures[],
  uncertain: VideoFigures[],
  part: (v: VideoFigures) => [number, number],
): [number, number] | null {
  let low = Infinity;
  let high = -Infinity;
  for (let mask = 0; mask < 1 << uncertain.length; mask++) {
    const chosen = [...certain, ...uncertain.filter((_, i) => (mask >> i) & 1)];
    const num = chosen.reduce((sum, v) => sum + part(v)[0], 0);
    const den = chosen.reduce((sum, v) => sum + part(v)[1], 0);
    if (den === 0) continue;
    low = Math.min(low, num / den);
    high = Math.max(high, num / den);
  }
  return low === Infinity ? null : [low, high];
}

type Measure = 'videos' | 'share' | 'hits' | 'airtime';

/** The reference's cell for one period (a set of days). */
function referenceCell(videos: VideoFigures[], inPeriod: (day: number) => boolean, measure: Measure) {
  const certain = videos.filter((v) => spans(v, inPeriod));
  const possible = videos.filter((v) => v.days !== null && overlaps(v.days, inPeriod));
  const uncertain = possible.filter((v) => !certain.includes(v));
  const sum = (list: VideoFigures[], f: (v: VideoFigures) => number) => list.reduce((s, v) => s + f(v), 0);
  const count = (f: (v: VideoFigures) => number) => ({ low: sum(certain, f), high: sum(possible, f) });
  switch (measure) {
    case 'videos': {
      const c = count((v) => (v.matching ? 1 : 0));
      return { ...c, count: c, of: null };
    }
    case 'hits': {
      const c = count((v) => v.hits);
      return { ...c, count: c, of: null };
    }
    case 'share': {
      const bounds = bruteRatio(certain, uncertain, (v) => [v.matching ? 1 : 0, 1]);
      return {
        low: bounds?.[0] ?? null,
        high: bounds?.[1] ?? null,
        count: count((v) => (v.matching ? 1 : 0)),
        of: count(() => 1),
      };
    }
    case 'airtime': {
      const bounds = bruteRatio(certain, uncertain, (v) => [v.matchingMs, v.totalMs]);
      const seconds = (b: { low: number; high: number }) => ({ low: b.low / 1000, high: b.high / 1000 });
      return {
        low: bounds?.[0] ?? null,
        high: bounds?.[1] ?? null,
        count: seconds(count((v) => v.matchingMs)),
        of: seconds(count((v) => v.totalMs)),
      };
    }
  }
}

/** Every day of the interval is in the period (checked day by day). */
function spans(v: VideoFigures, inPeriod: (day: number) => boolean): boolean {
  if (v.days === null) return false;
  for (let d = v.days[0]; d <= v.days[1]; d++) if (!inPeriod(d)) return false;
  return true;
}

function overlaps(days: [number, number], inPeriod: (day: number) => boolean): boolean {
  for (let d = days[0]; d <= days[1]; d++) if (inPeriod(d)) return true;
  return false;
}

function referenceUndated(videos: VideoFigures[], measure: Measure) {
  const undated = videos.filter((v) => v.days === null);
  const all = referenceCell(
    undated.map((v) => ({ ...v, days: [0, 0] })),
    (d) => d === 0,
    measure,
  );
  return all;
}

// ---------------------------------------------------------------------------------------------
// The library, stored as a fetch stores it and indexed as the app does

let dataDir: string;
let app: ScriptoriumApp;
let api: ScriptoriumApi;
const jobIds: Record<1 | 2 | 3, number> = { 1: 0, 2: 0, 3: 0 };

beforeAll(async () => {
  dataDir = tempDir();
  const first = openApp({ dataDir, keys: memoryKeyStore() });
  const firstApi = localApi(first);
  for (const job of [1, 2, 3] as const) {
    const ids = VIDEOS.filter((v) => v.listings.some((l) => l.job === job)).map((v) => v.id);
    const { job: made } = await firstApi.createJob({
      draft: {
        sources: ids.map((id, i) => ({ where: `line ${i + 1}`, text: id })),
        languages: 'en',
        includeTimestamp: true,
        sendMetadata: true,
        maxVideos: null,
        budget: null,
        concurrency: 4,
        formats: ['txt'],
        name: `Job of fixture ${job}`,
      },
      start: false,
    });
    jobIds[job] = made.id;
  }
  await first.close();
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  const transcriptIds = new Map<Transcript, number>();
  for (const t of TRANSCRIPTS) {
    const timed = t.bought.segments.every(([, start]) => start !== null);
    const metadata =
      t.bought.sendMetadata === false ? {} : { metadata: { title: t.video.id, author_name: t.video.author } };
    const id = storeTranscript(db, {
      videoId: t.video.id,
      requestedLang: t.bought.language,
      includeTimestamp: timed,
      sendMetadata: t.bought.sendMetadata !== false,
      language: t.bought.language,
      title: t.video.id,
      segmentCount: t.bought.segments.length,
      body: JSON.stringify({
        video_id: t.video.id,
        language: t.bought.language,
        transcript: t.bought.segments.map(([text, start, duration]) =>
          timed ? { text, start, duration } : { text },
        ),
        ...metadata,
      }),
      fetchedAt: '2024-03-01T00:00:00.000Z',
    });
    transcriptIds.set(t, id);
  }
  // The items a list page would have given, dated as the fixture says (a new job's own are replaced).
  db.exec('DELETE FROM memberships; DELETE FROM items;');
  const item = db.prepare(
    `INSERT INTO items (job_id, source_id, position, number, video_id, title, status, transcript_id, channel_title,
                        published, listed_at, updated_at)
     VALUES (?, (SELECT id FROM sources WHERE job_id = ? AND source_id = ?), ?, ?, ?, ?, 'ok', ?, ?, ?, ?, 't')`,
  );
  for (const video of VIDEOS)
    for (const listing of video.listings) {
      const job = jobIds[listing.job];
      const bought = TRANSCRIPTS.find((t) => t.bought === itemTranscript(video, listing.job));
      const position = VIDEOS.indexOf(video) + 1;
      item.run(
        job,
        job,
        video.id,
        position,
        position,
        video.id,
        video.id,
        bought === undefined ? null : transcriptIds.get(bought),
        video.channel,
        listing.published,
        listing.listedAt,
      );
    }
  db.close();
  app = openApp({ dataDir, keys: memoryKeyStore() });
  api = localApi(app);
  await app.libraryIndexed;
});

afterAll(async () => {
  await app?.close();
});

// ---------------------------------------------------------------------------------------------

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

function expectCell(
  actual: TrendCell | undefined,
  expected: ReturnType<typeof referenceCell>,
  where: string,
) {
  const close = (a: number | null | undefined, b: number | null) =>
    a === null || b === null || a === undefined ? a === b : Math.abs(a - b) < 1e-9;
  const ok =
    actual !== undefined &&
    close(actual.low, expected.low) &&
    close(actual.high, expected.high) &&
    close(actual.count.low, expected.count.low) &&
    close(actual.count.high, expected.count.high) &&
    (expected.of === null
      ? actual.of === null
      : close(actual.of?.low, expected.of.low) && close(actual.of?.high, expected.of.high));
  if (!ok) expect({ where, actual }).toEqual({ where, expected });
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

// ---------------------------------------------------------------------------------------------
// The concordance

interface Kwic {
  videoId: string;
  segment: number;
  language: string;
  left: string;
  match: string;
  right: string;
  publishedFrom: string | null;
  channelTitle: string | null;
}

/** Every hit with `n` words each side (spaced scripts: the fixture's words are single-spaced). */
function referenceConcordance(query: string, n: number): Kwic[] {
  const rows: Kwic[] = [];
  for (const { t, index } of distinctCaptions(TRANSCRIPTS)) {
    const [text] = t.bought.segments[index] ?? [''];
    if (!captionMatches(query, text)) continue;
    const mine = text.split(' ');
    // Where each alternative's words stand in the caption: the match runs from the first to the last.
    const places = query.split(' OR ').flatMap((alternative) => {
      const wanted = words(alternative.replaceAll('"', '')).length;
      return mine.flatMap((_, i) =>
        captionMatches(alternative, mine.slice(i, i + wanted).join(' ')) ? [[i, i + wanted - 1]] : [],
      );
    });
    const first = Math.min(...places.map((p) => p[0] ?? 0));
    const last = Math.max(...places.map((p) => p[1] ?? 0));
    const before = t.bought.segments.slice(0, index).flatMap(([s]) => s.split(' ').filter((w) => w !== ''));
    const after = t.bought.segments.slice(index + 1).flatMap(([s]) => s.split(' ').filter((w) => w !== ''));
    const days = videoDays(t.video);
    rows.push({
      videoId: t.video.id,
      segment: index,
      language: t.bought.language,
      left: [...before, ...mine.slice(0, first)].slice(-n).join(' '),
      match: mine.slice(first, last + 1).join(' '),
      right: [...mine.slice(last + 1), ...after].slice(0, n).join(' '),
      publishedFrom: days === null ? null : new Date(days[0] * DAY).toISOString().slice(0, 10),
      channelTitle: channelOf(t.video),
    });
  }
  return rows;
}

const kwicKey = (row: Kwic) => `${row.videoId}/${row.language}/${row.segment}`;

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
const SORT_KEYS: Record<'relevance' | 'date' | 'channel' | 'left' | 'right', (row: Kwic) => string[]> = {
  relevance: () => [],
  date: (row) => [row.publishedFrom ?? '\uffff'],
  channel: (row) => [row.channelTitle === null ? '\uffff' : words(row.channelTitle).join(' ')],
  left: (row) => words(row.left).reverse(),
  right: (row) => words(row.right),
};

function compareKeys(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++)
    if (a[i] !== b[i]) return (a[i] ?? '') < (b[i] ?? '') ? -1 : 1;
  return a.length - b.length;
}

// ---------------------------------------------------------------------------------------------
// Distinctive words

const STOPWORDS = (await import('stopwords-iso/stopwords-iso.json')).default as Record<string, string[]>;

/** The index's words of a caption: spaced words, or pairs of characters (and the last alone) without spaces. */
function indexWords(text: string): string[] {
  return words(text).flatMap((word) => {
    if (!/[\p{Script=Han}\p{Script=Hiragana}]/u.test(word)) return [word];
    const chars = [...word];
    return chars.map((c, i) => c + (chars[i + 1] ?? ''));
  });
}

function referenceWords(side: (t: Transcript) => 'target' | 'reference' | 'neither') {
  const counts = { target: new Map<string, number>(), reference: new Map<string, number>() };
  const sizes = { target: 0, reference: 0 };
  const kept = TRANSCRIPTS.filter((t) => side(t) !== 'neither');
  for (const { t, index } of distinctCaptions(kept)) {
    const s = side(t);
    if (s === 'neither') continue;
    for (const word of indexWords(t.bought.segments[index]?.[0] ?? '')) {
      sizes[s]++;
      counts[s].set(word, (counts[s].get(word) ?? 0) + 1);
    }
  }
  const languages = new Set(kept.map((t) => t.bought.language));
  const stop = new Set(
    [...languages].flatMap((l) =>
      (STOPWORDS[l] ?? [])
        .map((w) => words(w))
        .filter((w) => w.length === 1)
        .map((w) => w[0]),
    ),
  );
  const [c, d] = [sizes.target, sizes.reference];
  const g2 = (a: number, b: number) => {
    const e1 = (c * (a + b)) / (c + d);
    const e2 = (d * (a + b)) / (c + d);
    return 2 * ((a === 0 ? 0 : a * Math.log(a / e1)) + (b === 0 ? 0 : b * Math.log(b / e2)));
  };
  return [...counts.target]
    .filter(([w, a]) => !stop.has(w) && /\p{L}/u.test(w) && a / c > (counts.reference.get(w) ?? 0) / d)
    .map(([w, a]) => ({
      word: w,
      target: a,
      reference: counts.reference.get(w) ?? 0,
      logLikelihood: g2(a, counts.reference.get(w) ?? 0),
    }))
    .sort((x, y) => y.logLikelihood - x.logLikelihood || (x.word < y.word ? -1 : 1));
}

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
