import { dayNumber, periodOf, type PeriodUnit } from '../../shared/periods';
import { publishedInterval } from '../../shared/published';
import type { Database } from '../store';
import {
  airtimeTotals,
  changeMark,
  jobTranscriptPairs,
  publicationListings,
  transcriptChannels,
} from '../store/queries/library-context';
import type { TranscriptFacts } from './library-facts';

/** A video whose date no list page gave readably. */
export const UNDATED = -0x80000000;

/**
 * What trends, the concordance and distinctive words know of the stored transcripts besides their
 * text: each video's publication as an interval of days, each transcript's channel and jobs, and
 * each transcript's airtime in all. Unlike TranscriptFacts these can change (a sync reads a list
 * again, a video given alone is listed later), so they are read again whole, once per connection
 * whenever the database has changed since (store/queries/library-context.ts `changeMark`).
 */
export class LibraryContext {
  /** The first and last day a video (numbered as TranscriptFacts numbers it) may have been published. */
  private firstDay = new Int32Array(0);
  private lastDay = new Int32Array(0);
  /** Each transcript's channel, numbered; -1 when none is known. */
  private channel = new Int32Array(0);
  private readonly channels: string[] = [];
  private readonly jobs = new Map<number, number[]>();
  private airtime = new Float64Array(0);

  /** What the database was when these were read (changeMark and the transcripts known). */
  readonly mark: string;

  constructor(db: Database, facts: TranscriptFacts, mark: string) {
    this.mark = mark;
    const size = facts.size;
    this.firstDay = new Int32Array(size).fill(UNDATED);
    this.lastDay = new Int32Array(size).fill(UNDATED);
    this.readDates(db, facts);
    this.channel = new Int32Array(size).fill(-1);
    const numbers = new Map<string, number>();
    for (const [transcriptId, name] of transcriptChannels(db)) {
      if (name === null || transcriptId >= size) continue;
      let number = numbers.get(name);
      if (number === undefined) {
        number = this.channels.length;
        numbers.set(name, number);
        this.channels.push(name);
      }
      this.channel[transcriptId] = number;
    }
    for (const [jobId, transcriptId] of jobTranscriptPairs(db)) {
      const jobs = this.jobs.get(transcriptId) ?? [];
      jobs.push(jobId);
      this.jobs.set(transcriptId, jobs);
    }
    this.airtime = new Float64Array(size);
    for (const [transcriptId, ms] of airtimeTotals(db))
      if (transcriptId < size) this.airtime[transcriptId] = ms;
  }

  /**
   * A video's interval is what every list page that dated it allows: the days all their intervals
   * share. Listings that contradict each other (no day shared, which a service rounding its words
   * its own way could cause) leave the video dated by the span of them all, never more precisely
   * than they are.
   */
  private readDates(db: Database, facts: TranscriptFacts): void {
    const seen = new Map<string, [number, number] | null>();
    const hullFirst = new Map<number, number>();
    const hullLast = new Map<number, number>();
    for (const [videoId, published, listedAt] of publicationListings(db)) {
      const video = facts.videoNumber(videoId);
      if (video === undefined) continue;
      const key = `${published}\n${listedAt ?? ''}`;
      let days = seen.get(key);
      if (days === undefined) {
        const interval = publishedInterval(published, listedAt === null ? null : Date.parse(listedAt));
        days = interval === undefined ? null : [dayNumber(interval.from), dayNumber(interval.to)];
        seen.set(key, days);
      }
      if (days === null) continue;
      const [first, last] = days;
      const known = this.firstDay[video] !== UNDATED;
      this.firstDay[video] = known ? Math.max(this.firstDay[video] ?? first, first) : first;
      this.lastDay[video] = known ? Math.min(this.lastDay[video] ?? last, last) : last;
      hullFirst.set(video, Math.min(hullFirst.get(video) ?? first, first));
      hullLast.set(video, Math.max(hullLast.get(video) ?? last, last));
    }
    for (const [video, first] of hullFirst) {
      if ((this.firstDay[video] ?? 0) <= (this.lastDay[video] ?? 0)) continue;
      this.firstDay[video] = first;
      this.lastDay[video] = hullLast.get(video) ?? first;
    }
  }

  /** For each kind of period, the first and last period each video may be in (computed once). */
  private readonly periods = new Map<PeriodUnit, { first: Int32Array; last: Int32Array }>();

  /** The first and last period of `unit` the video may have been published in; null when undated. */
  periodsOf(video: number, unit: PeriodUnit): { first: number; last: number } | null {
    let periods = this.periods.get(unit);
    if (periods === undefined) {
      const first = new Int32Array(this.firstDay.length);
      const last = new Int32Array(this.firstDay.length);
      for (let v = 0; v < first.length; v++) {
        if (this.firstDay[v] === UNDATED) continue;
        first[v] = periodOf(this.firstDay[v] ?? 0, unit);
        last[v] = periodOf(this.lastDay[v] ?? 0, unit);
      }
      periods = { first, last };
      this.periods.set(unit, periods);
    }
    if ((this.firstDay[video] ?? UNDATED) === UNDATED) return null;
    return { first: periods.first[video] ?? 0, last: periods.last[video] ?? 0 };
  }

  /** The first and last day the video may have been published; null when undated. */
  daysOf(video: number): { first: number; last: number } | null {
    const first = this.firstDay[video] ?? UNDATED;
    if (first === UNDATED) return null;
    return { first, last: this.lastDay[video] ?? first };
  }

  /** The transcript's channel; null when no list page nor its metadata names one. */
  channelOf(transcriptId: number): string | null {
    const number = this.channel[transcriptId] ?? -1;
    return number < 0 ? null : (this.channels[number] ?? null);
  }

  /** The jobs that hold the transcript, in the order their items were listed. */
  jobsOf(transcriptId: number): readonly number[] {
    return this.jobs.get(transcriptId) ?? [];
  }

  /** The transcript's airtime in all, in ms (0 for one without times, or not indexed yet). */
  airtimeOf(transcriptId: number): number {
    return this.airtime[transcriptId] ?? 0;
  }
}

const perConnection = new WeakMap<Database, { mark: string; context: LibraryContext }>();

/** The context of every transcript in `facts`, read again when the database has changed since. */
export function libraryContext(db: Database, facts: TranscriptFacts): LibraryContext {
  const mark = `${changeMark(db)}:${facts.size}`;
  const cached = perConnection.get(db);
  if (cached !== undefined && cached.mark === mark) return cached.context;
  const context = new LibraryContext(db, facts, mark);
  perConnection.set(db, { mark, context });
  return context;
}
