import { expect } from 'vitest';
import type { TrendCell } from '../../src/shared/contract';
import { TRANSCRIPTS, type Seg, type Transcript, type VideoFixture } from './instruments-library';

/**
 * The reference of the tests of trends, the concordance and distinctive words: counts of the library
 * of instruments-library.ts made from its raw data by rules written here, apart from src/core.
 */

// ---------------------------------------------------------------------------------------------
// The reference: every count from VIDEOS, by rules written here.

export const DAY = 86_400_000;
const RELATIVE_UNIT: Record<string, [number, number]> = {
  day: [DAY, DAY],
  week: [7 * DAY, 7 * DAY],
  month: [28 * DAY, 31 * DAY],
  year: [365 * DAY, 366 * DAY],
};

/** Days since the epoch of a listing's words: at least N and less than N + 1 units before the read. */
export function listingDays(published: string, listedAt: string): [number, number] {
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
export function videoDays(video: VideoFixture): [number, number] | null {
  const dated = video.listings
    .filter((l) => l.published !== null)
    .map((l) => listingDays(l.published ?? '', l.listedAt));
  if (dated.length === 0) return null;
  const first = Math.max(...dated.map((d) => d[0]));
  const last = Math.min(...dated.map((d) => d[1]));
  if (first <= last) return [first, last];
  return [Math.min(...dated.map((d) => d[0])), Math.max(...dated.map((d) => d[1]))];
}

export type Unit = 'month' | 'year';
export const periodKey = (day: number, unit: Unit): string =>
  new Date(day * DAY).toISOString().slice(0, unit === 'month' ? 7 : 4);

/** Words as the reference reads them: runs of letters and digits, lower case, Latin accents dropped. */
export function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** A caption matches a query: a word, a "phrase", `a OR b`, or text in a script without spaces. */
export function captionMatches(query: string, text: string): boolean {
  if (query.includes(' OR ')) return query.split(' OR ').some((q) => captionMatches(q, text));
  if (/\p{Script=Han}/u.test(query)) return text.includes(query);
  const wanted = words(query.replaceAll('"', ''));
  const have = words(text);
  return have.some((_, i) => wanted.every((w, j) => have[i + j] === w));
}

/** Each caption's milliseconds: to its end, or to the next caption's start when that comes first. */
export function airtimes(segments: Seg[]): number[] {
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

export const channelOf = (video: VideoFixture): string => video.channel ?? video.author;

/** The captions a set of transcripts holds, each once (same video, language, place and text). */
export function distinctCaptions(transcripts: Transcript[]): Array<{ t: Transcript; index: number }> {
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

export interface VideoFigures {
  days: [number, number] | null;
  matching: boolean;
  hits: number;
  matchingMs: number;
  totalMs: number;
}

/** The videos of a group (its transcripts) with what the query finds in each. */
export function figuresOf(transcripts: Transcript[], query: string): VideoFigures[] {
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
export function bruteRatio(
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

export type Measure = 'videos' | 'share' | 'hits' | 'airtime';

/** The reference's cell for one period (a set of days). */
export function referenceCell(videos: VideoFigures[], inPeriod: (day: number) => boolean, measure: Measure) {
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

export function referenceUndated(videos: VideoFigures[], measure: Measure) {
  const undated = videos.filter((v) => v.days === null);
  const all = referenceCell(
    undated.map((v) => ({ ...v, days: [0, 0] })),
    (d) => d === 0,
    measure,
  );
  return all;
}

/** The library stored as a fetch stores it, dated as list pages date it, and indexed as the app does. */
export function expectCell(
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

// ---------------------------------------------------------------------------------------------
// The concordance

export interface Kwic {
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
export function referenceConcordance(query: string, n: number): Kwic[] {
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

export const kwicKey = (row: Kwic) => `${row.videoId}/${row.language}/${row.segment}`;

export const SORT_KEYS: Record<'relevance' | 'date' | 'channel' | 'left' | 'right', (row: Kwic) => string[]> =
  {
    relevance: () => [],
    date: (row) => [row.publishedFrom ?? '\uffff'],
    channel: (row) => [row.channelTitle === null ? '\uffff' : words(row.channelTitle).join(' ')],
    left: (row) => words(row.left).reverse(),
    right: (row) => words(row.right),
  };

export function compareKeys(a: string[], b: string[]): number {
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

export function referenceWords(side: (t: Transcript) => 'target' | 'reference' | 'neither') {
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
