import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/core/api';
import { FAILURES_IN_A_ROW } from '../../../src/core/engine/service-health';
import { describePlaylist } from '../../../src/simulator';
import { startHarness, spec, type Harness } from './helpers';
import { exportRowsOf } from '../../../src/core/store/queries/export-rows';

// How a run behaves when the service, not a video, is the problem: it stops early and says so,
// rather than leaving a corpus of failures; and a request that may have been charged is never
// sent again without the user asking.
let h: Harness;
afterEach(async () => h.close());

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('a service in trouble', () => {
  it('that cannot be reached stops the run at its first request, with nothing marked failed', async () => {
    h = await startHarness();
    const client = createClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      apiKey: h.sim.key,
      userAgent: 'Scriptorium/test',
      clock: h.clock,
    });
    const { job } = h.engine.findOrCreateJob(spec(['dQw4w9WgXcQ', 'jNQXAC9IVRw', 'PLunreachableList_n40']));
    const outcome = await h.engine.run(job.id, { client });
    await client.close();

    expect(outcome).toMatchObject({ status: 'paused', reason: 'service' });
    expect(outcome.status === 'paused' && outcome.reason === 'service' && outcome.message).toMatch(
      /Could not reach the service at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
    const stopped = h.engine.job(job.id)!;
    expect(stopped).toMatchObject({ status: 'paused', stopReason: 'service' });
    expect(stopped.counts).toMatchObject({ failed: 0, pending: 2 });
    expect(stopped.walks[2]!.walkStatus).toBe('pending');
  });

  it(`that fails ${FAILURES_IN_A_ROW} requests in a row stops the run instead of failing every video`, async () => {
    h = await startHarness({ credits: 1000 });
    h.sim.admin.addFault({ match: { endpoint: 'transcript' }, kind: 'status', status: 503 });
    const { job } = h.engine.findOrCreateJob(spec(['PLserviceDown_n60']));
    const outcome = await h.engine.run(job.id, { concurrency: 1 });

    expect(outcome).toMatchObject({ status: 'paused', reason: 'service' });
    const stopped = h.engine.job(job.id)!;
    // The ten it answered 503 failed only because it was down: they are pending again (issue 44).
    expect(stopped.counts).toMatchObject({ failed: 0, pending: 60 });
    expect(stopped.stopMessage).toBe(
      `The service failed ${FAILURES_IN_A_ROW} requests in a row (the last: HTTP 503 E_UNAVAILABLE), so nothing more was sent`,
    );
    expect(h.sim.admin.requests().filter((r) => r.path.endsWith('/transcript'))).toHaveLength(
      FAILURES_IN_A_ROW,
    );

    // The next run of the same job, the service back, fetches all sixty, none bought twice.
    h.sim.admin.clearFaults();
    expect(await h.engine.run(job.id, { concurrency: 1 })).toEqual({
      status: 'completed',
      failed: 0,
      failedSources: 0,
    });
    for (const videoId of describePlaylist('PLserviceDown_n60').videoIds())
      expect(h.sim.admin.chargesFor(videoId)).toBeLessThanOrEqual(1);
  });

  it("keeps failed a video the service failed amid answers: its own trouble, not the service's", async () => {
    h = await startHarness({ credits: 1000 });
    const { job } = h.engine.findOrCreateJob(spec(['PLserviceHiccup_n6']));
    const [hiccup] = describePlaylist('PLserviceHiccup_n6').videoIds();
    h.sim.admin.addFault({ match: { videoId: hiccup! }, kind: 'status', status: 500 });
    expect(await h.engine.run(job.id, { concurrency: 1 })).toMatchObject({ status: 'completed', failed: 1 });
  });

  it('that asks to wait longer than a minute pauses the job with the wait named, sending nothing more', async () => {
    h = await startHarness({ credits: 1000 });
    h.sim.admin.addFault({
      match: { endpoint: 'transcript' },
      kind: 'status',
      status: 429,
      retryAfter: '3600',
    });
    const { job } = h.engine.findOrCreateJob(spec(['PLwaitAnHour_n20']));
    const outcome = await h.engine.run(job.id, { concurrency: 1 });

    expect(outcome).toMatchObject({ status: 'paused', reason: 'service' });
    expect(h.engine.job(job.id)!.stopMessage).toContain('asked to wait 3600 s');
    expect(h.sim.admin.requests().filter((r) => r.path.endsWith('/transcript'))).toHaveLength(1);
    expect(h.clock.sleeps.filter((ms) => ms >= 60_000)).toEqual([]);
  });

  it('reports every wait between attempts, with how long and why', async () => {
    h = await startHarness({ credits: 1000 });
    h.sim.admin.addFault({
      match: { endpoint: 'transcript' },
      kind: 'status',
      status: 429,
      retryAfter: '30',
      times: 1,
    });
    const waits: Array<{ status: number; waitMs: number }> = [];
    h.engine.on('wait', ({ status, waitMs }) => waits.push({ status, waitMs }));
    const { job } = h.engine.findOrCreateJob(spec(['dQw4w9WgXcQ']));
    expect((await h.engine.run(job.id)).status).toBe('completed');
    expect(waits).toEqual([{ status: 429, waitMs: 30_000 }]);
  });
});

describe('a request that may have been charged', () => {
  it('that timed out fails its video as possibly charged, and is sent again only when asked', async () => {
    h = await startHarness({ credits: 1000 });
    h.sim.admin.addFault({
      match: { endpoint: 'transcript', videoId: 'dQw4w9WgXcQ' },
      kind: 'hang',
      times: 1,
    });
    const client = createClient({
      baseUrl: h.sim.url,
      apiKey: h.sim.key,
      userAgent: 'Scriptorium/test',
      clock: h.clock,
      timeoutMs: 200,
    });
    const { job } = h.engine.findOrCreateJob(spec(['dQw4w9WgXcQ', 'jNQXAC9IVRw']));
    expect(await h.engine.run(job.id, { client })).toMatchObject({ status: 'completed', failed: 1 });
    const summary = h.engine.job(job.id)!;
    expect(summary.creditsPossible).toBe(1);
    expect(summary.creditsSpent).toBe(2); // one certain, one possible
    const failed = [...exportRowsOf(h.db, job.id)].find((row) => row.status === 'failed')!;
    expect(failed.videoId).toBe('dQw4w9WgXcQ');
    expect(failed.message).toContain('may have been charged');

    // Running the job again sends nothing: the user decides.
    expect((await h.engine.run(job.id, { client })).status).toBe('completed');
    const sent = () => h.sim.admin.requests().filter((r) => r.query['video_url'] === 'dQw4w9WgXcQ').length;
    expect(sent()).toBe(1);
    expect(h.engine.retryFailed(job.id)).toBe(1);
    expect((await h.engine.run(job.id, { client })).status).toBe('completed');
    expect(sent()).toBe(2);
    await client.close();
  });
});
