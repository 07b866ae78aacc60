import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { invocation } from '../../src/cli/invocation';
import { DEMO_KEY } from '../../src/simulator';
import { sourceAsExported } from '../simulator/source-as-exported';

// Runs the built CLI (`npm run build:cli`, which `npm test` does first), as a user would.
const BIN = fileURLToPath(new URL('../../bin/scriptorium', import.meta.url));

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function run(args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: 'pipe' });
  children.push(child);
  return child;
}

function exitCode(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Resolves with stdout once it contains `pattern`. */
function waitForOutput(child: ChildProcessWithoutNullStreams, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (pattern.test(output)) resolve(output);
    });
    child.once('exit', (code) =>
      reject(new Error(`exited with ${code} before printing ${pattern}: ${output}`)),
    );
  });
}

/** What the hint promises a source holds: a PL… ID is a playlist, anything else a channel, of _n<N> videos. */
function promisedBy(source: string): { source: string; kind: string; videos: number } {
  const kind = /^(PL|UU|LL|FL|OL)/.test(source) ? 'playlist' : 'channel';
  return { source, kind, videos: Number(/_n(\d+)$/.exec(source)?.[1]) };
}

test('sim prints its address and key, serves requests, and exits 0 on SIGINT', async () => {
  const child = run(['sim', '--port', '0', '--credits', '5']);
  const output = await waitForOutput(child, /Press Ctrl\+C to stop\.\n/);
  const url = /Simulator listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
  expect(url).toBeDefined();
  expect(output).toContain(`API key: ${DEMO_KEY}`);
  // As this CLI is run (a checkout's ./bin/scriptorium is not on the PATH), with a data folder of its own.
  const hint =
    /Try: TRANSCRIPT_API_KEY=(\S+) (\S+) export (.+) --base-url (\S+) --data-dir (\S+) --out \S+\n/.exec(
      output,
    );
  expect(hint?.slice(1)).toEqual([
    DEMO_KEY,
    invocation(BIN),
    expect.any(String),
    url,
    join(tmpdir(), `scriptorium-sim-${new URL(url!).port}`),
  ]);

  // The suggested sources export the lists the hint's rule promises, checked as the app reads them.
  expect(output).toContain('any playlist ID or @handle ending in _n<N> has N videos');
  const sources = hint?.[3]?.split(' ') ?? [];
  expect(sources.map(promisedBy).map((promise) => promise.kind)).toContain('playlist');
  expect(sources.map((source) => ({ source, ...sourceAsExported(source) }))).toEqual(sources.map(promisedBy));

  const reply = await fetch(`${url}/api/v2/channel/resolve?input=%40demo`, {
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'user-agent': 'cli-test' },
  });
  expect(reply.status).toBe(200);
  expect(await (await fetch(`${url}/__admin/credits`)).json()).toEqual({ credits: 5 });

  const exited = exitCode(child);
  child.kill('SIGINT');
  expect(await exited).toBe(0);
});

test('sim accepts the key given with --key instead of the demo key', async () => {
  const child = run(['sim', '--key', 'sk_custom_key']);
  const output = await waitForOutput(child, /Press Ctrl\+C to stop\.\n/);
  const url = /listening on (\S+)/.exec(output)?.[1] ?? '';
  const ask = (key: string) =>
    fetch(`${url}/api/v2/channel/resolve?input=%40demo`, {
      headers: { authorization: `Bearer ${key}`, 'user-agent': 't' },
    });
  expect((await ask('sk_custom_key')).status).toBe(200);
  expect((await ask(DEMO_KEY)).status).toBe(401);
  const exited = exitCode(child);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
});

test.each([[['--port', '70000']], [['--credits=-5']], [['--rate', '1.5']]])(
  'sim %j exits 2 with one plain line on stderr',
  async (args) => {
    const child = run(['sim', ...args]);
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    expect(await exitCode(child)).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/--(port|credits|rate)|not understood/);
  },
);
