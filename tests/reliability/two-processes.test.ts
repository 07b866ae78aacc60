import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  describeChannel,
  describePlaylist,
  startSimulator,
  type RunningSimulator,
} from '../../src/simulator';
import { readZip, startCli, tempDir, type CliResult } from '../support/cli';
import { startRequestGate, type RequestGate } from './request-gate';

// Two Scriptorium processes at the same time on one data folder, with jobs that share most of their
// videos: each transcript is bought once, by one of them, and neither trips over the other's writes.
// Each process talks to the simulator through a gate of its own, which holds its first purchases, so
// that both are certainly at work together when the gates open: nothing here depends on timing.
const SHARED = 'PLsharedByTwoJobs_n60';
const CONCURRENCY_A = 4;
const CONCURRENCY_B = 8;

let sim: RunningSimulator | undefined;
let gates: RequestGate[] = [];
let dir: string | undefined;
afterEach(async () => {
  await Promise.all(gates.map((gate) => gate.close()));
  await sim?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  gates = [];
  sim = undefined;
  dir = undefined;
});

describe('two processes on one data folder', () => {
  it.each([
    { second: 'the same playlist and a channel', extra: ['@secondJobChannel_n30'] },
    { second: 'the same playlist with --max-videos', extra: ['--max-videos', '45'] },
  ])(
    'one exporting a playlist, the other $second: both finish, and no transcript is bought twice',
    async ({ extra }) => {
      sim = await startSimulator({ credits: 10_000 });
      const [gateA, gateB] = (gates = [await startRequestGate(sim.url), await startRequestGate(sim.url)]);
      dir = tempDir();
      const data = join(dir, 'data');
      const envThrough = (gate: RequestGate) => ({
        TRANSCRIPT_API_KEY: sim!.key,
        TRANSCRIPT_API_BASE_URL: gate.url,
        SCRIPTORIUM_DATA_DIR: data,
      });
      const outA = join(dir, 'a.zip');
      const outB = join(dir, 'b.zip');
      const argsB = [SHARED, ...extra];

      // A claims the playlist's first four videos and sends their requests, which wait at its gate.
      const a = startCli(
        ['export', SHARED, '--concurrency', String(CONCURRENCY_A), '--out', outA],
        envThrough(gateA!),
      );
      await gateA!.whenWaiting(CONCURRENCY_A);
      // B takes the same first eight: it waits for A's purchase of four, and sends requests for the others.
      const b = startCli(
        ['export', ...argsB, '--concurrency', String(CONCURRENCY_B), '--out', outB],
        envThrough(gateB!),
      );
      await gateB!.whenWaiting(CONCURRENCY_B - CONCURRENCY_A);
      expect(gateA!.received()).toBe(CONCURRENCY_A);
      gateA!.open();
      gateB!.open();
      const [doneA, doneB] = await Promise.all([a.done, b.done]);

      for (const done of [doneA, doneB]) expectCleanExit(done);
      const videosA = describePlaylist(SHARED).videoIds();
      const videosB = expectedVideosOf(argsB);
      const zipA = await readZip(outA);
      const zipB = await readZip(outB);
      expect(zipA.index.slice(1).map((row) => row[0])).toEqual(videosA);
      expect(zipB.index.slice(1).map((row) => row[0])).toEqual(videosB);
      // A shared video is the same in both corpora: one purchase, read by both jobs.
      const statusIn = (rows: string[][]) => new Map(rows.slice(1).map((row) => [row[0], row[3]]));
      const statusA = statusIn(zipA.index);
      for (const [videoId, status] of statusIn(zipB.index)) {
        if (statusA.has(videoId)) expect(status, videoId).toBe(statusA.get(videoId));
      }

      const transcriptCharges = sim.admin.ledger().filter((charge) => charge.endpoint === 'transcript');
      const perVideo = new Map<string, number>();
      for (const { videoId = '' } of transcriptCharges)
        perVideo.set(videoId, (perVideo.get(videoId) ?? 0) + 1);
      expect([...perVideo].filter(([, count]) => count > 1)).toEqual([]);
      const okInEither = [...zipA.index.slice(1), ...zipB.index.slice(1)].filter((row) => row[3] === 'ok');
      expect([...perVideo.keys()].sort()).toEqual([...new Set(okInEither.map((row) => row[0]))].sort());
      // Both processes waited on their gates, so both bought some: the work was shared, not serial.
      expect(gateA!.received()).toBeGreaterThan(CONCURRENCY_A);
      expect(gateB!.received()).toBeGreaterThan(CONCURRENCY_B - CONCURRENCY_A);
      // Every credit the service took is counted once, by the job that spent it.
      expect(zipA.manifest.credits_spent + zipB.manifest.credits_spent).toBe(sim.admin.ledger().length);
      const db = new Database(join(data, 'scriptorium.db'), { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(db.prepare('SELECT count(*) AS n FROM transcript_claims').get()).toEqual({ n: 0 });
      } finally {
        db.close();
      }
    },
  );
});

/** Exit 0, and none of the failures that two writers on one database could cause. */
function expectCleanExit(result: CliResult): void {
  expect(result.stderr).not.toMatch(/database is locked|SQLITE_BUSY/i);
  expect(result.code, result.stderr).toBe(0);
}

/** The videos of B's sources, in export order: the playlist (up to --max-videos), then the channel. */
function expectedVideosOf(args: string[]): string[] {
  const maxAt = args.indexOf('--max-videos');
  const max = maxAt < 0 ? Infinity : Number(args[maxAt + 1]);
  const channel = args.find((arg) => arg.startsWith('@'));
  const channelVideos = channel === undefined ? [] : describeChannel(channel).videoIds();
  return [...describePlaylist(SHARED).videoIds().slice(0, max), ...channelVideos];
}
