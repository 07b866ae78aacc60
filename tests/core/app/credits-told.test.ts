import { afterEach, expect, it, vi } from 'vitest';
import { localApi, memoryKeyStore, openApp, type ScriptoriumApp } from '../../../src/core/app';
import type { CreditView } from '../../../src/shared/contract';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { tempDir } from '../../support/cli';
import { TimerClock } from '../api/fake-clock';

// A paid request is in the ledger, possibly charged, from just before it is sent until its answer is
// written (docs/product.md, "The interrupt rule"); one answered without a charge leaves it. The
// credits bar shows the ledger, so it must hear of that row leaving, though no credit was spent.

let sim: RunningSimulator;
let app: ScriptoriumApp;

afterEach(async () => {
  await app.close();
  await sim.close();
});

it('tells the faces the credits as the ledger holds them once the requests in flight at a 402 are answered', async () => {
  // No credit at all: every transcript request is answered 402 and costs nothing.
  sim = await startSimulator({ credits: 0 });
  // The app's time moves only when the test moves it: its events' throttles wait for the test.
  const clock = new TimerClock();
  app = openApp({
    dataDir: tempDir(),
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    serviceUrl: sim.url,
    clock,
    watch: true,
  });
  const api = localApi(app);
  const videos = ['dQw4w9WgXcQ', 'jNQXAC9IVRw', 'M7lc1UVf-VE', '9bZkp7q19f0'];
  const { job } = await api.createJob({
    draft: {
      sources: videos.map((text, index) => ({ where: `line ${index + 1}`, text })),
      languages: 'orig',
      includeTimestamp: true,
      sendMetadata: true,
      maxVideos: null,
      budget: null,
      concurrency: videos.length,
      formats: ['txt'],
    },
    start: false,
  });

  // Every request is sent at once, and its answer held: all four are in flight.
  const release = sim.admin.holdAnswers();
  const run = api.runJob({ jobId: job.id });
  await vi.waitFor(() => expect(sim.admin.requests()).toHaveLength(videos.length), { timeout: 30_000 });
  // What a window opened now shows: the four requests in flight, possibly charged.
  let shown: CreditView = await api.creditStatus({});
  expect(shown).toMatchObject({ total: 4, possible: 4 });
  app.on('creditsChanged', (view) => (shown = view));

  release();
  expect((await run).outcome.status).toBe('waiting_credits');
  // Whatever the faces are still to be told is due within the throttle's 100 ms.
  clock.advance(100);
  await new Promise((resolve) => setImmediate(resolve));
  expect(await api.creditStatus({})).toMatchObject({ total: 0, possible: 0 });
  expect(shown).toMatchObject({ total: 0, today: 0, possible: 0 });
});
