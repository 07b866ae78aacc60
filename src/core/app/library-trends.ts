import type { Trend, TrendCell, TrendMeasure, TrendRequest } from '../../shared/contract';
import { dayDate, dayNumber, periodDays, periodLabel, periodOf, type PeriodUnit } from '../../shared/periods';
import type { Database } from '../store';
import { narrowingOf } from './library';
import { libraryContext, type LibraryContext } from './library-context';
import { transcriptFacts, type TranscriptFacts } from './library-facts';
import { trendCsv } from './analysis-tables';
import { AppError } from './errors';
import { byRatio, ratioBounds, ratioBoundsOfSorted, type RatioPart } from './ratio-bounds';
import { matchTallies, scopeTallies, type GroupsOf, type VideoTally } from './trend-tallies';

/**
 * Trends (docs/product.md, "Trends"): for each query, what it matches per period of the videos'
 * publication, with a lower and an upper bound, since a date known only as an interval lies for
 * sure in a period that holds it whole and only maybe in each other period it overlaps.
 */

/** Periods a trend may have, at most: 27 years of days. */
export const MAX_PERIODS = 10_000;

/** The groups of a trend (one, the scope, without `per`) and which a transcript of the scope is in. */
interface Groups {
  keys: Array<string | null>;
  labels: string[];
  of: GroupsOf;
}

function groupsFor(
  request: TrendRequest,
  facts: TranscriptFacts,
  context: LibraryContext,
  inScope: (transcriptId: number) => boolean,
  jobLabel: (jobId: number) => string,
): Groups {
  const keys: Array<string | null> = [];
  const labels: string[] = [];
  const numbers = new Map<string, number>();
  const numbered = (key: string, label: () => string): number => {
    let number = numbers.get(key);
    if (number === undefined) {
      number = keys.length;
      numbers.set(key, number);
      keys.push(key);
      labels.push(label());
    }
    return number;
  };
  const none: readonly number[] = [];
  const whole: readonly number[] = [0];
  switch (request.per) {
    case null:
      return { keys: [null], labels: ['All videos'], of: (id) => (inScope(id) ? whole : none) };
    case 'channel':
      return {
        keys,
        labels,
        of: (id) => {
          if (!inScope(id)) return none;
          const channel = context.channelOf(id) ?? '';
          return [numbered(channel, () => (channel === '' ? 'No channel named' : channel))];
        },
      };
    case 'language':
      return {
        keys,
        labels,
        of: (id) => (inScope(id) ? [numbered(facts.languageOf(id), () => facts.languageOf(id))] : none),
      };
    case 'job':
      return {
        keys,
        labels,
        of: (id) =>
          inScope(id) ? context.jobsOf(id).map((job) => numbered(String(job), () => jobLabel(job))) : none,
      };
  }
}

/** The contract's libraryTrends. */
export function libraryTrends(
  db: Database,
  request: TrendRequest,
  jobLabel: (jobId: number) => string,
): Trend {
  const facts = transcriptFacts(db);
  const context = libraryContext(db, facts);
  const { groups, scope } = scopeOf(db, request, facts, context, jobLabel);
  const groupCount = groups.keys.length;
  const withAirtime = request.measure === 'airtime';
  const matches = request.queries.map((query) =>
    matchTallies(db, query, facts, groups.of, groupCount, withAirtime),
  );
  const axis = axisOf(request, scope, context);
  const ranked = rankedGroups(groups, matches, request.per === null ? null : request.limit);
  const trend: Trend = {
    by: request.by,
    measure: request.measure,
    periods: axis.periods.map((period) => {
      const { first, last } = periodDays(period, request.by);
      return { label: periodLabel(period, request.by), from: dayDate(first), to: dayDate(last) };
    }),
    series: ranked.flatMap((group) => {
      const tally = scope[group] ?? new Map<number, { hits: number; airtimeMs: number }>();
      const sums = scopeSums(axis, tally, context);
      return request.queries.map((query, q) => {
        const cells = binned(request.measure, axis, tally, sums, matches[q]?.[group], context);
        return { query, group: groups.keys[group] ?? null, label: groups.labels[group] ?? '', ...cells };
      });
    }),
    groupsMatching: request.per === null ? 0 : rankedGroups(groups, matches, null).length,
    csv: null,
  };
  return request.withCsv ? { ...trend, csv: trendCsv(trend) } : trend;
}

/** The scope's groups and their videos, and what made them: the same until the database changes. */
const scopes = new WeakMap<Database, { key: string; groups: Groups; scope: VideoTally[] }>();

/**
 * The groups of the request's scope and every video of each, counted once for a scope and grouping
 * while nothing is written (a screen adding queries one by one asks for the same scope each time).
 */
function scopeOf(
  db: Database,
  request: TrendRequest,
  facts: TranscriptFacts,
  context: LibraryContext,
  jobLabel: (jobId: number) => string,
): { groups: Groups; scope: VideoTally[] } {
  const { jobId, language, channel, per } = request;
  const key = JSON.stringify([jobId, language, channel, per, context.mark]);
  const known = scopes.get(db);
  if (known?.key === key) return known;
  const groups = groupsFor(request, facts, context, narrowingOf(db, request, facts), jobLabel);
  // Every group is met here first, so the match tallies find them numbered.
  const scope = scopeTallies(db, facts, context, groups.of);
  scopes.set(db, { key, groups, scope });
  return { groups, scope };
}

/**
 * The groups shown: those some query matches a video of (the scope's one group always), most
 * matching videos first, at most `limit`.
 */
function rankedGroups(groups: Groups, matches: VideoTally[][], limit: number | null): number[] {
  const matching = groups.keys.map((_, group) =>
    matches.reduce((sum, tallies) => sum + (tallies[group]?.size ?? 0), 0),
  );
  const shown = groups.keys
    .map((_, group) => group)
    .filter((group) => groups.keys[group] === null || (matching[group] ?? 0) > 0)
    .sort(
      (a, b) =>
        (matching[b] ?? 0) - (matching[a] ?? 0) ||
        (groups.labels[a] ?? '').localeCompare(groups.labels[b] ?? ''),
    );
  return limit === null ? shown : shown.slice(0, limit);
}

/** The periods shown: the window's, else those any dated video of the scope may fall in. */
interface Axis {
  unit: PeriodUnit;
  first: number;
  periods: number[];
}

function axisOf(request: TrendRequest, scope: VideoTally[], context: LibraryContext): Axis {
  let first = Infinity;
  let last = -Infinity;
  for (const tally of scope)
    for (const video of tally.keys()) {
      const periods = context.periodsOf(video, request.by);
      if (periods === null) continue;
      first = Math.min(first, periods.first);
      last = Math.max(last, periods.last);
    }
  if (request.publishedAfter !== null) first = periodOf(windowDay(request.publishedAfter), request.by);
  if (request.publishedBefore !== null) last = periodOf(windowDay(request.publishedBefore), request.by);
  if (!(first <= last)) return { unit: request.by, first: 0, periods: [] };
  if (last - first + 1 > MAX_PERIODS)
    throw new AppError(
      'invalid_input',
      `These dates span ${(last - first + 1).toLocaleString('en-US')} ${request.by}s; a trend shows at most ${MAX_PERIODS.toLocaleString('en-US')}. Choose a longer period or a narrower window of dates.`,
    );
  const periods = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  return { unit: request.by, first, periods };
}

function windowDay(date: string): number {
  const day = dayNumber(date);
  if (Number.isNaN(day)) throw new AppError('invalid_input', `"${date}" is not a date (YYYY-MM-DD).`);
  return day;
}

/** Running sums over the periods: what is certain in each, and what is possible (diff array). */
class PeriodSums {
  readonly certain: Float64Array;
  private readonly possibleSteps: Float64Array;

  constructor(size: number) {
    this.certain = new Float64Array(size);
    this.possibleSteps = new Float64Array(size + 1);
  }

  add(value: number, from: number, to: number, certain: boolean): void {
    if (certain) this.certain[from] = (this.certain[from] ?? 0) + value;
    this.possibleSteps[from] = (this.possibleSteps[from] ?? 0) + value;
    this.possibleSteps[to + 1] = (this.possibleSteps[to + 1] ?? 0) - value;
  }

  possible(): Float64Array {
    const sums = new Float64Array(this.certain.length);
    let running = 0;
    for (let i = 0; i < sums.length; i++) sums[i] = running += this.possibleSteps[i] ?? 0;
    return sums;
  }
}

/** A video of the scope placed on the axis: the periods it may lie in, and whether surely in one. */
interface Placed {
  from: number;
  to: number;
  certain: boolean;
}

function placed(video: number, axis: Axis, context: LibraryContext): Placed | null | 'undated' {
  const periods = context.periodsOf(video, axis.unit);
  if (periods === null) return 'undated';
  const first = periods.first - axis.first;
  const last = periods.last - axis.first;
  const from = Math.max(first, 0);
  const to = Math.min(last, axis.periods.length - 1);
  return from > to ? null : { from, to, certain: first === last };
}

/** What a group's videos add up to per period, whatever the query: counted once per group. */
interface ScopeSums {
  videos: [Float64Array, Float64Array];
  airtime: [Float64Array, Float64Array];
  undated: { videos: number; airtimeMs: number };
}

function scopeSums(axis: Axis, scope: VideoTally, context: LibraryContext): ScopeSums {
  const size = axis.periods.length;
  const videos = new PeriodSums(size);
  const airtime = new PeriodSums(size);
  const undated = { videos: 0, airtimeMs: 0 };
  for (const [video, { airtimeMs }] of scope) {
    const place = placed(video, axis, context);
    if (place === 'undated') {
      undated.videos++;
      undated.airtimeMs += airtimeMs;
    } else if (place !== null) {
      videos.add(1, place.from, place.to, place.certain);
      airtime.add(airtimeMs, place.from, place.to, place.certain);
    }
  }
  return {
    videos: [videos.certain, videos.possible()],
    airtime: [airtime.certain, airtime.possible()],
    undated,
  };
}

/** One series' cells, period by period, and its undated videos' cell: the group's sums and the query's matches. */
function binned(
  measure: TrendMeasure,
  axis: Axis,
  scope: VideoTally,
  group: ScopeSums,
  matching: VideoTally | undefined,
  context: LibraryContext,
): { values: TrendCell[]; undated: TrendCell } {
  const size = axis.periods.length;
  const matchingVideos = new PeriodSums(size);
  const hits = new PeriodSums(size);
  const matchingAirtime = new PeriodSums(size);
  /** Uncertain videos with matching airtime: each may pull an airtime share its own way. */
  const pulling: Array<Placed & RatioPart> = [];
  const pullingAirtime = new PeriodSums(size);
  const undated = { ...group.undated, matching: 0, hits: 0, matchingMs: 0 };
  for (const [video, match] of matching ?? []) {
    const place = placed(video, axis, context);
    if (place === 'undated') {
      undated.matching++;
      undated.hits += match.hits;
      undated.matchingMs += match.airtimeMs;
      continue;
    }
    if (place === null) continue;
    const { from, to, certain } = place;
    matchingVideos.add(1, from, to, certain);
    hits.add(match.hits, from, to, certain);
    matchingAirtime.add(match.airtimeMs, from, to, certain);
    if (!certain && match.airtimeMs > 0 && measure === 'airtime') {
      const airtimeMs = scope.get(video)?.airtimeMs ?? match.airtimeMs;
      pulling.push({ ...place, num: match.airtimeMs, den: airtimeMs });
      pullingAirtime.add(airtimeMs, from, to, false);
    }
  }
  const cell = CELLS[measure];
  const sums: Sums = {
    videos: group.videos,
    matching: [matchingVideos.certain, matchingVideos.possible()],
    hits: [hits.certain, hits.possible()],
    airtime: group.airtime,
    matchingAirtime: [matchingAirtime.certain, matchingAirtime.possible()],
    pullingAirtime: pullingAirtime.possible(),
  };
  // Sorted once by their own share, then dealt to the periods each may be in, keeping that order.
  pulling.sort(byRatio);
  const pullingBy: RatioPart[][] = axis.periods.map(() => []);
  for (const video of pulling) for (let p = video.from; p <= video.to; p++) pullingBy[p]?.push(video);
  return {
    values: axis.periods.map((_, p) => cell(sums, p, () => pullingBy[p] ?? [])),
    undated: undatedCell(measure, undated),
  };
}

interface Sums {
  videos: [Float64Array, Float64Array];
  matching: [Float64Array, Float64Array];
  hits: [Float64Array, Float64Array];
  airtime: [Float64Array, Float64Array];
  matchingAirtime: [Float64Array, Float64Array];
  /** The airtime in all of the uncertain videos with matching airtime, possible in each period. */
  pullingAirtime: Float64Array;
}

type CellOf = (sums: Sums, p: number, pullingIn: () => RatioPart[]) => TrendCell;

const boundsAt = ([certain, possible]: [Float64Array, Float64Array], p: number, scale = 1) => ({
  low: (certain[p] ?? 0) / scale,
  high: (possible[p] ?? 0) / scale,
});

const CELLS: Record<TrendMeasure, CellOf> = {
  videos: (sums, p) => {
    const count = boundsAt(sums.matching, p);
    return { ...count, count, of: null };
  },
  hits: (sums, p) => {
    const count = boundsAt(sums.hits, p);
    return { ...count, count, of: null };
  },
  share: (sums, p) => {
    const count = boundsAt(sums.matching, p);
    const of = boundsAt(sums.videos, p);
    const uncertainMatching = count.high - count.low;
    const uncertainOthers = of.high - of.low - uncertainMatching;
    const bounds = ratioBounds({ num: count.low, den: of.low }, [
      { num: uncertainMatching, den: uncertainMatching },
      { num: 0, den: uncertainOthers },
    ]);
    return { low: bounds?.low ?? null, high: bounds?.high ?? null, count, of };
  },
  airtime: (sums, p, pullingIn) => {
    const count = boundsAt(sums.matchingAirtime, p, 1000);
    const of = boundsAt(sums.airtime, p, 1000);
    // The uncertain videos without matching airtime only ever pull the share down: one part, whose
    // share (0) is the lowest, before the others (sorted by their share already).
    const others = (sums.airtime[1][p] ?? 0) - (sums.airtime[0][p] ?? 0) - (sums.pullingAirtime[p] ?? 0);
    const bounds = ratioBoundsOfSorted(
      { num: sums.matchingAirtime[0][p] ?? 0, den: sums.airtime[0][p] ?? 0 },
      [{ num: 0, den: others }, ...pullingIn()],
    );
    return { low: bounds?.low ?? null, high: bounds?.high ?? null, count, of };
  },
};

function undatedCell(
  measure: TrendMeasure,
  undated: { videos: number; matching: number; hits: number; airtimeMs: number; matchingMs: number },
): TrendCell {
  const exact = (value: number) => ({ low: value, high: value });
  const ratio = (num: number, den: number) => (den === 0 ? null : num / den);
  switch (measure) {
    case 'videos':
      return { ...exact(undated.matching), count: exact(undated.matching), of: null };
    case 'hits':
      return { ...exact(undated.hits), count: exact(undated.hits), of: null };
    case 'share': {
      const value = ratio(undated.matching, undated.videos);
      return { low: value, high: value, count: exact(undated.matching), of: exact(undated.videos) };
    }
    case 'airtime': {
      const value = ratio(undated.matchingMs, undated.airtimeMs);
      return {
        low: value,
        high: value,
        count: exact(undated.matchingMs / 1000),
        of: exact(undated.airtimeMs / 1000),
      };
    }
  }
}
