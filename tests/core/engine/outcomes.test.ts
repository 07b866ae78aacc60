import { afterEach, describe, expect, it } from 'vitest';
import { describePlaylist, describeVideo } from '../../../src/simulator';
import { REJECTED_MESSAGE, UNREADABLE_MESSAGE } from '../../../src/core/engine';
import { startHarness, spec, type Harness } from './helpers';
import { exportRowsOf } from '../../../src/core/store/queries/export-rows';

let h: Harness;
afterEach(async () => h.close());

/** Videos of a playlist that have captions, so that each costs exactly one credit. */
function captioned(playlist: string): string[] {
  return describePlaylist(playlist)
    .videoIds()
    .filter((id) => describeVideo(id).hasCaptions);
}

function itemOf(jobId: number, videoId: string) {
  return [...exportRowsOf(h.db, jobId)].find((row) => row.videoId === videoId)!;
}

describe('402: the job waits for credits and resumes without buying anything twice', () => {
  const cases = [
    {
      code: 'E_FREE_GRANT_DEPLETED',
      meaning: 'The free credit grant is used up: subscribe to a plan',
      prepare: () => undefined,
    },
    {
      code: 'E_PAYMENT_REQUIRED',
      meaning: 'Out of credits: top up your account',
      prepare: () => h.sim.admin.setPlan('paid'),
    },
    {
      code: 'E_SUBSCRIPTION_PAUSED',
      meaning: 'Your plan is paused: resume it',
      // The plan is paused once the first page is bought, while transcripts are being fetched.
      prepare: () => h.engine.on('page', () => h.sim.admin.setPlan('paused')),
    },
  ];

  for (const { code, meaning, prepare } of cases) {
    it(code, async () => {
      h = await startHarness({ credits: 6 });
      prepare();
      const { job } = h.engine.findOrCreateJob(spec(['PLcredits_n20']));
      const first = await h.engine.run(job.id, { concurrency: 2 });

      expect(first).toEqual({ status: 'waiting_credits', code, meaning });
      const waiting = h.engine.job(job.id)!;
      expect(waiting).toMatchObject({ status: 'waiting_credits', stopCode: code, stopMessage: meaning });
      expect(waiting.counts.pending).toBeGreaterThan(0);
      expect(h.ledger.status().last402).toEqual({ code, meaning, at: expect.any(String) });
      // The job stops at the first 402: only the requests already in flight may meet one too.
      const refused = h.sim.admin.requests().filter((r) => r.status === 402);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.length).toBeLessThanOrEqual(2);
      // Every credit the service took is in the local ledger.
      expect(waiting.creditsSpent).toBe(h.sim.admin.ledger().length);

      h.sim.admin.setPlan('paid');
      h.sim.admin.topUp(100);
      const second = await h.engine.run(job.id, { concurrency: 2 });
      expect(second.status).toBe('completed');
      const done = h.engine.job(job.id)!;
      expect(done.counts.pending).toBe(0);
      expect(done.creditsSpent).toBe(h.sim.admin.ledger().length);
      for (const videoId of describePlaylist('PLcredits_n20').videoIds()) {
        expect(h.sim.admin.chargesFor(videoId)).toBeLessThanOrEqual(1);
      }
      expect(h.sim.admin.ledger().filter((c) => c.endpoint === 'playlist/videos')).toHaveLength(1);
    });
  }
});

describe('other request outcomes', () => {
  it('401: a refused key fails the job with nothing charged; a good key then continues it', async () => {
    h = await startHarness({ credits: 100, apiKey: 'sk_wrong_key' });
    const { job } = h.engine.findOrCreateJob(spec(['dQw4w9WgXcQ', 'jNQXAC9IVRw']));
    const refused = await h.engine.run(job.id);

    expect(refused).toMatchObject({ status: 'failed', reason: 'auth', httpStatus: 401 });
    expect(h.engine.job(job.id)).toMatchObject({ status: 'failed', stopReason: 'auth', stopCode: '401' });
    expect(h.engine.job(job.id)!.counts.pending).toBe(2);
    expect(h.sim.admin.ledger()).toHaveLength(0);
    expect(JSON.stringify(h.engine.job(job.id))).not.toContain('sk_wrong_key');

    const engine = h.makeEngine(h.makeClient());
    const outcome = await engine.run(job.id);
    expect(outcome).toEqual({ status: 'completed', failed: 0, failedSources: 0 });
    expect(engine.job(job.id)!.counts.ok).toBe(2);
  });

  it('404: a video without captions is unavailable and costs nothing', async () => {
    h = await startHarness({ credits: 100 });
    const { job } = h.engine.findOrCreateJob(spec(['nocapABCDEF', 'dQw4w9WgXcQ']));
    const outcome = await h.engine.run(job.id);

    expect(outcome.status).toBe('completed');
    expect(itemOf(job.id, 'nocapABCDEF')).toMatchObject({
      status: 'unavailable',
      httpStatus: 404,
      transcript: null,
    });
    expect(h.sim.admin.chargesFor('nocapABCDEF')).toBe(0);
    expect(h.engine.job(job.id)!.creditsSpent).toBe(1);
  });

  it('502 three times: the video fails with its last status after three attempts, others go on', async () => {
    h = await startHarness({ credits: 100 });
    const [broken, ...others] = captioned('PLflaky_n4');
    h.sim.admin.addFault({ match: { endpoint: 'transcript', videoId: broken }, kind: 'status', status: 502 });
    const { job } = h.engine.findOrCreateJob(spec(['PLflaky_n4']));
    const outcome = await h.engine.run(job.id);

    expect(outcome).toMatchObject({ status: 'completed', failed: 1 });
    expect(itemOf(job.id, broken!)).toMatchObject({ status: 'failed', httpStatus: 502, attempts: 3 });
    expect(itemOf(job.id, broken!).message).toBeTruthy();
    expect(h.clock.sleeps).toEqual(expect.arrayContaining([1000, 2000]));
    for (const id of others) expect(itemOf(job.id, id).status).toBe('ok');

    // Retrying failed videos once the service is well again completes them.
    h.sim.admin.clearFaults();
    expect(h.engine.retryFailed(job.id)).toBe(1);
    expect(h.engine.job(job.id)).toMatchObject({ status: 'paused', stopReason: 'retry' });
    expect(await h.engine.run(job.id)).toMatchObject({ status: 'completed', failed: 0 });
    expect(itemOf(job.id, broken!)).toMatchObject({ status: 'ok', httpStatus: null, attempts: 4 });
  });

  it('422: the video fails with the bug message, not retried', async () => {
    h = await startHarness({ credits: 100 });
    h.sim.admin.addFault({ match: { videoId: 'dQw4w9WgXcQ' }, kind: 'status', status: 422 });
    const { job } = h.engine.findOrCreateJob(spec(['dQw4w9WgXcQ']));
    const outcome = await h.engine.run(job.id);

    expect(outcome).toMatchObject({ status: 'completed', failed: 1 });
    expect(itemOf(job.id, 'dQw4w9WgXcQ')).toMatchObject({
      status: 'failed',
      httpStatus: 422,
      attempts: 1,
      message: REJECTED_MESSAGE,
    });
    expect(h.sim.admin.requests()).toHaveLength(1);
  });

  it('an unreadable 200 fails the video, is not retried, and its credit is in the ledger', async () => {
    h = await startHarness({ credits: 100 });
    h.sim.admin.addFault({ match: { videoId: 'dQw4w9WgXcQ' }, kind: 'malformed' });
    const { job } = h.engine.findOrCreateJob(spec(['dQw4w9WgXcQ', 'jNQXAC9IVRw']));
    const outcome = await h.engine.run(job.id);

    expect(outcome).toMatchObject({ status: 'completed', failed: 1 });
    expect(itemOf(job.id, 'dQw4w9WgXcQ')).toMatchObject({ status: 'failed', message: UNREADABLE_MESSAGE });
    expect(h.sim.admin.chargesFor('dQw4w9WgXcQ')).toBe(1);
    expect(h.engine.job(job.id)!.creditsSpent).toBe(2);
    expect(h.sim.admin.ledger()).toHaveLength(2);
  });
});
