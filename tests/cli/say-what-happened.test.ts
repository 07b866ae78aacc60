/**
 * Issue 35: every run of the CLI says exactly what happened, in the user's words: which option is
 * too long and its limit, which of the key and a list's cursor was too large, a service that fails
 * everything as down, a 500 as not retried, tables whose counts add up, plural words, and one name
 * per job in every face.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memoryKeyStore, openApp } from '../../src/core/app';
import type { JobView } from '../../src/shared/contract';
import { describePlaylist, startSimulator, type RunningSimulator } from '../../src/simulator';
import { runCli, tempDir } from '../support/cli';
import { HUGE_CURSOR_CHARS, startHostileService, type HostileService } from '../support/hostile-service';

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;

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

const lastLine = (text: string): string => text.trim().split('\n').at(-1) ?? '';

async function jobsJson(): Promise<JobView[]> {
  return JSON.parse((await runCli(['jobs', '--json'], env)).stdout) as JobView[];
}

describe('an option too long says which one and its limit, and sends nothing', () => {
  it.each([
    ['--match-title', 'a'.repeat(600), '--match-title has 600 characters: at most 500 are taken.'],
    ['--items', `${'1,'.repeat(999)}1`, '--items has 1,999 characters: at most 1,000 are taken.'],
    ['--lang', 'en,'.repeat(100), '--lang has 300 characters: at most 200 are taken.'],
    ['--title', 'T'.repeat(301), '--title: at most 300 characters are taken.'],
  ])('%s', async (option, value, said) => {
    const requests = sim.admin.requests().length;
    const result = await runCli(
      ['export', 'PLlongOptionList_n5', option, value, '--out', join(dir, 'x.zip')],
      env,
    );
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(`${said} Nothing was sent.`);
    expect(sim.admin.requests()).toHaveLength(requests);
  });

  it('a --from file of more sources than a job takes', async () => {
    const file = join(dir, 'sources.txt');
    writeFileSync(file, `${'PLtooManySources_n5\n'.repeat(200_001)}`);
    const result = await runCli(['export', '--from', file, '--out', join(dir, 'x.zip')], env);
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      `200,001 sources given (--from ${file} and the arguments): a job takes at most 200,000. Split them into several jobs. Nothing was sent.`,
    );
  });
});

describe('a list whose next cursor is too long to send back', () => {
  let hostile: HostileService | undefined;
  afterEach(async () => {
    await hostile?.close();
    hostile = undefined;
  });

  it('is not sent: the list is read up to that page, the cursor is named, the key is not blamed (exit 5)', async () => {
    hostile = await startHostileService('huge-cursor');
    const out = join(dir, 'cursor.zip');
    const result = await runCli(['export', 'PLhugeCursorList_n300', '--out', out], {
      ...env,
      TRANSCRIPT_API_BASE_URL: hostile.url,
    });
    expect(result.code, result.stderr).toBe(5);
    expect(lastLine(result.stderr)).toMatch(
      `PLhugeCursorList_n300: the service gave a continuation cursor of ${HUGE_CURSOR_CHARS.toLocaleString('en')} characters for the next page, more than the 8,192 it takes back, so Scriptorium did not send it`,
    );
    expect(result.stderr).not.toMatch(/API key|TRANSCRIPT_API_KEY|431/);
    expect(hostile.requests()['playlist/videos']).toBe(1);
    expect(existsSync(out)).toBe(true);
  });
});

describe('a service failing what it is sent', () => {
  it('503 to every list read: down, the job paused with that status (exit 6), no ZIP', async () => {
    sim.admin.addFault({ kind: 'status', status: 503, match: { endpoint: 'playlist/videos' } });
    const out = join(dir, 'down.zip');
    const result = await runCli(['export', 'PLserviceDownList_n20', '--out', out], env);
    expect(result.code, result.stderr).toBe(6);
    expect(lastLine(result.stderr)).toMatch(
      /^Paused: The service failed every request of this run \(1; the last: .*503/,
    );
    expect(existsSync(out)).toBe(false);
    expect((await jobsJson())[0]).toMatchObject({ status: 'paused', stop: { reason: 'service' } });
  });

  it('a 500 is said as not retried, never as failed after every retry (exit 5)', async () => {
    sim.admin.addFault({ match: { videoId: 'jNQXAC9IVRw' }, kind: 'status', status: 500 });
    const result = await runCli(['export', 'dQw4w9WgXcQ', 'jNQXAC9IVRw', '--out', join(dir, 'f.zip')], env);
    expect(result.code, result.stderr).toBe(5);
    expect(lastLine(result.stderr)).toMatch(
      /1 video failed: the service answered HTTP 500 E_INTERNAL: not retried \(only 408, 429 and 502 are tried again\)\..*--retry-failed/,
    );
    expect(result.stderr).not.toMatch(/every retry/);
  });
});

describe('what the CLI prints adds up and reads as sentences', () => {
  it('jobs has a column per status, which add up to the videos; progress never says 0/0, ?, 0.0/s or (s)', async () => {
    const out = join(dir, 'c.zip');
    const args = ['export', 'PLcountedColumns_n40', '--items', '1-30', '--out', out];
    expect((await runCli([...args, '--budget', '6'], env)).code).toBe(3);
    // A larger budget continues the job (without one, it would keep its budget of 6).
    const continued = await runCli([...args, '--budget', '100'], env);
    expect(continued.code, continued.stderr).toBe(0);
    expect(continued.stderr).not.toMatch(/0\/0 videos|ETA \?|0\.0\/s|\(s\)/);
    expect(lastLine(continued.stderr)).toMatch(
      /^40\/40 videos · \d+ ok · \d+ unavailable · 0 failed · 10 skipped · \d+ credits$/,
    );

    const listed = await runCli(['jobs'], env);
    const [header, row] = listed.stdout.split('\n');
    expect(header).toMatch(
      /^job\s+status\s+videos\s+ok\s+unavailable\s+failed\s+skipped\s+pending\s+credits\s+created\s+name$/,
    );
    const cells = (row ?? '').split(/\s{2,}/);
    const [videos, ok, unavailable, failed, skipped, pending] = cells.slice(2, 8).map(Number);
    expect(videos).toBe(40);
    expect(skipped).toBe(10);
    expect(ok! + unavailable! + failed! + skipped! + pending!).toBe(videos);
  });

  it('a job waiting for credits is said so in words, in the table and in why it stopped', async () => {
    const poor = await startSimulator({ credits: 3 });
    try {
      const result = await runCli(['export', 'PLwaitingWords_n10', '--out', join(dir, 'w.zip')], {
        ...env,
        TRANSCRIPT_API_BASE_URL: poor.url,
        TRANSCRIPT_API_KEY: poor.key,
      });
      expect(result.code).toBe(3);
      const listed = await runCli(['jobs'], env);
      expect(listed.stdout).toMatch(/^1\s+waiting for credits\s/m);
      expect(listed.stdout).toMatch(/^Job 1 is waiting for credits: /m);
    } finally {
      await poor.close();
    }
  });
});

describe('one name per job, in every face', () => {
  it('two jobs of one playlist and one channel are told apart, by the same name in the table and the window', async () => {
    for (const playlist of ['PLnamedFirstList_n3', 'PLnamedSecondList_n3']) {
      const result = await runCli(
        ['export', playlist, '@named_same_channel_n2', '--out', join(dir, 'n.zip')],
        env,
      );
      expect(result.code, result.stderr).toBe(0);
    }
    const views = await jobsJson();
    const titles = views.map((view) => view.title);
    expect(new Set(titles).size).toBe(2);
    expect(titles[0]).toMatch(/ and /);
    expect(titles).not.toContain('1 playlist and 1 channel');
    const table = (await runCli(['jobs'], env)).stdout;
    for (const title of titles) expect(table).toContain(title);
  });
});

describe('a cancelled job stays cancelled', () => {
  it('the same command makes a new job, which buys no transcript the cancelled one bought', async () => {
    const playlist = 'PLcancelledThenAgain_n12';
    const out = join(dir, 'again.zip');
    expect((await runCli(['export', playlist, '--budget', '6', '--out', out], env)).code).toBe(3);
    const app = openApp({
      dataDir: env['SCRIPTORIUM_DATA_DIR']!,
      keys: memoryKeyStore(),
      logger: { warn: () => undefined },
    });
    try {
      expect((await app.handlers.cancelJob({ jobId: 1 })).status).toBe('cancelled');
    } finally {
      await app.close();
    }
    const listed = await runCli(['jobs'], env);
    expect(listed.stdout).toMatch(/^ {2}A new job of its sources, reusing what it bought at no cost: /m);

    const again = await runCli(['export', playlist, '--out', out], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^Starting job 2, /m);
    const views = await jobsJson();
    expect(views.map((view) => [view.id, view.status])).toEqual([
      [1, 'cancelled'],
      [2, 'completed'],
    ]);
    for (const videoId of describePlaylist(playlist).videoIds())
      expect(sim.admin.chargesFor(videoId)).toBeLessThanOrEqual(1);
  });
});
