import { afterEach, expect, it, vi } from 'vitest';
import { JobRunner, RETRY_FIRST_MS, RETRY_MAX_MS } from '../../../src/core/app/job-runner';
import { FakeClock } from '../api/fake-clock';

// The job runner's back-off for a queued job that fails to start, on a fake clock: its sleeps are
// held until the test moves time and wakes the runner, so every wait is the runner's own choice.

let runner: JobRunner | undefined;
afterEach(async () => {
  await runner?.stop();
  runner = undefined;
});

/**
 * A runner over the queue `queued`, whose `run` fails while `failing` holds the job and otherwise
 * takes the job off the queue, as a run to its end does; the times it tried each, and what it logged.
 */
function startRunner(clock: FakeClock, queued: number[], failing: Set<number>) {
  const tried: Array<[number, number]> = [];
  const warnings: string[] = [];
  runner = new JobRunner({
    clock,
    queued: () => [...queued],
    logger: { warn: (message) => void warnings.push(message) },
    run: async (jobId) => {
      tried.push([jobId, clock.now()]);
      // A safety net for a runner that would retry without waiting: let the test see it and fail.
      if (tried.length > 50) await new Promise((resolve) => setTimeout(resolve, 10));
      if (failing.has(jobId)) throw new Error('the job could not start');
      queued.splice(queued.indexOf(jobId), 1);
    },
  });
  return { tried, warnings };
}

/** Resolves once the runner waits with the clock `count` times in all. */
const sleeps = (clock: FakeClock, count: number) =>
  vi.waitFor(() => expect(clock.sleeps.length).toBeGreaterThanOrEqual(count), {
    timeout: 5_000,
    interval: 1,
  });

it('retries a queued job that fails to start after a wait that doubles each time, up to a cap', async () => {
  const clock = new FakeClock();
  clock.holdSleeps = true;
  const start = clock.now();
  const { tried, warnings } = startRunner(clock, [7], new Set([7]));

  const expected: number[] = [];
  for (let failures = 1; failures <= 9; failures++) {
    const wait = Math.min(RETRY_FIRST_MS * 2 ** (failures - 1), RETRY_MAX_MS);
    expected.push(wait);
    // No more than a regular look (5 s) at a time, so that jobs queued elsewhere are still noticed.
    let left = wait;
    while (left > 0) {
      await sleeps(clock, clock.sleeps.length + 1);
      const slept = clock.sleeps.at(-1)!;
      expect(slept).toBeLessThanOrEqual(Math.min(left, 5_000));
      clock.advance(slept);
      left -= slept;
      runner!.wake();
    }
  }
  await vi.waitFor(() => expect(tried).toHaveLength(10), { timeout: 5_000, interval: 1 });
  const gaps = tried.slice(1).map(([, at], index) => at - tried[index]![1]);
  expect(gaps).toEqual(expected);
  expect(expected.slice(-2)).toEqual([RETRY_MAX_MS, RETRY_MAX_MS]);
  expect(tried[0]).toEqual([7, start]);
  expect(warnings[0]).toMatch(/Job 7 could not run; it is tried again in 5 s/);
});

it('runs the other queued jobs meanwhile, and forgets the back-off once the job starts', async () => {
  const clock = new FakeClock();
  clock.holdSleeps = true;
  const queue = [1, 2];
  const failing = new Set([1]);
  const { tried } = startRunner(clock, queue, failing);
  // Job 1 fails; job 2, queued behind it, runs at once.
  await vi.waitFor(() => expect(tried.map(([jobId]) => jobId)).toEqual([1, 2]), { timeout: 5_000 });
  await sleeps(clock, 1);
  expect(clock.sleeps.at(-1)).toBe(RETRY_FIRST_MS);

  // It can start now: it runs after its wait.
  failing.delete(1);
  clock.advance(RETRY_FIRST_MS);
  runner!.wake();
  await vi.waitFor(() => expect(tried).toHaveLength(3), { timeout: 5_000 });
  expect(queue).toEqual([]);

  // Queued again later and failing again, it waits the first wait again, not a doubled one.
  await sleeps(clock, 2);
  failing.add(1);
  queue.push(1);
  runner!.wake();
  await vi.waitFor(() => expect(tried).toHaveLength(4), { timeout: 5_000 });
  await sleeps(clock, 3);
  expect(clock.sleeps.at(-1)).toBe(RETRY_FIRST_MS);
});
