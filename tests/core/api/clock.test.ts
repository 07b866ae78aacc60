import { describe, expect, it } from 'vitest';
import { realClock } from '../../../src/core/api';

describe('realClock', () => {
  it('tells the wall-clock time', () => {
    const before = Date.now();
    const now = realClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('ends a long sleep as soon as it is aborted, with the abort reason', async () => {
    const controller = new AbortController();
    const sleeping = realClock.sleep(60_000, controller.signal);
    controller.abort(new Error('cancelled by test'));
    await expect(sleeping).rejects.toThrow('cancelled by test');
  });

  it('refuses to sleep on an already aborted signal', async () => {
    await expect(realClock.sleep(60_000, AbortSignal.abort(new Error('too late')))).rejects.toThrow(
      'too late',
    );
  });
});
