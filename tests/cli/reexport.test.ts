import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { readZip, runCli, startCli, startCliSetup } from '../support/cli';

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;

beforeEach(async () => {
  ({ sim, dir, env } = await startCliSetup(10_000));
});
afterEach(() => sim.close());

/** The closing line's counts: files copied from the previous export, files written. */
function copyCounts(stdout: string): { copied: number; written: number } | undefined {
  const match = /^ {2}([\d,]+) files? copied unchanged from the previous export, ([\d,]+) written$/m.exec(
    stdout,
  );
  if (match === null) return undefined;
  const number = (text: string | undefined) => Number((text ?? '').replaceAll(',', ''));
  return { copied: number(match[1]), written: number(match[2]) };
}

/** How many files the corpus holds under txt/, json/, srt/ and vtt/, and transcripts.jsonl. */
async function contentFiles(path: string): Promise<number> {
  const { entries } = await readZip(path);
  return entries.filter(({ name }) => name.includes('/') || name === 'transcripts.jsonl').length;
}

describe('export again to the same --out', () => {
  const CHANNEL = '@reexport_lab_n150';
  const exportTo = (out: string) => runCli(['export', CHANNEL, '--out', out], env);

  it('of an unchanged job copies every file and compresses none, and writes the bytes of an export from scratch', async () => {
    const out = join(dir, 'channel.zip');
    const first = await exportTo(out);
    expect(first.code, first.stderr).toBe(0);
    expect(copyCounts(first.stdout)).toBeUndefined();

    const again = await exportTo(out);
    expect(again.code, again.stderr).toBe(0);
    // The CI guard: every transcript file and transcripts.jsonl copied, nothing rendered.
    expect(copyCounts(again.stdout)).toEqual({ copied: await contentFiles(out), written: 0 });

    const scratch = join(dir, 'scratch.zip');
    expect((await exportTo(scratch)).code).toBe(0);
    expect(readFileSync(out).equals(readFileSync(scratch))).toBe(true);
  }, 60_000);

  it('after a sync renders only the new videos and what their arrival changed, writes the bytes of an export from scratch, and verifies', async () => {
    const out = join(dir, 'channel.zip');
    expect((await exportTo(out)).code).toBe(0);
    const before = await contentFiles(out);
    sim.admin.addUploads(CHANNEL, 3);
    const synced = await runCli(['sync', '1'], env);
    expect(synced.stdout).toMatch(/3 new videos/);

    const again = await exportTo(out);
    expect(again.code, again.stderr).toBe(0);
    const counts = copyCounts(again.stdout);
    const after = await contentFiles(out);
    expect(counts?.copied).toBeGreaterThan(0);
    expect((counts?.copied ?? 0) + (counts?.written ?? 0)).toBe(after);
    // The new videos' files and transcripts.jsonl (whose last block gains their lines); every earlier
    // file is copied, json too: the new uploads lead the channel, but a record keeps the position the
    // channel gave when it first listed the video.
    expect(counts?.written).toBe(after - before + 1);
    expect(counts?.copied).toBe(before - 1);

    const scratch = join(dir, 'scratch.zip');
    expect((await exportTo(scratch)).code).toBe(0);
    expect(readFileSync(out).equals(readFileSync(scratch))).toBe(true);
    const verified = await runCli(['verify', out], env);
    expect(verified.code, verified.stdout).toBe(0);
  }, 60_000);

  it('killed while writing leaves the earlier export whole, and the next export writes it right', async () => {
    const out = join(dir, 'playlist.zip');
    const args = (formats: string) => [
      'export',
      'PLreexportKilled_n1000',
      '--formats',
      formats,
      '--out',
      out,
    ];
    expect((await runCli(args('txt'), env)).code).toBe(0);
    const earlier = readFileSync(out);

    // The same job in four formats: three of them to render, some seconds of work.
    const running = startCli(args('txt,json,srt,vtt'), env);
    let exited = false;
    void running.done.then(() => (exited = true));
    const partial = () => readdirSync(dir).some((name) => name.endsWith('.partial'));
    while (!exited && !partial()) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(exited, 'the export ended before it started its ZIP').toBe(false);
    running.child.kill('SIGKILL');
    expect((await running.done).signal).toBe('SIGKILL');
    expect(readFileSync(out).equals(earlier)).toBe(true);

    const next = await runCli(args('txt,json,srt,vtt'), env);
    expect(next.code, next.stderr).toBe(0);
    expect(copyCounts(next.stdout)?.copied).toBeGreaterThan(0);
    expect((await runCli(['verify', out], env)).code).toBe(0);
  }, 60_000);
});
