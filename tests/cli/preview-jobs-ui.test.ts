import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describePlaylist, startSimulator, type RunningSimulator } from '../../src/simulator';
import { runCli, startCli, tempDir, type RunningCli } from '../support/cli';

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;

beforeEach(async () => {
  sim = await startSimulator({ credits: 10_000 });
  dir = tempDir();
  env = {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
  };
});

afterEach(async () => {
  await sim.close();
});

describe('scriptorium preview', () => {
  it('walks the lists, buys no transcript, says what they will cost; export then buys no page again', async () => {
    const args = ['PLpreviewedFromCli_n150', 'dQw4w9WgXcQ', '--lang', 'en,orig'];
    const preview = await runCli(['preview', ...args], env);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/151 videos from 2 sources/);
    expect(preview.stdout).toMatch(/list pages bought: 2/);
    expect(preview.stdout).toMatch(/at most 151 credits/);
    expect(sim.admin.ledger().map((charge) => charge.endpoint)).toEqual([
      'playlist/videos',
      'playlist/videos',
    ]);

    const exported = await runCli(['export', ...args, '--out', join(dir, 'p.zip')], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(sim.admin.ledger().filter((charge) => charge.endpoint === 'playlist/videos')).toHaveLength(2);
  });
});

describe('scriptorium jobs and credits', () => {
  it("--json prints the contract's views", async () => {
    expect((await runCli(['export', 'PLjsonListed_n10', '--out', join(dir, 'j.zip')], env)).code).toBe(0);
    const jobs = JSON.parse((await runCli(['jobs', '--json'], env)).stdout) as Array<Record<string, unknown>>;
    expect(jobs).toEqual([
      expect.objectContaining({
        id: 1,
        status: 'completed',
        sources: ['PLjsonListed_n10'],
        creditsSpent: expect.any(Number),
      }),
    ]);
    const credits = JSON.parse((await runCli(['credits', '--json'], env)).stdout) as Record<string, unknown>;
    expect(credits).toMatchObject({ total: sim.admin.ledger().length, possible: 0, byJob: [{ jobId: 1 }] });
  });

  it('says why a job stopped and the command that continues it', async () => {
    const out = join(dir, 'b.zip');
    expect(
      (
        await runCli(
          ['export', 'PLstoppedByBudget_n20', '--lang', 'es,orig', '--budget', '5', '--out', out],
          env,
        )
      ).code,
    ).toBe(3);
    const listed = await runCli(['jobs'], env);
    expect(listed.stdout).toMatch(/Job 1 is paused: the budget of 5 credits is spent\./);
    expect(listed.stdout).toContain(
      `Continue with: ./bin/scriptorium export PLstoppedByBudget_n20 --lang es,orig --budget 5 --out ${out}`,
    );
    expect(listed.stdout).toMatch(/\(with a --budget larger than its 5 credits, to buy more\)/);
  });
});

describe('scriptorium ui', () => {
  it('prints one address with its token and serves the app there until stopped', async () => {
    const ui = startCli(['ui', '--no-open', '--port', '0'], env);
    const address = await addressOf(ui);
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]{40,}\/$/);

    const page = await fetch(address, { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(await page.text()).toContain('<div id="root">');
    const refused = await fetch(new URL('/', address));
    expect(refused.status).toBe(401);
    expect(await refused.text()).toMatch(/the private address that <code>scriptorium ui<\/code> printed/);

    ui.child.kill('SIGINT');
    expect((await ui.done).code).toBe(0);
  });

  it('runs the jobs queued in it, as the desktop app does', async () => {
    const ui = startCli(['ui', '--no-open'], env);
    const url = new URL(await addressOf(ui));
    const call = (name: string, input: unknown) =>
      fetch(new URL(`api/command/${name}`, url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      }).then(
        (response) =>
          response.json() as Promise<{ ok: boolean; value: { job: { id: number; status: string } } }>,
      );
    const draft = {
      sources: [{ where: 'line 1', text: 'PLqueuedInBrowser_n25' }],
      languages: 'orig',
      includeTimestamp: true,
      sendMetadata: true,
      maxVideos: null,
      budget: null,
      concurrency: 4,
      formats: ['txt'],
    };
    const created = await call('createJob', { draft, start: true });
    expect(created.ok).toBe(true);
    // Until the job settles, whichever way: a job that stops short fails here, not by a timeout.
    let status = created.value.job.status;
    while (['draft', 'queued', 'running'].includes(status)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await call('jobDetail', { jobId: created.value.job.id })).value.job.status;
    }
    expect(status).toBe('completed');
    const charged = sim.admin.ledger().filter((charge) => charge.endpoint === 'transcript').length;
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThanOrEqual(describePlaylist('PLqueuedInBrowser_n25').size);
    ui.child.kill('SIGTERM');
    expect((await ui.done).code).toBe(0);
  });
});

/**
 * The address `scriptorium ui` prints; rejects with what it said when it exits first (an app not
 * built, a port taken), so that the test fails at once with the reason instead of waiting for a timeout.
 */
function addressOf(ui: RunningCli): Promise<string> {
  return new Promise((resolve, reject) => {
    let printed = '';
    ui.child.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const address = /open at (http\S+)/.exec(printed)?.[1];
      if (address !== undefined) resolve(address);
    });
    void ui.done.then((result) =>
      reject(
        new Error(`scriptorium ui exited (${result.code}) before printing its address: ${result.stderr}`),
      ),
    );
  });
}
