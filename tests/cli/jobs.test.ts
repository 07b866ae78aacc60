import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readZip, runCli, tempDir, type CliResult } from '../support/cli';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs a command line as a shell would, in the project folder. */
function runShell(command: string, env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env['PATH'], ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ credits: 12 });
});

afterAll(async () => {
  await sim.close();
});

describe('scriptorium jobs', () => {
  it('says there are no jobs yet on a new data folder', async () => {
    const result = await runCli(['jobs'], { SCRIPTORIUM_DATA_DIR: tempDir() });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/No jobs yet/);
  });

  it('lists each job with its status, counts and credits, and the last refusal for credits', async () => {
    const dir = tempDir();
    const env = {
      TRANSCRIPT_API_KEY: sim.key,
      TRANSCRIPT_API_BASE_URL: sim.url,
      SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
    };
    expect((await runCli(['export', 'dQw4w9WgXcQ', '--out', join(dir, 'a.zip')], env)).code).toBe(0);
    expect((await runCli(['export', 'PLjobsList_n30', '--out', join(dir, 'b.zip')], env)).code).toBe(3);

    const result = await runCli(['jobs'], env);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^job\s+status\s+videos\s+ok\s+unavailable\s+failed\s+skipped\s+pending\s+credits\s+created\s+name$/,
    );
    const rows = lines.filter((line) => /^\d+\s/.test(line));
    expect(rows).toHaveLength(2);
    // A job of one video is named after it.
    expect(rows.find((row) => row.startsWith('1 '))).toMatch(
      /^1\s+completed\s+1\s+1\s+0\s+0\s+0\s+0\s+1\s.*dQw4w9WgXcQ$/,
    );
    expect(rows.find((row) => row.startsWith('2 '))).toMatch(
      /^2\s+waiting for credits\s+30\s+\d+\s+\d+\s+0\s+0\s+\d+\s+11\s/,
    );
    expect(result.stdout).toMatch(/Credits spent: 12 today, 12 in total/);
    expect(result.stdout).toMatch(/E_FREE_GRANT_DEPLETED/);
  });
});

describe('the command scriptorium jobs prints to continue a job', () => {
  it('runs as printed, from where the user is: the same job, its options and filters, its --out', async () => {
    const dir = tempDir();
    const env = {
      TRANSCRIPT_API_KEY: sim.key,
      TRANSCRIPT_API_BASE_URL: sim.url,
      SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
    };
    sim.admin.topUp(1000);
    const out = join(dir, 'my corpus.zip');
    const args = ['export', 'PLjobsContinued_n30', '--lang', 'en,orig', '--max-videos', '20'];
    const options = ['--reject-title', "it's", '--items', '1-15', '--formats', 'txt,chunks'];
    const chunking = ['--chunk-seconds', '30', '--chunk-overlap', '5', '--concurrency', '2'];
    const stopped = await runCli([...args, ...options, ...chunking, '--budget', '4', '--out', out], env);
    expect(stopped.code).toBe(3);

    const listed = await runCli(['jobs'], env, { cwd: PROJECT_ROOT });
    const command = /^ {2}Continue with: (.*)$/m.exec(listed.stdout)?.[1] ?? '';
    // Run from the project folder without `npm link`: the CLI is ./bin/scriptorium there.
    expect(command).toMatch(/^\.\/bin\/scriptorium export PLjobsContinued_n30 /);
    expect(command).toContain(`--out '${out}'`);
    expect(listed.stdout).toMatch(/\(with a --budget larger than its 4 credits, to buy more\)/);

    const continued = await runShell(command.replace('--budget 4', '--budget 100'), env);
    expect(continued.code, continued.stderr).toBe(0);
    expect(continued.stderr).toMatch(/^Continuing job 1, /m);
    expect(JSON.parse((await runCli(['jobs', '--json'], env)).stdout)).toHaveLength(1);
    const zip = await readZip(out);
    expect(zip.chunks?.length).toBeGreaterThan(0);
    expect(zip.entries.some((entry) => entry.name.startsWith('srt/'))).toBe(false);
  });

  it('says how many videos a finished job failed, beside its status', async () => {
    const dir = tempDir();
    const env = {
      TRANSCRIPT_API_KEY: sim.key,
      TRANSCRIPT_API_BASE_URL: sim.url,
      SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
    };
    sim.admin.topUp(10);
    sim.admin.addFault({ match: { videoId: 'jNQXAC9IVRw' }, kind: 'status', status: 500 });
    try {
      const exported = await runCli(
        ['export', 'dQw4w9WgXcQ', 'jNQXAC9IVRw', '--out', join(dir, 'f.zip')],
        env,
      );
      expect(exported.code).toBe(5);
    } finally {
      sim.admin.clearFaults();
    }
    const listed = await runCli(['jobs'], env);
    expect(listed.stdout).toMatch(/^1\s+completed, 1 failed\s+2\s+1\s+0\s+1\s/m);
  });

  it('says why a cancelled job stopped once', async () => {
    const dir = tempDir();
    const env = { SCRIPTORIUM_DATA_DIR: join(dir, 'data') };
    const db = await runCli(['export', 'dQw4w9WgXcQ', '--out', join(dir, 'x.zip')], {
      ...env,
      TRANSCRIPT_API_KEY: sim.key,
      TRANSCRIPT_API_BASE_URL: sim.url,
    });
    expect(db.code).toBe(0);
    const file = new Database(join(dir, 'data', 'scriptorium.db'));
    file
      .prepare("UPDATE jobs SET status = 'cancelled', stop_reason = 'cancelled', stop_message = 'cancelled'")
      .run();
    file.close();
    const listed = await runCli(['jobs'], env);
    expect(listed.stdout).toMatch(/^Job 1 is cancelled\.$/m);
  });
});

describe('scriptorium credits', () => {
  it('records a balance and estimates what is left as jobs spend', async () => {
    const dir = tempDir();
    const env = {
      TRANSCRIPT_API_KEY: sim.key,
      TRANSCRIPT_API_BASE_URL: sim.url,
      SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
    };
    sim.admin.topUp(50);
    const set = await runCli(['credits', '--balance', '40'], env);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/Balance entered: 40; estimated remaining: 40\./);

    expect((await runCli(['export', 'PLcreditsCmd_n5', '--out', join(dir, 'c.zip')], env)).code).toBe(0);
    const shown = await runCli(['credits'], env);
    expect(shown.stdout).toMatch(/Credits spent: 6 today, 6 in total\.\n {2}job 1: 6\n/);
    expect(shown.stdout).toMatch(/estimated remaining: 34\./);

    const refused = await runCli(['credits', '--balance', 'lots'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--balance lots: expected a whole number/);
  });
});

describe('a database from a newer Scriptorium', () => {
  it('is refused as an unusable data folder (exit 8) with a plain message, and left untouched', async () => {
    const dir = tempDir();
    const file = join(dir, 'scriptorium.db');
    const db = new Database(file);
    db.pragma('user_version = 99');
    db.close();
    const before = readFileSync(file);

    const result = await runCli(['jobs', '--data-dir', dir]);
    expect(result.code).toBe(8);
    expect(result.stderr.trim()).toMatch(
      /newer version of Scriptorium \(schema 99.*Update Scriptorium or use another --data-dir/,
    );
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});
