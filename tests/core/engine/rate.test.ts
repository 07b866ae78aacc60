import { describe, expect, it } from 'vitest';
import { SlidingRate } from '../../../src/core/engine/rate';
import { FastClock } from './helpers';

describe('SlidingRate', () => {
  it('measures items per second over the window, forgetting older ones', () => {
    const clock = new FastClock();
    const rate = new SlidingRate(clock, 10_000);
    expect(rate.perSecond()).toBe(0);
    for (let i = 0; i < 20; i++) {
      clock.time += 100;
      rate.record();
    }
    expect(rate.perSecond()).toBeCloseTo(10, 0); // 20 items in the first 2 s
    clock.time += 8_000;
    expect(rate.perSecond()).toBeCloseTo(2, 0); // the same 20 over a full 10 s window
    clock.time += 10_000;
    expect(rate.perSecond()).toBe(0);
  });
});
