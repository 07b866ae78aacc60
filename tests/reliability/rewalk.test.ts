import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { readZip, runCli, tempDir } from '../support/cli';

let sim: RunningSimulator;
afterEach(() => sim.close());

it('the next run of the same command walks again, from its cursor, a list that could not be walked', async () => {
  sim = await startSimulator({ credits: 1000 });
  const dir = tempDir();
  const out = join(dir, 'c.zip');
  const env = { TRANSCRIPT_API_KEY: sim.key, TRANSCRIPT_API_BASE_URL: sim.url, SCRIPTORIUM_DATA_DIR: dir };
  const args = ['export', 'PLfaultMatrixShortList_n5', '@fault_matrix_channel_n8', '--out', out];
  sim.admin.addFault({ kind: 'status', status: 500, match: { endpoint: 'channel/videos' } });
  const first = await runCli(args, env);
  expect(first.code).toBe(5);
  expect(first.stderr).toMatch(/running the same command again tries again from where it stopped/);
  // The channel's row: no video ID, the source as typed (an identifier, written as it is).
  const row = (await readZip(out)).errors[1];
  expect([...(row ?? []).slice(0, 3), row?.[5]]).toEqual(['', 'failed', '500', '@fault_matrix_channel_n8']);

  sim.admin.clearFaults();
  const again = await runCli(args, env);
  expect(again.code, again.stderr).toBe(0);
  expect(sim.admin.requests().filter((request) => request.path.endsWith('/channel/videos'))).toHaveLength(2);
  const zip = await readZip(out);
  expect(zip.index.slice(1)).toHaveLength(13);
  expect(zip.errors.slice(1).filter((cells) => cells[5] === '@fault_matrix_channel_n8')).toEqual([]);
});
