import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { readZip, runCli, tempDir } from '../support/cli';

let sim: RunningSimulator | undefined;
let dir: string | undefined;

afterEach(async () => {
  await sim?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

it('warns that a bare 11-character PL… ID is read as a video, next to the rejected sources', async () => {
  sim = await startSimulator({ credits: 100 });
  dir = tempDir();
  const out = join(dir, 'one.zip');
  const result = await runCli(['export', 'PLabcdefghi', '@café', 'dQw4w9WgXcQ', '--out', out], {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
  });
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stderr.split('\n');
  expect(lines).toContain(
    'Warning: argument 1: "PLabcdefghi" is read as a video ID because it has 11 characters; playlist IDs are longer ' +
      '(18 or 34 characters for PL ones) and channel IDs have 24: paste the full URL if you meant a playlist or channel',
  );
  expect(lines).toContain(
    '  argument 2: "@café" is not a valid source: a channel @handle takes only ASCII letters, digits, ., _ and -: ' +
      'the service refuses accented and other non-ASCII letters',
  );
  // No warning nor refusal for the well-formed video (the plan names the job after its sources).
  expect(
    lines.filter((line) => line.includes('dQw4w9WgXcQ') && !line.startsWith('Starting job 1, ')),
  ).toEqual([]);
  // Read as it warned: one video, not a playlist.
  const zip = await readZip(out);
  expect(zip.index.slice(1).map((row) => [row[0], row[5]])).toEqual([
    ['PLabcdefghi', 'PLabcdefghi'],
    ['dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
  ]);
});
