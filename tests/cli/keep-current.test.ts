import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/shared/contract';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { runCli, startCliSetup } from '../support/cli';

// `scriptorium keep` and `scriptorium sync --all`, through the built CLI, against the simulator and
// its uploads endpoint, on a data folder of the test's own.

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;

beforeEach(async () => {
  ({ sim, dir, env } = await startCliSetup(10_000));
});
afterEach(() => sim.close());

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

async function jobs(): Promise<JobView[]> {
  const listed = await runCli(['jobs', '--json'], env);
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout) as JobView[];
}

/** Exports `source` to its end; the job's number. */
async function exported(source: string): Promise<number> {
  const before = (await jobs()).length;
  const run = await runCli(['export', source, '--out', join(dir, `${before + 1}.zip`)], env);
  expect(run.code, run.stderr).toBe(0);
  return before + 1;
}

describe('scriptorium keep', () => {
  it('marks a job with a channel Keep current and unmarks it, sending nothing', async () => {
    const job = await exported('@cli_keep_marked_n6');
    const before = sim.admin.ledger().length;
    const on = await runCli(['keep', String(job), 'on'], env);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toMatch(
      /^Job 1 \(.+\) is kept current: `scriptorium sync --all` and the desktop app sync it\.$/m,
    );
    expect((await jobs())[0]?.keepCurrent).toMatchObject({ available: true, marked: true });
    const off = await runCli(['keep', String(job), 'off'], env);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toMatch(/is no longer kept current\./);
    expect((await jobs())[0]?.keepCurrent.marked).toBe(false);
    expect(sim.admin.ledger()).toHaveLength(before);
  });

  it.each([
    [
      ['keep', '1', 'on'],
      /Job 1 has no playlist or channel, so it cannot be kept current.*Nothing was changed\.$/,
    ],
    [['keep', '1', 'maybe'], /"maybe": say on or off .*Nothing was changed\.$/],
    [['keep', '9', 'on'], /There is no job 9/],
    [['keep', 'one', 'on'], /job one: expected a whole number/],
  ])('refuses %j with exit 2 and a plain last line, changing nothing', async (args, message) => {
    await exported('dQw4w9WgXcQ');
    const refused = await runCli(args, env);
    expect(refused.code).toBe(2);
    expect(lastLine(refused.stderr)).toMatch(message);
    expect((await jobs())[0]?.keepCurrent).toMatchObject({ available: false, marked: false });
  });
});

describe('scriptorium sync --all', () => {
  it('syncs the jobs marked Keep current one after another, and with --any every finished job with a list', async () => {
    const marked = await exported('@cli_sync_all_marked_n8');
    await exported('@cli_sync_all_unmarked_n8');
    await exported('dQw4w9WgXcQ');
    expect((await runCli(['keep', String(marked), 'on'], env)).code).toBe(0);
    sim.admin.addUploads('@cli_sync_all_marked_n8', 2);
    sim.admin.addUploads('@cli_sync_all_unmarked_n8', 3);

    const kept = await runCli(['sync', '--all'], env);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^Job 1 \(.+\): 2 new videos, \d+ credits?\.$/),
      '1 job brought up to date.',
    ]);
    const afterKept = await jobs();
    expect(afterKept.map((job) => job.counts.total)).toEqual([10, 8, 1]);
    expect(afterKept[0]?.keepCurrent.lastSyncAt).toEqual(expect.any(String));
    expect(afterKept[1]?.keepCurrent.lastSyncAt).toBeNull();

    const any = await runCli(['sync', '--all', '--any'], env);
    expect(any.code, any.stderr).toBe(0);
    expect(any.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^Job 1 \(.+\): nothing new, 0 credits\.$/),
      expect.stringMatching(/^Job 2 \(.+\): 3 new videos, \d+ credits?\.$/),
      '2 jobs brought up to date.',
    ]);
    expect((await jobs()).map((job) => job.counts.total)).toEqual([10, 11, 1]);
  });

  it('says so when no job is marked, and exits 0', async () => {
    await exported('@cli_sync_all_none_n4');
    const none = await runCli(['sync', '--all'], env);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe(
      'No job is marked Keep current (`scriptorium keep JOB_ID on` marks one): nothing to sync.\n',
    );
  });

  it('stops at --daily-limit, counting what all automatic syncs spent today, and continues once allowed', async () => {
    const first = await exported('@cli_daily_first_n6');
    const second = await exported('@cli_daily_second_n6');
    for (const job of [first, second]) expect((await runCli(['keep', String(job), 'on'], env)).code).toBe(0);
    sim.admin.addUploads('@cli_daily_first_n6', 4);
    sim.admin.addUploads('@cli_daily_second_n6', 4);
    const before = sim.admin.ledger().length;

    // One credit for both: the first job's page, which finds its uploads; the second gets nothing.
    const limited = await runCli(['sync', '--all', '--daily-limit', '1'], env);
    expect(limited.code).toBe(3);
    expect(sim.admin.ledger()).toHaveLength(before + 1);
    expect(limited.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Job 1 \(.+\): 4 new videos, 1 credit; stopped\. Paused: the daily credit limit/,
      ),
      expect.stringMatching(
        /^Job 2 \(.+\): nothing new, 0 credits; stopped\. Paused: the daily credit limit/,
      ),
    ]);
    expect(lastLine(limited.stderr)).toBe(
      'Paused: the daily credit limit of automatic syncs (1 credit) is spent; the first automatic sync after midnight continues it.',
    );
    const stopped = await jobs();
    expect(stopped.map((job) => [job.status, job.stop?.code])).toEqual([
      ['paused', 'daily_limit'],
      ['paused', 'daily_limit'],
    ]);
    expect(stopped[0]?.keepCurrent.limitMessage).toMatch(
      /daily credit limit of automatic syncs \(1 credit\)/,
    );
    expect(stopped.map((job) => job.counts.pending)).toEqual([4, 0]);

    // The same day, the same limit allows nothing more, and costs nothing.
    const again = await runCli(['sync', '--all', '--daily-limit', '1'], env);
    expect(again.code).toBe(3);
    expect(sim.admin.ledger()).toHaveLength(before + 1);

    // A larger limit lets both finish: the rest of the first, the second from its page.
    const allowed = await runCli(['sync', '--all', '--daily-limit', '100'], env);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect((await jobs()).map((job) => [job.status, job.counts.total, job.counts.pending])).toEqual([
      ['completed', 10, 0],
      ['completed', 10, 0],
    ]);
  });

  it('stops the rest when the credits run out, exiting 3 with what to do', async () => {
    const poor = await startSimulator({ credits: 40 });
    try {
      const poorEnv = { ...env, TRANSCRIPT_API_BASE_URL: poor.url, TRANSCRIPT_API_KEY: poor.key };
      for (const channel of ['@cli_poor_first_n10', '@cli_poor_second_n10']) {
        const run = await runCli(['export', channel, '--out', join(dir, `${channel}.zip`)], poorEnv);
        expect(run.code, run.stderr).toBe(0);
      }
      for (const job of ['1', '2']) expect((await runCli(['keep', job, 'on'], poorEnv)).code).toBe(0);
      poor.admin.addUploads('@cli_poor_first_n10', 30);
      poor.admin.addUploads('@cli_poor_second_n10', 30);
      const stopped = await runCli(['sync', '--all'], poorEnv);
      expect(stopped.code).toBe(3);
      const lines = stopped.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^Job 1 \(.+\): 30 new videos, \d+ credits?; stopped\. Paused: /);
      expect(lines[1]).toBe('1 more job not synced: the same would stop them.');
      expect(lastLine(stopped.stderr)).toMatch(/^Paused: .+\(E_FREE_GRANT_DEPLETED\)\./);
    } finally {
      await poor.close();
    }
  });

  it.each([
    [['sync', '1', '--all'], /Give a job number or --all, not both/],
    [['sync', '--any'], /--any and --daily-limit go with --all/],
    [['sync', '1', '--daily-limit', '5'], /--any and --daily-limit go with --all/],
    [['sync', '--all', '--daily-limit', '0'], /--daily-limit 0: expected a whole number from 1 to 1000000/],
    [['sync'], /Give the job to sync \(`scriptorium sync 3`\), or --all/],
  ])('refuses %j with exit 2, sending nothing', async (args, message) => {
    const refused = await runCli(args, env);
    expect(refused.code).toBe(2);
    expect(lastLine(refused.stderr)).toMatch(message);
    expect(sim.admin.ledger()).toEqual([]);
  });
});
