import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExportManifest } from '../../src/core/export';
import { startSimulator, type RunningSimulator } from '../../src/simulator';

export const CLI = fileURLToPath(new URL('../../bin/scriptorium', import.meta.url));
const READ_ZIP = fileURLToPath(new URL('../core/export/fixtures/read_zip.py', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  child: ChildProcess;
  done: Promise<CliResult>;
}

/**
 * Starts bin/scriptorium as a child process. Asynchronous on purpose: the simulator serving it
 * runs in the test's own event loop, so a synchronous spawn would deadlock. NODE_ENV=test has the
 * dispatcher check every answer against the contract (core/app/dispatch.ts), as in process.
 */
export function startCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  options: { cwd?: string } = {},
): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd !== undefined && { cwd: options.cwd }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  options: { cwd?: string } = {},
): Promise<CliResult> {
  return startCli(args, env, options).done;
}

export function tempDir(prefix = 'scriptorium-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface ZipReading {
  bad_crc: string | null;
  entries: Array<{ name: string }>;
  path_problems: string[];
  /** manifest.json as read: the manifest the export was given, and the job's syncs. */
  manifest: ExportManifest & { syncs: Array<{ at: string; new_videos: number; credits: number }> };
  index: string[][];
  errors: string[][];
  memberships: string[][];
  /** changes.csv, header first; null in a corpus without it. */
  changes: string[][] | null;
  /** README.md's text: the datasheet. */
  readme: string;
  /** CITATION.cff's text. */
  citation: string;
  transcripts: Array<Record<string, unknown> & { video_id: string; segments: unknown[] }>;
  /** chunks.jsonl, a record per line; null when the corpus has none. */
  chunks: ChunkRecord[] | null;
  files: Record<string, string>;
}

/** A line of chunks.jsonl. */
export interface ChunkRecord {
  video_id: string;
  title: string | null;
  start: number;
  end: number;
  text: string;
  url: string;
}

/** Reads a ZIP with Python's standard library (zipfile, csv, json): an independent reader. */
export async function readZip(path: string): Promise<ZipReading> {
  const child = spawn('python3', [READ_ZIP, path], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  // Decoded as a stream: a character whose bytes two chunks share stays whole.
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (stdout += chunk));
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`python3 could not read ${path}: ${stderr}`);
  return JSON.parse(stdout) as ZipReading;
}

/** A simulator with `credits`, a fresh folder, and the environment that points the CLI at both. */
export interface CliSetup {
  sim: RunningSimulator;
  dir: string;
  env: Record<string, string>;
}

export async function startCliSetup(credits: number): Promise<CliSetup> {
  const sim = await startSimulator({ credits });
  const dir = tempDir();
  const env = {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
  };
  return { sim, dir, env };
}
