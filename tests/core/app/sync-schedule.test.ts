import { afterEach, expect, it, vi } from 'vitest';
import { SyncSchedule } from '../../../src/core/app/sync-schedule';
import { TimerClock } from '../api/fake-clock';

// The schedule alone, on a clock that moves only when the test moves it.

const HOUR_MS = 60 * 60_000;

let schedule: SyncSchedule | undefined;
afterEach(async () => {
  await schedule?.stop();
  schedule = undefined;
});

/** A schedule over `marked`, every `hours()`; what it synced and when, and what it logged. */
function startSchedule(
  clock: TimerClock,
  marked: number[],
  options: { hours?: () => number; sync?: (jobId: number) => Promise<void> } = {},
) {
  const synced: Array<[number, number]> = [];
  const warnings: string[] = [];
  schedule = new SyncSchedule({
    marked: () => [...marked],
    sync: async (jobId) => {
      synced.push([jobId, clock.now()]);
      await options.sync?.(jobId);
    },
    intervalMs: () => (options.hours?.() ?? 24) * HOUR_MS,
    onScheduled: () => undefined,
    clock,
    logger: { warn: (message) => void warnings.push(message) },
  });
  return { synced, warnings };
}

const syncedCount = (synced: unknown[], count: number) =>
  vi.waitFor(() => expect(synced).toHaveLength(count), { timeout: 5_000, interval: 1 });

it('syncs every marked job at start, then every interval counted from the start of the last round', async () => {
  const clock = new TimerClock();
  const start = clock.now();
  // Each sync takes an hour of the clock: the schedule must not drift by it.
  const { synced } = startSchedule(clock, [3, 5], { sync: async () => clock.advance(HOUR_MS) });
  await syncedCount(synced, 2);
  expect(synced).toEqual([
    [3, start],
    [5, start + HOUR_MS],
  ]);
  await vi.waitFor(() => expect(schedule?.nextSyncAt(3)).toBe(start + 24 * HOUR_MS), { timeout: 5_000 });
  expect(schedule?.nextSyncAt(5)).toBe(start + 24 * HOUR_MS);

  // Two hours have passed in the round: 22 more make a day since it started.
  clock.advance(22 * HOUR_MS);
  await syncedCount(synced, 4);
  expect(synced.slice(2)).toEqual([
    [3, start + 24 * HOUR_MS],
    [5, start + 25 * HOUR_MS],
  ]);
});

it('goes on with the round when a sync fails, saying so', async () => {
  const clock = new TimerClock();
  const { synced, warnings } = startSchedule(clock, [1, 2], {
    sync: async (jobId) => {
      if (jobId === 1) throw new Error('no key');
    },
  });
  await syncedCount(synced, 2);
  expect(synced.map(([jobId]) => jobId)).toEqual([1, 2]);
  expect(warnings).toEqual(['The automatic sync of job 1 failed; the next round tries again.']);
});

it('measures its wait again when the interval changes, and tells a job waiting in the round under way it is due now', async () => {
  const clock = new TimerClock();
  const start = clock.now();
  let hours = 24;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const { synced } = startSchedule(clock, [1, 2], {
    hours: () => hours,
    sync: (jobId) => (jobId === 1 ? held : Promise.resolve()),
  });
  await syncedCount(synced, 1);
  expect(schedule?.nextSyncAt(2)).toBe(start);
  release();
  await syncedCount(synced, 2);
  await vi.waitFor(() => expect(schedule?.nextSyncAt(2)).toBe(start + 24 * HOUR_MS), { timeout: 5_000 });

  hours = 2;
  schedule?.reschedule();
  await vi.waitFor(() => expect(schedule?.nextSyncAt(2)).toBe(start + 2 * HOUR_MS), { timeout: 5_000 });
  clock.advance(2 * HOUR_MS);
  await syncedCount(synced, 4);
  expect(synced.slice(2).map(([, at]) => at)).toEqual([start + 2 * HOUR_MS, start + 2 * HOUR_MS]);

  await schedule?.stop();
  expect(schedule?.nextSyncAt(1)).toBeUndefined();
  clock.advance(48 * HOUR_MS);
  expect(synced).toHaveLength(4);
});
