import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgressView, describeProgress, formatDuration } from '../../src/cli/progress';
import type { JobView } from '../../src/shared/contract';

const snapshot = (ok: number, overrides: Partial<JobView> = {}): JobView => ({
  id: 1,
  title: 'A playlist',
  name: null,
  status: 'running',
  sources: ['PLabcdefghijklmnop'],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: null,
  counts: {
    total: 1200,
    pending: 1200 - ok - 32,
    ok,
    unavailable: 20,
    failed: 12,
    skipped: 0,
    interrupted: 0,
  },
  creditsSpent: 431,
  creditsPossible: 0,
  budget: null,
  concurrency: 4,
  formats: ['txt'],
  stop: null,
  sourcesWalked: 3,
  sourcesTotal: 3,
  sourcesFailed: 0,
  ratePerSecond: 14.25,
  etaSeconds: 56,
  runningIn: 'here',
  waitingFor: null,
  citation: null,
  keepCurrent: {
    available: true,
    marked: false,
    lastSyncAt: null,
    nextSyncAt: null,
    autoExportPath: null,
    limitMessage: null,
    syncProblem: null,
  },
  ...overrides,
});

/** A stream that looks like a terminal or a pipe, and keeps what was written. */
function stream(isTTY: boolean) {
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString()));
  Object.assign(output, {
    isTTY,
    columns: 160,
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
  });
  return { output: output as unknown as NodeJS.WriteStream, text: () => written };
}

describe('terminal progress', () => {
  it('says counts, rate, ETA and credits in one line', () => {
    expect(describeProgress(snapshot(380))).toBe(
      '412/1,200 videos · 380 ok · 20 unavailable · 12 failed · 0 skipped · 14.3/s · ETA 56s · 431 credits',
    );
    // Videos a filter left out are done like the others: none of them is still to come.
    expect(describeProgress(snapshot(380, { counts: { ...snapshot(380).counts, skipped: 33 } }))).toMatch(
      /^445\/1,200 videos · 380 ok · 20 unavailable · 12 failed · 33 skipped · /,
    );
    expect(describeProgress(snapshot(0, { sourcesWalked: 1 }))).toContain('listing 1/3 sources');
    expect(formatDuration(null)).toBe('?');
    expect(formatDuration(3725)).toBe('1h02m');
  });

  it('prints plain periodic lines when not on a terminal, and the last state when stopped', () => {
    const { output, text } = stream(false);
    const view = createProgressView(output, 60_000);
    view.update(snapshot(10));
    view.update(snapshot(20)); // within the interval: not printed
    view.stop();
    expect(text().split('\n').filter(Boolean)).toEqual([
      describeProgress(snapshot(10)),
      describeProgress(snapshot(20)),
    ]);
    expect(text()).not.toContain('\u001b[');
  });

  it('prints the last state once when it was just printed', () => {
    const { output, text } = stream(false);
    const view = createProgressView(output, 0);
    view.update(snapshot(10));
    view.update(snapshot(20));
    view.stop();
    expect(text().split('\n').filter(Boolean)).toEqual([
      describeProgress(snapshot(10)),
      describeProgress(snapshot(20)),
    ]);
  });

  it('draws a live bar on a terminal', () => {
    const { output, text } = stream(true);
    const view = createProgressView(output);
    view.update(snapshot(600));
    view.stop();
    expect(text()).toContain('| 632/1,200 videos');
    expect(text()).toMatch(/█+░+ 52%/);
  });
});
