import cliProgress from 'cli-progress';
import type { JobView } from '../shared/contract';
import { JOB_STATUS } from '../shared/vocabulary';
import { plural } from './plural';

/** Shows a running job as it changes: a live bar on a terminal, plain periodic lines otherwise. */
export interface ProgressView {
  update(job: JobView): void;
  /** A line worth reading on its own (a long wait), printed above the bar. */
  note(line: string): void;
  stop(): void;
}

export function createProgressView(stream: NodeJS.WriteStream, plainIntervalMs = 5_000): ProgressView {
  return stream.isTTY ? new LiveBar(stream) : new PlainLines(stream, plainIntervalMs);
}

/** Videos with an outcome: fetched, unavailable, failed, or left out by a filter. */
function videosDone({ counts }: JobView): number {
  return counts.ok + counts.unavailable + counts.failed + counts.skipped;
}

/**
 * "445/1,200 videos · 380 ok · 20 unavailable · 12 failed · 33 skipped · 14.2/s · ETA 56s · 431
 * credits": the counts add up to the videos done; the pace only while the job runs and has one.
 * Before any list has brought a video, it says the lists are being read, not "0/0 videos".
 */
export function describeProgress(snapshot: JobView): string {
  const { counts } = snapshot;
  const reading = snapshot.sourcesWalked < snapshot.sourcesTotal;
  const parts =
    counts.total === 0 && reading
      ? [`reading the lists: ${snapshot.sourcesWalked} of ${plural(snapshot.sourcesTotal, 'source')} read`]
      : [
          `${videosDone(snapshot).toLocaleString('en')}/${plural(counts.total, 'video')}`,
          ...(reading ? [`listing ${snapshot.sourcesWalked}/${snapshot.sourcesTotal} sources`] : []),
          `${counts.ok.toLocaleString('en')} ok`,
          `${counts.unavailable.toLocaleString('en')} unavailable`,
          `${counts.failed.toLocaleString('en')} failed`,
          `${counts.skipped.toLocaleString('en')} skipped`,
        ];
  if (snapshot.status === JOB_STATUS.running && snapshot.ratePerSecond > 0) {
    parts.push(`${snapshot.ratePerSecond.toFixed(1)}/s`);
    if (snapshot.etaSeconds !== null) parts.push(`ETA ${formatDuration(snapshot.etaSeconds)}`);
  }
  parts.push(plural(snapshot.creditsSpent, 'credit'));
  return parts.join(' · ');
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '?';
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole}s`;
  if (whole < 3600) return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
  return `${Math.floor(whole / 3600)}h${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')}m`;
}

class LiveBar implements ProgressView {
  readonly #bar: cliProgress.SingleBar;
  readonly #stream: NodeJS.WriteStream;
  #started = false;

  constructor(stream: NodeJS.WriteStream) {
    this.#stream = stream;
    this.#bar = new cliProgress.SingleBar(
      { stream, format: '{bar} {percentage}% | {summary}', hideCursor: true, fps: 10 },
      cliProgress.Presets.shades_classic,
    );
  }

  update(snapshot: JobView): void {
    const { counts } = snapshot;
    const done = videosDone(snapshot);
    const payload = { summary: describeProgress(snapshot) };
    if (!this.#started) {
      this.#bar.start(Math.max(counts.total, 1), done, payload);
      this.#started = true;
    }
    this.#bar.setTotal(Math.max(counts.total, 1));
    this.#bar.update(done, payload);
  }

  note(line: string): void {
    // Clear the bar's line, print ours, and let the bar redraw itself below on its next tick.
    this.#stream.write(`\r\x1b[2K${line}\n`);
  }

  stop(): void {
    if (this.#started) this.#bar.stop();
  }
}

class PlainLines implements ProgressView {
  #lastPrintedAt = 0;
  #latest: JobView | null = null;
  /** Whether the latest snapshot is the last line printed, so that stop() does not print it twice. */
  #latestPrinted = false;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly intervalMs: number,
  ) {}

  update(snapshot: JobView): void {
    this.#latest = snapshot;
    this.#latestPrinted = false;
    const now = Date.now();
    if (now - this.#lastPrintedAt >= this.intervalMs) {
      this.#lastPrintedAt = now;
      this.#latestPrinted = true;
      this.stream.write(`${describeProgress(snapshot)}\n`);
    }
  }

  note(line: string): void {
    this.stream.write(`${line}\n`);
  }

  stop(): void {
    if (this.#latest && !this.#latestPrinted) this.stream.write(`${describeProgress(this.#latest)}\n`);
  }
}
