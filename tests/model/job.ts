/**
 * What the reference model knows of one job: its lists and every read of them, its videos with the
 * statuses they may have now, and what its corpus looked like at each export. Plain records the
 * reference (reference.ts, reads.ts, fetches.ts) fills and the rules (rules/) read.
 */
import { canonical, kindOf, type SourceKind } from './catalog';
import type { JobArgs, Verdict } from './selection';
import type { Citation } from './steps';

export type Fetched = 'ok' | 'unavailable' | 'failed';
export type Status = Fetched | 'pending' | 'skipped';

/** When a command ran (epoch ms on the model's clock): a page it read was read in between. */
export interface Span {
  start: number;
  end: number;
  /**
   * How late a time the app records for this command may be: a process killed before it committed
   * a page leaves it to the next command, which reads it again (docs/product.md, the interrupt rule).
   */
  until?: number;
}

/** One read of a list: the whole list as it stood, and how far the read went into it. */
export interface ListRead {
  videos: string[];
  /** How many videos the read went through, from the start. */
  count: number;
  /** It read the list to its end. */
  whole: boolean;
  span: Span;
}

/** A list's place for a video: from the latest read that gave it, with that read's span. */
export interface Membership {
  position: number | null;
  since: Span;
  /** This list's verdict on the video. */
  verdict: Verdict;
}

export class ModelList {
  walk: 'pending' | 'done' | 'failed' | 'unavailable' = 'pending';
  /** The first walk started (it may span several commands when one stopped it). */
  walkSpan: Span | undefined;
  /** How far the first walk went: the videos of the pages it read (its cursor). */
  walked = 0;
  /** A channel resolved to its UC id (free, once). */
  resolved = false;
  /** A sync's read of it failed: the next run reads it again from its start, as a sync does. */
  failedBySync = false;
  readonly reads: ListRead[] = [];
  readonly members = new Map<string, Membership>();
  /** Videos a read named past the cap: no later read takes them. */
  readonly cuts = new Set<string>();
  /** The last failure of its walk, when it could not be walked. */
  failure: { httpStatus: number | null; code: string | null } | undefined;

  constructor(
    /** Its place among the job's sources. */
    readonly index: number,
    /** As the user typed it. */
    readonly typed: string,
  ) {}

  get kind(): SourceKind {
    return kindOf(this.typed);
  }
  /** What the simulator's describers take. */
  get name(): string {
    return canonical(this.typed);
  }
  /** A playlist or channel: what a sync reads again. */
  get synced(): boolean {
    return this.kind === 'playlist' || this.kind === 'channel';
  }
}

export interface ModelItem {
  videoId: string;
  /** Its corpus number, fixed when the job first listed it. */
  number: number;
  /** The version of the corpus that adds it (the one after the last released). */
  version: number;
  /** The source whose data index.csv gives it: the first list that named it, else its own. */
  source: number;
  /** Where that list first numbered it and when: what its records keep for good. */
  firstPlace: { position: number; since: Span } | undefined;
  /** Some list selects it ('yes'), none does ('no'), or the model cannot tell. */
  selected: Verdict;
  /** The statuses it may have now (one, unless the model cannot tell). */
  status: Set<Status>;
  /** Why it failed or was unavailable, when known: the last answer's status and code. */
  failure: { httpStatus: number | null; code: string | null } | undefined;
  /** Its list page came with channel/latest's exact publication time, which the corpus gives (one day). */
  exactDate?: boolean;
  /** The caption track of its transcript (when ok), and the language asked for as typed. */
  language: string | undefined;
  requested: string | undefined;
}

/** A line of changes.csv the reference expects (docs/product.md, ZIP layout). */
export interface ModelChange {
  version: number;
  videoId: string;
  change: 'added' | 'retried' | 'changed' | 'metadata';
  detail: string;
}

/** What one export wrote, for the rules that compare exports of one job. */
export interface ModelExport {
  sha256: string;
  version: number;
  /** What the ledger had charged the job when this export was written. */
  charged: number;
  /** The reference's digest of what the corpus is written from (undefined: not sure of it). */
  digest: string | undefined;
  /** Every entry's bytes, for the rules that compare a later export with it. */
  entries: Record<string, Uint8Array>;
}

export class ModelJob {
  readonly lists: ModelList[];
  readonly items = new Map<string, ModelItem>();
  /** The job's status as the reference knows it: not run yet, stopped midway, or finished. */
  state: 'new' | 'unfinished' | 'completed' = 'new';
  /**
   * Whether the reference still knows the job exactly; a command it cannot follow (a sync stopped
   * midway, say) leaves only the rules every corpus keeps.
   */
  exact = true;
  keep = false;
  /** Its last automatic sync stopped at the daily credit limit: the next `sync --all` continues it. */
  dailyLimited = false;
  /** --budget as last given (a run without one keeps the job's). */
  budget: number | undefined;
  /** The versions released (by the app's manifests) and the version its next change belongs to. */
  released = 0;
  /** What the ledger charged this job, and what a killed process may have left unrecorded. */
  charged = 0;
  slack = 0;
  syncs = 0;
  readonly exports: ModelExport[] = [];
  /**
   * The rows of changes.csv other than additions: each version's retries, lists and metadata. A
   * retry's row holds its status before until the version is released ('retried' with `before`).
   */
  readonly changes: ModelChange[] = [];
  /** Videos reset by a retry since the last release, with their status as changes.csv says it before. */
  readonly retrying = new Map<string, string>();
  /** Videos failed with a server error in the last run, which stopped as the service was down (a storm, or every request failed). */
  readonly stormFailed = new Set<string>();
  /**
   * `version|videoId` of each video given its exact time by channel/latest in that version: changes.csv
   * may say so (not when the words it was listed with already gave the day).
   */
  readonly exactDated = new Set<string>();
  /** Videos whose files may differ from the last export's: retried, or given another list's data. */
  readonly touched = new Set<string>();
  /** The citation its exports were given, part by part (what each later export keeps). */
  citation: Record<string, string> = {};
  /** The parts the last export that gave any gave (what main keeps: it drops the others). */
  citationLast: Record<string, string> = {};
  /** The corpus's metadata at the last release (changes.csv's metadata rows compare with it). */
  releasedMetadata: Record<string, string> | undefined;
  /** The syncs the job had when each version was released (manifest.json's syncs are a version's). */
  readonly syncsAt = new Map<number, number>();
  /** Whether the reference knows every row changes.csv should hold. */
  changesSure = true;

  constructor(
    readonly id: number,
    readonly args: JobArgs,
  ) {
    this.lists = args.sources.flatMap((source, index) =>
      kindOf(source) === 'video' ? [] : [new ModelList(index, source)],
    );
  }

  /** The videos given alone, with their place among the sources. */
  get videoSources(): Array<{ index: number; videoId: string }> {
    return this.args.sources.flatMap((source, index) =>
      kindOf(source) === 'video' ? [{ index, videoId: canonical(source) }] : [],
    );
  }

  get syncedLists(): ModelList[] {
    return this.lists.filter((list) => list.synced);
  }

  /** --lang's codes in order ('orig' for the original track). */
  get langs(): string[] {
    return (this.args.lang ?? 'orig').split(',').map((code) => code.trim());
  }

  get timestamps(): boolean {
    return this.args.noTimestamps !== true;
  }

  get metadata(): boolean {
    return this.args.noMetadata !== true;
  }

  /** The next version: what the job adds, retries or changes now belongs to it. */
  get pendingVersion(): number {
    return this.released + 1;
  }

  /**
   * The citation an export gives, part by part: a part given replaces the job's, the others are kept.
   */
  cite(citation: Citation | undefined): void {
    if (citation === undefined) return;
    const given: Record<string, string> = {
      ...(citation.title !== undefined && { title: citation.title }),
      ...(citation.description !== undefined && { description: citation.description }),
      ...(citation.authors !== undefined && {
        authors: JSON.stringify([citation.authors, citation.orcids ?? []]),
      }),
      ...(citation.license !== undefined && { license: citation.license }),
    };
    this.citation = { ...this.citation, ...given };
    this.citationLast = given;
  }

  /** Whether every video's status is known, and every list's read with it. */
  get certain(): boolean {
    return this.exact && [...this.items.values()].every((item) => item.status.size === 1);
  }
}

/** One status of a set the model is sure of, else undefined. */
export function only<T>(values: ReadonlySet<T>): T | undefined {
  return values.size === 1 ? [...values][0] : undefined;
}
