import { afterEach, describe, expect, it } from 'vitest';
import { setJobStatus } from '../../../src/core/store/jobs';
import { JOB_STATUSES, jobAllows, type JobAction, type JobStatus } from '../../../src/shared/vocabulary';
import { startHarness, spec, type Harness } from './helpers';

let h: Harness;
afterEach(async () => h.close());

/** A job of its own in `status`, as a run or the user left it, with no run of this engine holding it. */
function jobIn(status: JobStatus): number {
  const { job } = h.engine.findOrCreateJob(spec([`PLaction${status.replace('_', '')}_n3`]));
  setJobStatus(h.db, job.id, { status, stopReason: null, at: new Date().toISOString() });
  return job.id;
}

/** Whether doing `action` to a job at rest in `status` changed it. */
function changes(status: JobStatus, action: Exclude<JobAction, 'sync'>): boolean {
  const jobId = jobIn(status);
  try {
    if (action === 'delete') h.engine.deleteJob(jobId);
    else h.engine[action](jobId);
  } catch {
    return false;
  }
  return h.engine.job(jobId)?.status !== status;
}

describe('what the engine lets the user do with a job at rest', () => {
  it('does not pause a failed job: it keeps why it failed (the window offers Resume, not Pause)', async () => {
    h = await startHarness({ credits: 100, apiKey: 'sk_wrong_key' });
    const { job } = h.engine.findOrCreateJob(spec(['dQw4w9WgXcQ']));
    expect(await h.engine.run(job.id)).toMatchObject({ status: 'failed', reason: 'auth' });

    h.engine.pause(job.id);
    expect(h.engine.job(job.id)).toMatchObject({ status: 'failed', stopReason: 'auth', stopCode: '401' });
  });

  it.each(JOB_STATUSES.filter((status) => status !== 'running'))(
    'a job %s changes by exactly the actions the shared table allows it',
    async (status) => {
      h = await startHarness();
      for (const action of ['pause', 'resume', 'cancel', 'delete'] as const) {
        expect([action, changes(status, action)]).toEqual([action, jobAllows(status, action)]);
      }
      // A sync of a job that has not finished is refused before anything is sent.
      if (!jobAllows(status, 'sync'))
        await expect(h.engine.sync(jobIn(status))).rejects.toThrow(/not finished/);
      expect(h.sim.admin.requests()).toEqual([]);
    },
  );

  it("leaves alone a job another process runs: only that process's run can pause, cancel or delete it", async () => {
    h = await startHarness();
    for (const action of ['pause', 'cancel', 'delete'] as const)
      expect(changes('running', action)).toBe(false);
  });
});
