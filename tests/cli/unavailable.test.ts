import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { readZip, runCli, tempDir } from '../support/cli';

// "Unavailable" is final only when the service itself said so; and it can be asked again.
let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;

beforeEach(async () => {
  dir = tempDir();
  sim = await startSimulator({ credits: 1000 });
  env = { TRANSCRIPT_API_KEY: sim.key, SCRIPTORIUM_DATA_DIR: join(dir, 'data') };
});

afterEach(async () => {
  await sim.close();
});

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

describe('a wrong path in the service address', () => {
  it('pauses the job as the service unreachable (exit 6), marks nothing, and the right address finishes it', async () => {
    const out = join(dir, 'x.zip');
    const wrong = await runCli(
      ['export', 'dQw4w9WgXcQ', '--out', out, '--base-url', `${sim.url}/wrong/`],
      env,
    );
    expect(wrong.code).toBe(6);
    expect(lastLine(wrong.stderr)).toBe(
      `Paused: No Transcript Service answers at ${sim.url}/wrong/ (it answered 404 to /wrong/api/v2/transcript with something else than the service's own answer): check the service address. Progress is saved; run the same command again later to continue.`,
    );
    expect(sim.admin.ledger()).toEqual([]);

    const right = await runCli(['export', 'dQw4w9WgXcQ', '--out', out, '--base-url', sim.url], env);
    expect(right.code, right.stderr).toBe(0);
    expect(right.stdout).toMatch(/transcripts: 1, unavailable: 0, failed: 0/);
    expect((await readZip(out)).manifest.counts).toMatchObject({ ok: 1, unavailable: 0 });
  });
});

describe('--retry-unavailable', () => {
  it('asks the service again for the videos it said it had no transcript for', async () => {
    const out = join(dir, 'x.zip');
    const args = ['export', 'dQw4w9WgXcQ', 'jNQXAC9IVRw', '--out', out, '--base-url', sim.url];
    // The service has no captions for one of them today.
    sim.admin.addFault({ match: { videoId: 'jNQXAC9IVRw' }, kind: 'status', status: 404, times: 1 });
    const first = await runCli(args, env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/transcripts: 1, unavailable: 1/);

    const again = await runCli(args, env);
    expect(again.stderr).toMatch(/is already complete/);
    expect(sim.admin.chargesFor('jNQXAC9IVRw')).toBe(0);

    const retried = await runCli([...args, '--retry-unavailable'], env);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toMatch(/transcripts: 2, unavailable: 0/);
    expect(sim.admin.chargesFor('jNQXAC9IVRw')).toBe(1);
    expect(sim.admin.chargesFor('dQw4w9WgXcQ')).toBe(1);
  });
});
