import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { readZip, runCli, startCli, tempDir } from '../support/cli';

// Issue 43: an export killed with SIGKILL while the service had charged requests whose answers it
// never received, then run again, said it had spent fewer credits than the service charged. Each
// kill here comes at a point told by the simulator's own count, never by a clock: once it has charged
// its k-th paid request, its answers are held (requests still arrive and are charged), and the process
// is killed once one more was charged, with that answer never sent. After every kill, and after the
// export that completes the job, every face counts at least what the simulator charged: `credits`,
// `jobs`, manifest.json and the datasheet (the credits bar reads `creditStatus`, which `credits
// --json` prints).

const CONCURRENCY = 4;
const PLAYLIST = 'PLcreditsAfterKill_n60';
/** The simulator's paid requests after which each run is killed: the first page, then transcripts. */
const KILL_AFTER = [1, 6, 15, 31];

let sim: RunningSimulator;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ credits: 100_000 });
  dir = tempDir();
});

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Between two looks at the simulator's count (a poll, never a verdict on time). */
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

it('after each SIGKILL, credits spent and possibly charged are never fewer than the service charged, in every face', async () => {
  const env = {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
  };
  const out = join(dir, 'corpus.zip');
  const args = ['export', PLAYLIST, '--concurrency', String(CONCURRENCY), '--out', out];
  const charged = () => sim.admin.stats().charged;
  const creditsSeen = async () => {
    const credits = await runCli(['credits', '--json'], env);
    expect(credits.code, credits.stderr).toBe(0);
    const view = JSON.parse(credits.stdout) as { total: number; possible: number };
    const jobs = await runCli(['jobs', '--json'], env);
    const [job] = JSON.parse(jobs.stdout) as Array<{ creditsSpent: number; creditsPossible: number }>;
    return { total: view.total, possible: view.possible, job: job?.creditsSpent ?? 0 };
  };

  for (const k of KILL_AFTER) {
    const running = startCli(args, env);
    let exited = false;
    void running.done.then(() => (exited = true));
    while (!exited && charged() < k) await pause();
    const release = sim.admin.holdAnswers();
    // One more request charged whose answer is held: the process is killed before it can hear it.
    // (Should the answers held be those of every request in flight, none comes: a few polls later
    // the kill cuts those instead, which the service charged too.)
    const atHold = charged();
    for (let polls = 0; !exited && charged() === atHold && polls < 200; polls++) await pause();
    expect(exited, `the export ended before its ${k}th paid request`).toBe(false);
    running.child.kill('SIGKILL');
    expect((await running.done).signal).toBe('SIGKILL');
    release();

    const seen = await creditsSeen();
    expect(seen.total, `after the kill at ${k}`).toBeGreaterThanOrEqual(charged());
    expect(seen.job).toBe(seen.total);
    // No more than what may have been in flight at each kill: a page and the transcripts of one group.
    expect(seen.total - charged()).toBeLessThanOrEqual(KILL_AFTER.length * (CONCURRENCY + 1));
  }

  const final = await runCli(args, env);
  expect(final.code, final.stderr).toBe(0);
  const seen = await creditsSeen();
  const service = charged();
  expect(seen.total).toBeGreaterThanOrEqual(service);
  expect(seen.possible).toBeGreaterThanOrEqual(seen.total - service);
  const zip = await readZip(out);
  expect(zip.manifest.credits_spent).toBe(seen.total);
  expect(zip.manifest.credits_possible).toBe(seen.possible);
  expect(zip.readme).toContain(`Credits spent: ${seen.total}, ${seen.possible} of them possibly charged`);
}, 120_000);
