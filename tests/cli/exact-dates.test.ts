/**
 * Issue 43: channel/latest is free and gives the exact time of a channel's latest videos, where its
 * pages say "2 years ago". A first export uses it, and a later read gives the videos the corpus
 * already holds their exact times: a change, in changes.csv, and the next version. Read back with
 * Python; the exact times asked of the simulator directly.
 */
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeChannel, startSimulator, type RunningSimulator } from '../../src/simulator';
import { readZip, runCli, tempDir } from '../support/cli';

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startSimulator({ credits: 10_000 });
  dir = tempDir();
  env = {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
  };
});

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A CSV read by Python, as one object per row keyed by the header. */
function rowsOf(table: string[][] | null): Array<Record<string, string>> {
  const [header = [], ...rows] = table ?? [];
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}

/** The simulator's channel/latest, asked directly: its videos' exact times. */
async function latestOf(channel: string): Promise<Map<string, string>> {
  const channelId = describeChannel(channel).channelId!;
  const response = await fetch(`${sim.url}/api/v2/channel/latest?channel=${channelId}`, {
    headers: { authorization: `Bearer ${sim.key}`, 'user-agent': 'scriptorium-test' },
  });
  const body = (await response.json()) as { results: Array<{ videoId: string; published: string }> };
  return new Map(body.results.map((video) => [video.videoId, video.published]));
}

it('dates the latest videos exactly on a first export, and the rest by intervals', async () => {
  const channel = '@exactFirst_n30';
  const out = join(dir, 'first.zip');
  const run = await runCli(['export', channel, '--formats', 'json', '--out', out], env);
  expect(run.code, run.stderr).toBe(0);
  const latest = await latestOf(channel);
  expect(latest.size).toBe(15);
  const zip = await readZip(out);
  const rows = rowsOf(zip.index);
  expect(rows).toHaveLength(30);
  for (const row of rows) {
    const exact = latest.get(row['video_id']!);
    if (exact === undefined) {
      expect(row['published'], row['video_id']).toMatch(/ ago$/);
      expect(row['published_from']! < row['published_to']!, row['video_id']).toBe(true);
    } else {
      expect(row['published']).toBe(exact);
      expect([row['published_from'], row['published_to']]).toEqual([exact.slice(0, 10), exact.slice(0, 10)]);
    }
  }
  const records = zip.transcripts.filter((record) => latest.has(record.video_id));
  expect(records.length).toBeGreaterThan(10);
  for (const record of records) expect(record['published']).toBe(latest.get(record.video_id));
});

it('gives the videos a corpus holds the exact times a later read finds: a change, and the next version', async () => {
  const channel = '@exactLater_n30';
  const out = join(dir, 'later.zip');
  const args = ['export', channel, '--formats', 'json', '--out', out];
  // channel/latest does not answer the first export: every date is an interval.
  sim.admin.addFault({ match: { endpoint: 'channel/latest' }, kind: 'status', status: 500, times: 1 });
  expect((await runCli(args, env)).code).toBe(0);
  const first = await readZip(out);
  expect(rowsOf(first.index).every((row) => row['published_from']! < row['published_to']!)).toBe(true);
  const job = first.manifest.job_id;

  // A sync finds nothing new, but channel/latest answers this time.
  const sync = await runCli(['sync', String(job)], env);
  expect(sync.code, sync.stderr).toBe(0);
  expect((await runCli(args, env)).code).toBe(0);
  const second = await readZip(out);
  const latest = await latestOf(channel);
  expect(second.manifest.version).toBe(2);
  const before = new Map(rowsOf(first.index).map((row) => [row['video_id'], row['published']]));
  const changes = rowsOf(second.changes).filter((row) => row['change'] === 'changed');
  expect(changes).toEqual(
    [...latest].map(([videoId, exact]) => ({
      version: '2',
      video_id: videoId,
      change: 'changed',
      detail: `published: ${before.get(videoId)} -> ${exact}`,
    })),
  );
  for (const row of rowsOf(second.index)) {
    const exact = latest.get(row['video_id']!);
    if (exact !== undefined)
      expect([row['published'], row['published_from']]).toEqual([exact, exact.slice(0, 10)]);
    else expect(row['published']).toBe(before.get(row['video_id']));
  }

  // The listing first stored is never written over: the exact time is appended, with what it replaced.
  const db = new BetterSqlite3(join(dir, 'data', 'scriptorium.db'), { readonly: true });
  try {
    const appended = db
      .prepare(
        `SELECT i.video_id, i.published AS listed, e.published, e.replaced, e.version FROM exact_dates e
         JOIN items i ON i.id = e.item_id WHERE i.job_id = ? ORDER BY e.id`,
      )
      .all(Number(job)) as Array<{
      video_id: string;
      listed: string;
      published: string;
      replaced: string;
      version: number;
    }>;
    expect(appended).toHaveLength(15);
    for (const row of appended) {
      expect(row.listed).toBe(before.get(row.video_id));
      expect(row.replaced).toBe(row.listed);
      expect(row.published).toBe(latest.get(row.video_id));
      expect(row.version).toBe(2);
    }
  } finally {
    db.close();
  }
  // Nothing more to learn: the next sync and export change nothing.
  expect((await runCli(['sync', String(job)], env)).code).toBe(0);
  expect((await runCli(args, env)).code).toBe(0);
  expect((await readZip(out)).manifest.version).toBe(2);
}, 120_000);
