import { describe, expect, it } from 'vitest';
import { closeBeforeQuit, type QuittingApp } from '../../src/main/quit';

/** A stand-in for Electron's app: quit() emits before-quit and quits unless a listener prevented it. */
function fakeApp() {
  const listeners: Array<(event: { preventDefault(): void }) => void> = [];
  const app: QuittingApp & { quits: number } = {
    quits: 0,
    on: (_event, listener) => void listeners.push(listener),
    quit() {
      let prevented = false;
      listeners.forEach((listener) => listener({ preventDefault: () => (prevented = true) }));
      if (!prevented) app.quits++;
    },
  };
  return app;
}

describe('quitting', () => {
  it('waits for the app to close (the running job drains, the database closes), then quits', async () => {
    const app = fakeApp();
    const steps: string[] = [];
    let finishClosing = (): void => undefined;
    closeBeforeQuit(
      app,
      () => {
        steps.push('close');
        return new Promise<void>((resolve) => (finishClosing = resolve));
      },
      () => steps.push('hide windows'),
    );
    app.quit();
    app.quit(); // a second Cmd+Q while draining
    expect(steps).toEqual(['hide windows', 'close']);
    expect(app.quits).toBe(0);

    finishClosing();
    await new Promise((resolve) => setImmediate(resolve));
    expect(app.quits).toBe(1);
    expect(steps).toEqual(['hide windows', 'close']);
  });

  it('quits even when closing fails, saying so', async () => {
    const app = fakeApp();
    const logged: unknown[][] = [];
    closeBeforeQuit(
      app,
      () => Promise.reject(new Error('disk gone')),
      () => undefined,
      { error: (...args: unknown[]) => void logged.push(args) },
    );
    app.quit();
    await new Promise((resolve) => setImmediate(resolve));
    expect(app.quits).toBe(1);
    expect(String(logged[0]?.[1])).toContain('disk gone');
  });
});
