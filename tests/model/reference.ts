/**
 * The reference model: what each job should hold after the commands so far, kept apart from
 * src/core. It knows what the simulator lists (its admin's describers), records every read of every
 * list a job makes, judges selection per list (selection.ts), and follows each transcript request
 * through the faults injected and the transcripts already stored. Where it cannot be sure (a date
 * two honest readings judge differently) it keeps every outcome it allows.
 */
import type { Describers, VideoDescription } from '../../src/simulator';
import { anySelects, selects, type JobArgs, type Verdict } from './selection';

export type Fetched = 'ok' | 'unavailable' | 'failed';
export type Status = Fetched | 'skipped';

/** One read of a list: the whole list as it stood, the videos the read named (its first --max-videos). */
export interface ListRead {
  videos: string[];
  named: string[];
  /** The command that read it: its start and end (ms). */
  start: number;
  end: number;
}

export interface Citation {
  authors?: string[];
  license?: string;
  title?: string;
  description?: string;
}

export interface ModelItem {
  selected: Verdict;
  /** What fetching it may have given; empty while it was never asked for. */
  fetched: Set<Fetched>;
}

export interface ModelExport {
  sha256: string;
  version: number;
  /** The job's credits when this export was written: a version's credits_spent is its release's. */
  credits: number | undefined;
}

export class ModelJob {
  readonly reads = new Map<string, ListRead[]>();
  readonly items = new Map<string, ModelItem>();
  /** Credits the ledger charged while this job alone ran; null once a `sync --all` mixed several. */
  credits: number | null = 0;
  keep = false;
  citation: Citation | undefined;
  /** Whether anything that may change its corpus happened since its last export. */
  touched = false;
  readonly exports: ModelExport[] = [];

  constructor(
    readonly id: number,
    readonly args: JobArgs,
  ) {}

  get lists(): string[] {
    return this.args.sources.filter((source) => listKind(source) !== 'video');
  }

  /** Lists a sync reads again: playlists and channels (a search is read once). */
  get syncedLists(): string[] {
    return this.args.sources.filter((source) => listKind(source) === 'list');
  }

  /** The statuses its corpus may give a video, or undefined when it should not be there. */
  allowed(videoId: string): Set<Status> | undefined {
    const item = this.items.get(videoId);
    if (item === undefined) return undefined;
    const allowed = new Set<Status>(item.selected === 'no' ? [] : item.fetched);
    if (item.selected !== 'yes') allowed.add('skipped');
    return allowed;
  }
}

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/** 'video' for a video given by itself, 'search' for a search, 'list' for a playlist or channel. */
export function listKind(source: string): 'video' | 'search' | 'list' {
  if (source.startsWith('search:')) return 'search';
  return VIDEO_ID.test(source) ? 'video' : 'list';
}

/** The ground truth of the whole run: the jobs, the transcripts stored, the faults waiting. */
export class ReferenceModel {
  readonly jobs: ModelJob[] = [];
  /** Transcripts stored in the data folder: 'yes', or 'maybe' where a request may have happened. */
  readonly stored = new Map<string, 'yes' | 'maybe'>();
  /** Faults injected and not yet surely used: the status each answers, and whether it may be spent. */
  readonly faults = new Map<string, { status: 404 | 500; maybeSpent: boolean }>();
  readonly #facts = new Map<string, VideoDescription>();

  constructor(readonly catalog: Describers) {}

  video(videoId: string): VideoDescription {
    const known = this.#facts.get(videoId);
    if (known !== undefined) return known;
    const facts = this.catalog.describeVideo(videoId);
    this.#facts.set(videoId, facts);
    return facts;
  }

  /** The job these arguments name (the same sources and options are the same job), made if new. */
  jobFor(args: JobArgs): { job: ModelJob; created: boolean } {
    const key = identity(args);
    const known = this.jobs.find((job) => identity(job.args) === key);
    if (known !== undefined) return { job: known, created: false };
    const job = new ModelJob(this.jobs.length + 1, args);
    this.jobs.push(job);
    return { job, created: true };
  }

  /** The list as the simulator serves it now: every video, in order. */
  listNow(job: ModelJob, source: string): string[] {
    if (source.startsWith('search:')) {
      return this.catalog.describeSearch(
        source.slice('search:'.length),
        Math.min(50, job.args.maxVideos ?? 50),
      );
    }
    if (source.startsWith('@')) return this.catalog.describeChannel(source).videoIds();
    return this.catalog.describePlaylist(source).videoIds();
  }

  /** A run of the job's first export: every list read once, video sources kept, every kept video fetched. */
  firstRun(job: ModelJob, span: { start: number; end: number }): void {
    for (const source of job.args.sources) {
      if (listKind(source) === 'video') job.items.set(source, { selected: 'yes', fetched: new Set() });
      else this.read(job, source, span);
    }
    this.fetchPending(job);
  }

  /** A sync: playlists and channels read again; what a read names for the first time is judged and fetched. */
  sync(job: ModelJob, span: { start: number; end: number }): void {
    for (const source of job.syncedLists) this.read(job, source, span);
    job.touched = true;
    this.fetchPending(job);
  }

  /** Retries what failed (or was unavailable); returns whether the corpus may have changed. */
  retry(job: ModelJob, outcome: 'failed' | 'unavailable'): boolean {
    let changed = false;
    for (const [videoId, item] of job.items) {
      if (item.selected === 'no' || !item.fetched.has(outcome)) continue;
      const surely = item.selected === 'yes' && item.fetched.size === 1;
      const again = this.request(videoId, surely);
      const rest = [...item.fetched].filter((status) => status !== outcome);
      item.fetched = new Set([...rest, ...again]);
      if (!surely || again.size !== 1 || !again.has(outcome)) changed = true;
    }
    if (changed) job.touched = true;
    return changed;
  }

  /**
   * Records a read of `source` and judges the videos it names for the first time: what an earlier
   * read of the list took or left out keeps that verdict, whatever place the video has now
   * (docs/product.md, Sync).
   */
  read(job: ModelJob, source: string, span: { start: number; end: number }): void {
    const videos = this.listNow(job, source);
    const cap = job.args.maxVideos ?? Infinity;
    const read: ListRead = { videos, named: videos.slice(0, cap), ...span };
    const reads = job.reads.get(source) ?? [];
    const namedBefore = new Set(reads.flatMap((earlier) => earlier.named));
    reads.push(read);
    job.reads.set(source, reads);
    for (const videoId of read.named) {
      if (namedBefore.has(videoId)) continue;
      const item = job.items.get(videoId) ?? { selected: 'no' as Verdict, fetched: new Set<Fetched>() };
      item.selected = anySelects([item.selected, this.verdict(job, read, videoId)]);
      job.items.set(videoId, item);
    }
  }

  verdict(job: ModelJob, read: ListRead, videoId: string): Verdict {
    const size = read.videos.length;
    return selects(job.args, this.video(videoId), {
      position: read.videos.indexOf(videoId) + 1,
      size,
      at: read.start,
    });
  }

  /** Fetches every kept video never asked for. */
  fetchPending(job: ModelJob): void {
    for (const [videoId, item] of job.items) {
      if (item.selected === 'no' || item.fetched.size > 0) continue;
      item.fetched = this.request(videoId, item.selected === 'yes');
    }
  }

  /** What asking for a transcript gives; `surely`: whether the request surely happens. */
  request(videoId: string, surely: boolean): Set<Fetched> {
    if (this.stored.get(videoId) === 'yes') return new Set(['ok']);
    const facts = this.video(videoId);
    const normal: Fetched = facts.hasCaptions ? 'ok' : 'unavailable';
    const outcomes = new Set<Fetched>([normal]);
    const fault = this.faults.get(videoId);
    if (fault !== undefined) {
      const faulted: Fetched = fault.status === 404 ? 'unavailable' : 'failed';
      if (surely && !fault.maybeSpent && this.stored.get(videoId) === undefined) outcomes.clear();
      outcomes.add(faulted);
      // A stored transcript may spare the request: then the fault waits still.
      if (surely && this.stored.get(videoId) === undefined) this.faults.delete(videoId);
      else fault.maybeSpent = true;
    }
    if (outcomes.has('ok')) {
      const certain = surely && outcomes.size === 1;
      if (certain || this.stored.get(videoId) !== 'yes') this.stored.set(videoId, certain ? 'yes' : 'maybe');
    }
    return outcomes;
  }

  /** Of these videos, those a fault can be aimed at: not stored, no fault yet, no job unsure of them. */
  faultTargets(candidates: Iterable<string>): string[] {
    const unsure = new Set(
      this.jobs.flatMap((job) =>
        [...job.items].filter(([, item]) => item.selected === 'either').map(([videoId]) => videoId),
      ),
    );
    return [...new Set(candidates)].filter(
      (videoId) => !this.stored.has(videoId) && !this.faults.has(videoId) && !unsure.has(videoId),
    );
  }
}

/** What makes two exports the same job: everything but the formats (docs/product.md). */
function identity(args: JobArgs): string {
  const { formats: _formats, ...rest } = args;
  return JSON.stringify(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)));
}
