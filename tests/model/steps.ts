/**
 * The operations the model runs, as plain data (so that a failing sequence can be recorded and
 * replayed), and how a step becomes a command line. generate.ts draws them.
 */
import type { PlaylistEdit } from '../../src/simulator';
import type { ChannelName } from './catalog';
import { itemsText, type JobArgs } from './selection';

/** Who made the corpus, as `export` takes it; each part may be given alone. */
export interface Citation {
  authors?: string[];
  /** The ORCID iD of the author of the same rank ('' for none). */
  orcids?: string[];
  license?: string;
  title?: string;
  description?: string;
}

/** How an export runs besides what makes its job: formats, budget, concurrency, where it writes. */
export interface ExportHow {
  citation?: Citation;
  /** Over the job's earlier ZIP, or to a new file. */
  out: 'same' | 'new';
  retry?: 'failed' | 'unavailable';
  /** Another formats list than the job's first (formats are not part of a job). */
  formats?: string;
  budget?: number;
  concurrency?: number;
  /** The sources as arguments, or in a --from file (comments and blank lines included). */
  from?: 'file' | 'csv';
}

/** A fault the simulator answers one or more requests with. */
export type FaultSpec =
  /** A transcript request of one video: 404 (no captions), 500, 503. */
  | { kind: 'status'; status: 404 | 500 | 503 }
  /** Statuses tried again (three attempts in all), with a Retry-After that asks for no wait. */
  | { kind: 'retryable'; status: 408 | 429 | 502; times: number; retryAfter: 'seconds' | 'date' }
  /** A 200 whose body cannot be read, or is cut off after the status: charged, the video failed. */
  | { kind: 'body'; body: 'malformed' | 'truncated' }
  /** The next list page of a kind fails. */
  | { kind: 'list'; endpoint: 'playlist/videos' | 'channel/videos'; status: 404 | 500 | 503 }
  /** The next request, whatever it is, refuses the key. */
  | { kind: 'key'; status: 401 | 403 }
  /** Every transcript request answers 503 for a while: the run stops after ten in a row. */
  | { kind: 'storm'; count: number };

export type Step =
  | ({ op: 'export'; job: JobArgs } & ExportHow)
  | ({ op: 'exportAgain'; job: number } & ExportHow)
  | { op: 'preview'; job: JobArgs }
  | { op: 'upload'; channel: ChannelName; count: number }
  | { op: 'editPlaylist'; playlist: number; edit: PlaylistEdit }
  | { op: 'sync'; job: number }
  | { op: 'keep'; job: number; off?: boolean }
  | { op: 'syncAll'; any?: boolean; dailyLimit?: number }
  /** A fault for the video `pick` chooses among those not stored yet (or the one named by `video`). */
  | { op: 'fault'; fault: FaultSpec; pick: number; video?: string }
  /** The account: credits left (a 402 once they run out) and its plan; a top-up adds a million. */
  | { op: 'account'; credits: number; plan: 'grant' | 'paid' | 'paused' }
  | { op: 'topUp' }
  | { op: 'clock'; advanceMs: number }
  | { op: 'search'; word: string; job?: number; lang?: string }
  /**
   * An export in a real `bin/scriptorium` process, stopped by a signal when the simulator receives
   * the command's `atRequest`-th request (SIGINT or SIGTERM once, twice: 'force', or SIGKILL).
   */
  | {
      op: 'kill';
      job: number;
      signal: 'SIGINT' | 'SIGTERM' | 'force' | 'SIGKILL';
      atRequest: number;
    }
  /** A second process asks for a job another `bin/scriptorium` process is running: exit 7. */
  | { op: 'busy'; job: number }
  /** A command refused up front (exit 2): nothing is created or sent. */
  | {
      op: 'refused';
      job: JobArgs;
      problem: 'srtWithoutTimestamps' | 'overlapTooLong' | 'badItems' | 'badDate';
    };

/** The options of `export` and `preview` that say what the job is. */
export function jobFlags(job: JobArgs): string[] {
  const flags: Array<[string, string | number | boolean | undefined]> = [
    ['--lang', job.lang],
    ['--no-timestamps', job.noTimestamps],
    ['--no-metadata', job.noMetadata],
    ['--max-videos', job.maxVideos],
    ['--items', job.items === undefined ? undefined : itemsText(job.items)],
    ['--match-title', job.matchTitle],
    ['--reject-title', job.rejectTitle],
    ['--min-duration', job.minDuration],
    ['--max-duration', job.maxDuration],
    ['--published-after', job.publishedAfter],
    ['--published-before', job.publishedBefore],
    ['--published-overlap', job.publishedOverlap],
    ['--skip-uncaptioned', job.skipUncaptioned],
  ];
  return asFlags(flags);
}

/** The options that shape the files (not the job): formats and chunk sizes. */
export function formatFlags(job: JobArgs, formats = job.formats): string[] {
  return asFlags([
    ['--formats', formats],
    ['--chunk-seconds', job.chunkSeconds],
    ['--chunk-overlap', job.chunkOverlap],
  ]);
}

export function citationFlags(citation: Citation | undefined): string[] {
  if (citation === undefined) return [];
  return [
    ...(citation.authors ?? []).flatMap((author) => ['--author', author]),
    ...(citation.orcids ?? []).flatMap((orcid) => ['--orcid', orcid]),
    ...(citation.license === undefined ? [] : ['--license', citation.license]),
    ...(citation.title === undefined ? [] : ['--title', citation.title]),
    ...(citation.description === undefined ? [] : ['--description', citation.description]),
  ];
}

function asFlags(flags: Array<[string, string | number | boolean | undefined]>): string[] {
  return flags.flatMap(([flag, value]) =>
    value === undefined || value === false ? [] : value === true ? [flag] : [flag, String(value)],
  );
}
