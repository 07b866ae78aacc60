import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/core/api';
import { Throttle } from '../../../src/core/engine';

/**
 * A clock that moves only when the test says so; sleepers wake when their time comes, or
 * `wakesEarlyBy` ms before it, as a timer measured on another clock may.
 */
class ManualClock implements Clock {
  time = 0;
  #sleepers: Array<{ at: number; resolve: () => void }> = [];

  constructor(private readonly wakesEarlyBy = 0) {}

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const sleeper = { at: this.time + ms - this.wakesEarlyBy, resolve };
      this.#sleepers.push(sleeper);
      signal?.addEventListener('abort', () => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(signal.reason);
      });
    });
  }

  /** Moves time forward 1 ms at a time, waking sleepers and letting their callbacks run. */
  async advance(ms: number, eachMs?: () => void): Promise<void> {
    for (let i = 0; i < ms; i++) {
      this.time++;
      const due = this.#sleepers.filter((s) => s.at <= this.time);
      this.#sleepers = this.#sleepers.filter((s) => s.at > this.time);
      for (const sleeper of due) sleeper.resolve();
      await Promise.resolve();
      await Promise.resolve();
      eachMs?.();
    }
  }
}

function setup(intervalMs?: number, clock = new ManualClock()) {
  let state = 0;
  const emitted: Array<{ at: number; state: number }> = [];
  const throttle = new Throttle(() => emitted.push({ at: clock.now(), state }), {
    clock,
    ...(intervalMs !== undefined && { intervalMs }),
  });
  const change = (): void => {
    state++;
    throttle.poke();
  };
  return { clock, throttle, emitted, change };
}

describe('Throttle', () => {
  it('emits at most ten times per second however often things change', async () => {
    const { clock, emitted, change } = setup();
    change();
    await clock.advance(3000, change); // a change every millisecond for three seconds
    expect(emitted.length).toBeGreaterThanOrEqual(29);
    for (let i = 0; i + 10 < emitted.length; i++) {
      expect(emitted[i + 10]!.at - emitted[i]!.at).toBeGreaterThanOrEqual(1000);
    }
  });

  it('emits the first change at once and the last one at the end of the interval', async () => {
    const { clock, emitted, change } = setup();
    change();
    expect(emitted).toEqual([{ at: 0, state: 1 }]);
    await clock.advance(10);
    change();
    change();
    await clock.advance(50);
    expect(emitted).toHaveLength(1);
    await clock.advance(100);
    expect(emitted).toEqual([
      { at: 0, state: 1 },
      { at: 100, state: 3 },
    ]);
    await clock.advance(1000);
    expect(emitted).toHaveLength(2); // nothing changed, nothing emitted
  });

  it('never emits before the interval has passed, even when its sleep wakes early', async () => {
    const { clock, emitted, change } = setup(100, new ManualClock(40));
    change();
    change();
    await clock.advance(99);
    expect(emitted.map((e) => e.at)).toEqual([0]);
    await clock.advance(1);
    expect(emitted.map((e) => e.at)).toEqual([0, 100]);
  });

  it('counts the interval from the end of an emission, so a slow listener still hears changes an interval apart', async () => {
    const clock = new ManualClock();
    const heard: number[] = [];
    const throttle = new Throttle(
      () => {
        heard.push(clock.time);
        clock.time += 30; // the listener takes 30 ms
      },
      { clock },
    );
    throttle.poke();
    throttle.poke();
    await clock.advance(200);
    expect(heard).toEqual([0, 130]);
  });

  it('flush emits the final state at once and cancels the pending emission', async () => {
    const { clock, throttle, emitted, change } = setup();
    change();
    change();
    throttle.flush();
    expect(emitted.map((e) => e.state)).toEqual([1, 2]);
    await clock.advance(500);
    expect(emitted).toHaveLength(2);
  });

  it('emits nothing after dispose', async () => {
    const { clock, throttle, emitted, change } = setup(50);
    change();
    change();
    throttle.dispose();
    change();
    await clock.advance(200);
    throttle.flush();
    expect(emitted).toHaveLength(1);
  });
});
