import { describe, expect, it } from 'vitest';
import { Pacer } from '../../../src/core/api';
import type { RateLimitSignal } from '../../../src/core/api';
import { FakeClock } from './fake-clock';

function signalAt(clock: FakeClock, remaining: number, resetSeconds: number): RateLimitSignal {
  return { limit: 300, remaining, resetSeconds, observedAt: clock.now() };
}

describe('Pacer', () => {
  it('lets requests through at once when no rate limit was ever observed', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    await Promise.all([pacer.wait(), pacer.wait(), pacer.wait()]);
    expect(clock.sleeps).toEqual([]);
  });

  it('spreads the remaining budget over the rest of the window', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    pacer.observe(signalAt(clock, 10, 10)); // 10 requests left for 10 s: about one a second
    await Promise.all([pacer.wait(), pacer.wait(), pacer.wait()]);
    const [first, second] = clock.sleeps;
    expect(clock.sleeps).toHaveLength(2); // the first request goes at once
    expect(first).toBeGreaterThanOrEqual(1000);
    expect(first).toBeLessThan(1150);
    expect(second).toBeCloseTo(2 * (first ?? 0), 5);
  });

  it('does not hold back a request when enough time has passed since the last one', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    pacer.observe(signalAt(clock, 100, 60));
    await pacer.wait();
    clock.advance(5_000);
    await pacer.wait();
    expect(clock.sleeps).toEqual([]);
  });

  it('waits for the reset when nothing is left in the window', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    pacer.observe(signalAt(clock, 0, 30));
    clock.advance(10_000);
    await pacer.wait();
    expect(clock.sleeps).toEqual([20_000]);
  });

  it('stops pacing once the observed window is over', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    pacer.observe(signalAt(clock, 0, 30));
    clock.advance(30_000);
    await Promise.all([pacer.wait(), pacer.wait()]);
    expect(clock.sleeps).toEqual([]);
  });

  it('follows the newest observation', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    pacer.observe(signalAt(clock, 0, 30));
    pacer.observe(signalAt(clock, 1000, 60));
    await pacer.wait();
    expect(clock.sleeps).toEqual([]);
  });

  it('rejects promptly when aborted while waiting', async () => {
    const clock = new FakeClock();
    clock.holdSleeps = true;
    const pacer = new Pacer({ clock });
    pacer.observe(signalAt(clock, 0, 60));
    const controller = new AbortController();
    const waiting = pacer.wait(controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});
