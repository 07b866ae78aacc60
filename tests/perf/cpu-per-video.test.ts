import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/core/api';
import { Engine } from '../../src/core/engine';
import { openDatabase } from '../../src/core/store';
import { CLI, tempDir } from '../support/cli';
import { spec } from '../core/engine/helpers';
import { baseline } from './baseline';

// A regression check CI can afford (the real figures are bench/run.mjs's): the engine's CPU time per
// video over 1,000-video walks + fetches, against the baseline recorded in bench/baseline.json with a
// generous margin, so that a change cannot quietly give back what the speed work won. CPU time, not
// wall time, but it still grows on a busy machine (shared cores, more wake-ups): the margin is wide
// enough for two busy loops beside the suite, so it catches a doubling, not a few per cent. The
// simulator runs in a process of its own, so only the engine (and this test's own small overhead) is
// counted.

const VIDEOS = 1000;
let sim: { child: ChildProcess; url: string; key: string };

beforeAll(async () => {
  const child = spawn(process.execPath, [CLI, 'sim', '--port', '0', '--credits', '1000000'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    output += chunk.toString();
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output)?.[0];
    const key = /API key: (\S+)/.exec(output)?.[1];
    if (url !== undefined && key !== undefined) {
      sim = { child, url, key };
      return;
    }
  }
});

afterAll(() => {
  sim.child.kill('SIGINT');
});

it(`spends no more CPU per video than ${baseline.engineMargin}x the recorded baseline`, async () => {
  const db = openDatabase(join(tempDir(), 'scriptorium.db'));
  const client = createClient({ baseUrl: sim.url, apiKey: sim.key, userAgent: 'Scriptorium/perf' });
  const engine = new Engine({
    db,
    client,
    clock: { now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
  });
  // A warm-up job, so that the measured ones run on compiled code as a long job would.
  await engine.run(engine.findOrCreateJob(spec(['PLperfWarmUpListing_n2000'])).job.id, { concurrency: 16 });

  // The least of three jobs: whatever else the machine does can only add CPU time, never take it away.
  const perVideo: number[] = [];
  for (const list of ['PLperfRegressionListA', 'PLperfRegressionListB', 'PLperfRegressionListC']) {
    const { job } = engine.findOrCreateJob(spec([`${list}_n${VIDEOS}`]));
    const before = process.cpuUsage();
    const outcome = await engine.run(job.id, { concurrency: 16 });
    const used = process.cpuUsage(before);
    expect(outcome.status).toBe('completed');
    perVideo.push((used.user + used.system) / 1000 / VIDEOS);
  }
  await client.close();
  db.close();

  const least = Math.min(...perVideo);
  console.log(
    `CPU per video: ${perVideo.map((ms) => ms.toFixed(3)).join(', ')} ms (baseline ${baseline.cpuMillisecondsPerVideo} ms)`,
  );
  expect(least).toBeLessThanOrEqual(baseline.cpuMillisecondsPerVideo * baseline.engineMargin);
}, 120_000);
