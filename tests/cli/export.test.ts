import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { startRequestGate, type RequestGate } from '../reliability/request-gate';
import { readZip, runCli, startCli, tempDir } from '../support/cli';

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;
let gate: RequestGate | undefined;

async function startSim(options: Parameters<typeof startSimulator>[0] = {}) {
  sim = await startSimulator({ credits: 1000, ...options });
  env = {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
  };
}

beforeEach(() => {
  dir = tempDir();
});

afterEach(async () => {
  await gate?.close();
  gate = undefined;
  await sim?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Why the data folder's only job stopped, read with a connection of the test's own. */
function stopReasonIn(dataDir: string): string | null {
  const db = new Database(join(dataDir, 'scriptorium.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT stop_reason FROM jobs').get() as
      { stop_reason: string | null } | undefined;
    return row?.stop_reason ?? null;
  } finally {
    db.close();
  }
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

describe('scriptorium export', () => {
  it('exports a playlist, a channel and single videos into a ZIP that Python reads back', async () => {
    await startSim();
    const out = join(dir, 'corpus.zip');
    const result = await runCli(
      [
        'export',
        'PLcliTest_n30',
        '@cli_channel_n12',
        'https://youtu.be/dQw4w9WgXcQ',
        'nocapVideo1',
        '--out',
        out,
      ],
      env,
    );
    expect(result.stderr).not.toContain(sim.key);
    expect(result.code, result.stderr).toBe(0);

    const zip = await readZip(out);
    expect(zip.bad_crc).toBeNull();
    expect(zip.path_problems).toEqual([]);
    const [header, ...rows] = zip.index;
    expect(header?.slice(0, 6)).toEqual(['video_id', 'title', 'language', 'status', 'segments', 'source']);
    expect(rows).toHaveLength(30 + 12 + 2);
    const statusOf = (id: string) => rows.find((row) => row[0] === id)?.[3];
    expect(statusOf('nocapVideo1')).toBe('unavailable');
    expect(statusOf('dQw4w9WgXcQ')).toBe('ok');

    const ok = rows.filter((row) => row[3] === 'ok');
    expect(zip.transcripts).toHaveLength(ok.length);
    expect(zip.errors.slice(1).map((row) => row[0])).toEqual(
      rows.filter((row) => row[3] !== 'ok').map((row) => row[0]),
    );
    for (const format of ['txt', 'json', 'srt', 'vtt']) {
      const files = zip.entries.filter((entry) => entry.name.startsWith(`${format}/`));
      expect(files).toHaveLength(ok.length);
      expect(files.every((file) => /\[[A-Za-z0-9_-]{11}\]\.\w+$/.test(file.name))).toBe(true);
    }
    // The texts: each txt file holds its transcript's segments, one per line, as the service sent them.
    const rick = zip.transcripts.find((line) => line.video_id === 'dQw4w9WgXcQ');
    const rickTxt = Object.entries(zip.files).find(
      ([name]) => name.startsWith('txt/') && name.endsWith('[dQw4w9WgXcQ].txt'),
    );
    const segmentTexts = (rick?.segments as Array<{ text: string }>).map((segment) =>
      segment.text.replace(/\s*[\r\n]+\s*/g, ' ').trim(),
    );
    expect(rickTxt?.[1].trimEnd().split('\n')).toEqual(segmentTexts);
    // Credits counted locally match what the service charged: pages plus transcripts.
    expect(zip.manifest.credits_spent).toBe(sim.admin.ledger().length);
    expect(zip.manifest.counts).toEqual({
      videos: 44,
      ok: ok.length,
      unavailable: 44 - ok.length,
      failed: 0,
      pending: 0,
      skipped: 0,
      sources_failed: 0,
    });
    expect(zip.manifest.job_finished).toBe(true);
    expect(result.stdout).toContain(`transcripts: ${ok.length}`);
    // The key stays in the environment: never in the database, its journal or the output.
    for (const file of readdirSync(join(dir, 'data'))) {
      expect(readFileSync(join(dir, 'data', file)).includes(sim.key), file).toBe(false);
    }
    expect(result.stdout).not.toContain(sim.key);
  });

  it('exports a finished job again without a single request, byte for byte the same', async () => {
    await startSim();
    const first = join(dir, 'first.zip');
    const second = join(dir, 'second.zip');
    expect((await runCli(['export', 'PLexportsTwice_n15', '--out', first], env)).code).toBe(0);
    const requests = sim.admin.requests().length;
    const again = await runCli(['export', 'PLexportsTwice_n15', '--out', second], env);
    expect(again.code, again.stderr).toBe(0);
    expect(sim.admin.requests()).toHaveLength(requests);
    expect(sha256(second)).toBe(sha256(first));
    expect(readdirSync(dir).filter((name) => name.includes('partial'))).toEqual([]);
  });

  it('reads sources from a file, lists the invalid ones with their line, and skips them', async () => {
    await startSim();
    const list = join(dir, 'sources.txt');
    writeFileSync(list, '# my corpus\n\ndQw4w9WgXcQ\nnot a source at all\nPLfromFile_n5\n');
    const out = join(dir, 'list.zip');
    const result = await runCli(['export', '--from', list, '--out', out], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/line 4: "not a source at all"/);
    const zip = await readZip(out);
    expect(zip.index.slice(1)).toHaveLength(6);
    expect(zip.manifest.skipped_sources).toHaveLength(1);
    expect(zip.manifest.skipped_sources[0]?.source).toBe('not a source at all');
  });

  describe('exit 2: bad arguments cost nothing', () => {
    const cases: Array<[string, string[], Record<string, string | undefined>, RegExp]> = [
      [
        'no valid source',
        ['export', 'https://example.com/x', 'search:', '--out', 'X'],
        {},
        /No valid source/,
      ],
      [
        'no key set',
        ['export', 'dQw4w9WgXcQ', '--out', 'X'],
        { TRANSCRIPT_API_KEY: undefined },
        /TRANSCRIPT_API_KEY/,
      ],
      ['a bad --lang', ['export', 'dQw4w9WgXcQ', '--lang', 'english!', '--out', 'X'], {}, /--lang/],
      ['an unknown format', ['export', 'dQw4w9WgXcQ', '--formats', 'pdf', '--out', 'X'], {}, /--formats/],
      [
        'srt without timestamps',
        ['export', 'dQw4w9WgXcQ', '--no-timestamps', '--formats', 'srt', '--out', 'X'],
        {},
        /timestamps/,
      ],
      [
        'a bad --concurrency',
        ['export', 'dQw4w9WgXcQ', '--concurrency', 'many', '--out', 'X'],
        {},
        /--concurrency/,
      ],
      ['a missing --out', ['export', 'dQw4w9WgXcQ'], {}, /--out/],
      [
        'a name too long',
        ['export', 'dQw4w9WgXcQ', '--name', 'x'.repeat(201), '--out', 'X'],
        {},
        /--name: a name has at most 200 characters/,
      ],
      [
        'an --out in a missing folder',
        ['export', 'dQw4w9WgXcQ', '--out', '/nonexistent/dir/x.zip'],
        {},
        /does not exist/,
      ],
      ['an unknown option', ['export', 'dQw4w9WgXcQ', '--colour', '--out', 'X'], {}, /not understood/],
    ];
    it.each(cases)('%s', async (_name, args, extraEnv, message) => {
      await startSim();
      const argv = args.map((arg) => (arg === 'X' ? join(dir, 'x.zip') : arg));
      const result = await runCli(argv, { ...env, ...extraEnv });
      expect(result.code).toBe(2);
      expect(lastLine(result.stderr)).toMatch(message);
      expect(result.stderr).not.toMatch(/Starting job/);
      expect(sim.admin.requests()).toEqual([]);
      expect(existsSync(join(dir, 'x.zip'))).toBe(false);
      // Nothing could run, so nothing was created.
      expect(JSON.parse((await runCli(['jobs', '--json'], env)).stdout)).toEqual([]);
    });
  });

  it('exit 3 when the credits run out, then continues after a top-up without buying anything twice', async () => {
    await startSim({ credits: 10 });
    const out = join(dir, 'credits.zip');
    const args = ['export', 'PLcredits_n25', '--out', out];
    const paused = await runCli(args, env);
    expect(paused.code).toBe(3);
    expect(lastLine(paused.stderr)).toMatch(
      /free credit grant is used up.*E_FREE_GRANT_DEPLETED.*run the same command again/i,
    );
    // The transcripts already paid for can be read before paying more.
    const partial = await readZip(out);
    expect(partial.manifest.job_finished).toBe(false);
    const bought = partial.index.slice(1).filter((row) => row[3] === 'ok');
    expect(bought.length).toBeGreaterThan(0);
    expect(partial.transcripts).toHaveLength(bought.length);
    expect(partial.index.slice(1).filter((row) => row[3] === 'pending')).toHaveLength(
      25 - partial.index.slice(1).filter((row) => row[3] !== 'pending').length,
    );
    expect(partial.manifest.counts.pending).toBeGreaterThan(0);

    sim.admin.topUp(100);
    const resumed = await runCli(args, env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const charged = sim.admin.ledger().filter((charge) => charge.endpoint === 'transcript');
    expect(new Set(charged.map((charge) => charge.videoId)).size).toBe(charged.length);
    expect((await readZip(out)).manifest.credits_spent).toBe(sim.admin.ledger().length);
  });

  it('exit 3 at the budget, then a larger budget finishes the job', async () => {
    await startSim();
    const out = join(dir, 'budget.zip');
    const paused = await runCli(['export', 'PLbudget_n20', '--budget', '6', '--out', out], env);
    expect(paused.code).toBe(3);
    expect(lastLine(paused.stderr)).toMatch(/budget of 6 credits.*larger --budget/);
    expect(sim.admin.ledger()).toHaveLength(6);
    // The same budget again: said to be spent at once, with nothing promised and nothing sent.
    const again = await runCli(['export', 'PLbudget_n20', '--budget', '6', '--out', out], env);
    expect(again.code).toBe(3);
    expect(again.stderr).not.toMatch(/to spend|to buy|0\/0 videos/);
    expect(lastLine(again.stderr)).toMatch(/budget of 6 credits.*larger --budget/);
    expect(sim.admin.ledger()).toHaveLength(6);

    const finished = await runCli(['export', 'PLbudget_n20', '--budget', '100', '--out', out], env);
    expect(finished.code, finished.stderr).toBe(0);
    // What the budget still allows is said before the run.
    expect(finished.stderr).toMatch(
      /^Continuing job 1, “.+” \(1 source\): up to 15 transcripts to buy, at most 15 credits; the budget allows 94 more credits\.$/m,
    );
  });

  it('names the job as --name says, without making it another job', async () => {
    await startSim();
    const out = join(dir, 'named.zip');
    expect((await runCli(['export', 'dQw4w9WgXcQ', '--name', 'My talk', '--out', out], env)).code).toBe(0);
    expect((await runCli(['export', 'dQw4w9WgXcQ', '--out', out], env)).code).toBe(0);
    const jobs = JSON.parse((await runCli(['jobs', '--json'], env)).stdout) as Array<{ title: string }>;
    expect(jobs.map((job) => job.title)).toEqual(['My talk']);
  });

  it('says what a new job will do before its lists are read, without promising 0 transcripts', async () => {
    await startSim();
    const result = await runCli(['export', 'PLplanned_n30', 'dQw4w9WgXcQ', '--out', join(dir, 'p.zip')], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /^Starting job 1, “PLplanned_n30 and dQw4w9WgXcQ” \(2 sources\): 1 list to read first \(a credit a page\), then a credit for each transcript they hold besides the 1 transcript known so far\.$/m,
    );
    expect(result.stderr).not.toMatch(/up to 0 transcript/);
  });

  it('exit 4 when the key is refused, with nothing charged', async () => {
    await startSim();
    const result = await runCli(['export', 'PLrefused_n5', '--out', join(dir, 'k.zip')], {
      ...env,
      TRANSCRIPT_API_KEY: 'sk_wrong_key_123',
    });
    expect(result.code).toBe(4);
    expect(lastLine(result.stderr)).toMatch(/refused the API key.*TRANSCRIPT_API_KEY/);
    expect(result.stderr).not.toContain('sk_wrong_key_123');
    expect(sim.admin.ledger()).toEqual([]);
  });

  it('exit 5 when some videos failed, with the ZIP written and the failures in errors.csv', async () => {
    await startSim();
    sim.admin.addFault({ match: { videoId: 'jNQXAC9IVRw' }, kind: 'status', status: 500 });
    const out = join(dir, 'failed.zip');
    const result = await runCli(['export', 'dQw4w9WgXcQ', 'jNQXAC9IVRw', '--out', out], env);
    expect(result.code).toBe(5);
    expect(lastLine(result.stderr)).toMatch(/1 video failed: .*errors\.csv.*--retry-failed/);
    const zip = await readZip(out);
    expect(zip.errors.slice(1)).toEqual([
      ['jNQXAC9IVRw', 'failed', '500', expect.any(String), expect.any(String), 'jNQXAC9IVRw'],
    ]);

    sim.admin.clearFaults();
    const retried = await runCli(
      ['export', 'dQw4w9WgXcQ', 'jNQXAC9IVRw', '--retry-failed', '--out', out],
      env,
    );
    expect(retried.code, retried.stderr).toBe(0);
    expect((await readZip(out)).errors.slice(1)).toEqual([]);
  });

  it('refuses to run a job that another live Scriptorium process holds (exit 7), and runs it once free', async () => {
    await startSim();
    const args = ['export', 'PLbusyJobList_n30', '--out', join(dir, 'busy.zip')];
    // Create the job without buying anything, then let a live process (this test's) hold its lease.
    expect((await runCli([...args, '--budget', '0'], env)).code).toBe(3);
    const db = new Database(join(dir, 'data', 'scriptorium.db'));
    const hold = db.prepare('UPDATE jobs SET lease_owner = ?, lease_expires_at = ?');
    hold.run(`${process.pid}-another-process`, Date.now() + 3_600_000);

    // A larger budget than the job's 0, which the same command without --budget would keep.
    const second = await runCli([...args, '--budget', '100'], env);
    expect(second.code).toBe(7);
    expect(lastLine(second.stderr)).toMatch(/being run by another Scriptorium process/);
    // Nothing is promised of a run that does not start here.
    expect(second.stderr).not.toMatch(/Continuing job|to buy|to read first/);
    expect(sim.admin.requests()).toEqual([]);

    hold.run(null, null);
    db.close();
    const freed = await runCli([...args, '--budget', '100'], env);
    expect(freed.code, freed.stderr).toBe(0);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'exit 130 on %s: the requests in flight finish and are kept, nothing more is sent, and the same command then finishes the job',
    async (signal) => {
      await startSim();
      gate = await startRequestGate(sim.url);
      const out = join(dir, 'interrupted.zip');
      const args = ['export', `PL${signal}_n20`, '--concurrency', '2', '--out', out];
      const running = startCli(args, { ...env, TRANSCRIPT_API_BASE_URL: gate.url });
      // Two purchases in flight, held at the gate: the process is at a known point, not a moment in time.
      await gate.whenWaiting(2);
      running.child.kill(signal);
      // Once the job records the interruption, the two go through: they finish, and are kept.
      while (stopReasonIn(join(dir, 'data')) !== 'interrupted') await sleep(20);
      gate.releaseWaiting();
      const interrupted = await running.done;
      expect(interrupted.code).toBe(130);
      expect(lastLine(interrupted.stderr)).toMatch(/Interrupted.*run the same command again/i);
      expect(gate.received()).toBe(2);
      const transcriptCharges = () => sim.admin.ledger().filter((charge) => charge.endpoint === 'transcript');
      expect(transcriptCharges()).toHaveLength(2);

      const finished = await runCli(args, env);
      expect(finished.code, finished.stderr).toBe(0);
      // The requests in flight at the interruption were kept: none was bought again.
      const charged = transcriptCharges();
      expect(new Set(charged.map((charge) => charge.videoId)).size).toBe(charged.length);
      expect((await readZip(out)).index.slice(1)).toHaveLength(20);
    },
  );

  it('a second Ctrl+C cuts the requests in flight: the next run says they were interrupted, not failed after every retry', async () => {
    await startSim();
    gate = await startRequestGate(sim.url);
    const out = join(dir, 'cut.zip');
    const args = ['export', 'PLcutByASecondSignal_n6', '--concurrency', '2', '--out', out];
    const running = startCli(args, { ...env, TRANSCRIPT_API_BASE_URL: gate.url });
    await gate.whenWaiting(2);
    running.child.kill('SIGINT');
    while (stopReasonIn(join(dir, 'data')) !== 'interrupted') await sleep(20);
    running.child.kill('SIGINT');
    expect((await running.done).code).toBe(130);

    const next = await runCli(args, env);
    expect(next.code).toBe(5);
    expect(lastLine(next.stderr)).toBe(
      `Exported ${out}, but 2 videos were cut off by a forced stop after being sent, and may have been charged. All are listed in errors.csv. Run the same command with --retry-failed to send them again.`,
    );
    const cut = (await readZip(out)).errors.slice(1).filter((row) => row[1] === 'failed');
    expect(cut).toHaveLength(2);
    for (const row of cut) {
      expect(row.slice(1, 4)).toEqual(['failed', '', 'interrupted']);
      expect(row[4]).toMatch(
        /^The request was cut off by a forced stop after it was sent; it may have been charged/,
      );
    }
  });
});
