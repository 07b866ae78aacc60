/**
 * Issue 44: what the CLI says, part 3. A 503 storm finishes with the next run of the same command;
 * `jobs` names the --out the user gave; a run says what it will do before it does it, and a job
 * another process runs is refused before anything is said of it; and the smaller slips: a reversed
 * --items, `search -river`, `keep 2 maybe`, a doubled period, a sync that found nothing, doubled
 * backslashes, and an --out that is no ZIP's name.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/shared/contract';
import { describePlaylist, startSimulator, type RunningSimulator } from '../../src/simulator';
import { startRequestGate, type RequestGate } from '../reliability/request-gate';
import { CLI, readZip, runCli, startCli, tempDir } from '../support/cli';
import { invocation } from '../../src/cli/invocation';

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;
let gate: RequestGate | undefined;

beforeAll(async () => {
  sim = await startSimulator({ credits: 100_000 });
});

afterAll(async () => {
  await sim.close();
});

beforeEach(() => {
  dir = tempDir();
  env = {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
  };
  sim.admin.clearFaults();
});

afterEach(async () => {
  await gate?.close();
  gate = undefined;
});

const lastLine = (text: string): string => text.trim().split('\n').at(-1) ?? '';
const cli = invocation(CLI);

async function jobsJson(): Promise<JobView[]> {
  return JSON.parse((await runCli(['jobs', '--json'], env)).stdout) as JobView[];
}

describe('a service that answers 503 to everything for a while', () => {
  it('pauses with exit 6, and the same command then finishes the job: the videos it failed are asked again', async () => {
    const list = 'PLstormThenCalm_n30';
    const out = join(dir, 'storm.zip');
    const command = ['export', list, '--concurrency', '1', '--out', out];
    sim.admin.addFault({ kind: 'status', status: 503, match: { endpoint: 'transcript' }, times: 10 });

    const stormy = await runCli(command, env);
    expect(stormy.code, stormy.stderr).toBe(6);
    expect(lastLine(stormy.stderr)).toBe(
      'Paused: The service failed 10 requests in a row (the last: HTTP 503 E_UNAVAILABLE), so nothing more was sent. ' +
        'Progress is saved; run the same command again later to continue.',
    );
    // Failed only because the service was down: waiting, not failed.
    expect((await jobsJson())[0]?.counts).toMatchObject({ failed: 0, pending: 30 });

    const calm = await runCli(command, env);
    expect(calm.code, calm.stderr).toBe(0);
    const [job] = await jobsJson();
    expect(job?.counts).toMatchObject({ total: 30, failed: 0, pending: 0 });
    const videos = describePlaylist(list).videoIds();
    expect(videos.filter((videoId) => sim.admin.chargesFor(videoId) > 1)).toEqual([]);
    expect((await readZip(out)).index).toHaveLength(31);
  });
});

describe('`jobs` and the plan of a run say what is true', () => {
  it('names the --out the user gave for a job stopped before its ZIP, and says the lists it will read first', async () => {
    const list = 'PLnotReadYet_n12';
    const out = join(dir, 'my corpus.zip');
    sim.admin.addFault({ kind: 'status', status: 503, match: { endpoint: 'playlist/videos' }, times: 1 });
    const down = await runCli(['export', list, '--out', out], env);
    expect(down.code, down.stderr).toBe(6);
    expect(existsSync(out)).toBe(false);

    const jobs = await runCli(['jobs'], env);
    expect(jobs.stdout).toContain(`  Continue with: ${cli} export ${list} --out '${out}'\n`);
    expect(jobs.stdout).not.toContain('FILE.zip');

    // Its list was never read: the plan says it is read first, never "nothing left to buy".
    const again = await runCli(['export', list, '--out', out], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      '(1 source): 1 list to read first (a credit a page), then a credit for each transcript they hold.',
    );
    expect(again.stderr).not.toContain('nothing left to buy');
  });

  it('refuses a job another process runs before saying anything of it (exit 7)', async () => {
    gate = await startRequestGate(sim.url);
    const list = 'PLrunByAnother_n8';
    const first = startCli(['export', list, '--concurrency', '2', '--out', join(dir, 'a.zip')], {
      ...env,
      TRANSCRIPT_API_BASE_URL: gate.url,
    });
    await gate.whenWaiting(2);
    const second = await runCli(['export', list, '--out', join(dir, 'b.zip')], env);
    gate.open();
    expect((await first.done).code).toBe(0);

    expect(second.code, second.stderr).toBe(7);
    expect(second.stderr.trim()).toBe(
      'Job 1 is being run by another Scriptorium process; wait for it to finish or stop it first. Nothing was sent.',
    );
    expect(readdirSync(dir)).not.toContain('b.zip');
  });
});

describe('the smaller slips', () => {
  it('refuses a reversed --items, as it refuses --items 0', async () => {
    const result = await runCli(
      ['export', 'PLreversedItems_n9', '--items', '5-2', '--out', join(dir, 'x.zip')],
      env,
    );
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      '--items 5-2: "5-2" runs backwards: write the first position first (2-5). Nothing was sent.',
    );
  });

  it('says how to search for a word that starts with -', async () => {
    const result = await runCli(['search', '-river'], env);
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      `The command line was not understood; nothing was sent. To search for transcripts without "river", put -- before the query: ${cli} search -- -river`,
    );
  });

  it('suggests the job it was given to `keep`', async () => {
    const result = await runCli(['keep', '2', 'maybe'], env);
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      `"maybe": say on or off (\`${cli} keep 2 on\`). Nothing was changed.`,
    );
  });

  it('ends the reason a job stopped with one period', async () => {
    const refused = await runCli(['export', 'PLrefusedKey_n4', '--out', join(dir, 'x.zip')], {
      ...env,
      TRANSCRIPT_API_KEY: 'sk_not_the_right_one',
    });
    expect(refused.code).toBe(4);
    const jobs = await runCli(['jobs'], env);
    expect(jobs.stdout).toContain(
      'Job 1 is stopped: The service answered 401 (E_UNAUTHORIZED): The API key is not valid.\n',
    );
    expect(jobs.stdout).not.toContain('..');
  });

  it('does not send a sync that found nothing to write the corpus again', async () => {
    const out = join(dir, 'channel.zip');
    expect((await runCli(['export', '@quietChannel_n5', '--out', out], env)).code).toBe(0);
    const sync = await runCli(['sync', '1'], env);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/^Job 1 brought up to date: nothing new: /);
    expect(sync.stdout).not.toContain('write the whole corpus');
  });

  it('prints a transcript’s backslashes as its files hold them, once', async () => {
    const out = join(dir, 'awkward.zip');
    expect(
      (await runCli(['export', 'PLawkwardCaptions_n40', '--formats', 'txt', '--out', out], env)).code,
    ).toBe(0);
    const found = await runCli(['search', '"temp file txt"', '--limit', '1'], env);
    expect(found.code, found.stderr).toBe(0);
    // The phrase is marked whole; the backslashes between its words are the transcript's own, once.
    expect(found.stdout).toContain('C:\\[temp\\file.txt]');
    expect(found.stdout).not.toContain('\\\\');
    const files = Object.values((await readZip(out)).files).join('\n');
    expect(files).toContain('C:\\temp\\file.txt');
  });

  it('refuses an --out that is no ZIP’s name, before anything is sent', async () => {
    const requests = sim.admin.requests().length;
    const result = await runCli(['export', 'PLtextNamed_n3', '--out', join(dir, 'b.txt')], env);
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      '--out b.txt: a corpus is a ZIP file, so its name ends in .zip (b.zip, say). Nothing was sent.',
    );
    expect(sim.admin.requests()).toHaveLength(requests);
    expect(readdirSync(dir)).not.toContain('b.txt');
  });
});
