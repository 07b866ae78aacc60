import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../../src/core/api';
import type { Clock, TranscriptClient } from '../../../src/core/api';
import { CreditLedger, Engine, type JobOptions, type JobSpec } from '../../../src/core/engine';
import { openDatabase, type Database } from '../../../src/core/store';
import { parseSource, type Source } from '../../../src/shared/sources';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../../src/simulator';

/** A clock whose sleep returns at once and moves time forward, so retry waits cost nothing. */
export class FastClock implements Clock {
  time = Date.UTC(2025, 0, 15, 12, 0, 0);
  /** Every sleep asked for, in ms. */
  readonly sleeps: number[] = [];

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.sleeps.push(ms);
    this.time += Math.max(0, ms);
    return Promise.resolve();
  }
}

export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-engine-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function sources(...inputs: string[]): Source[] {
  return inputs.map((input) => {
    const check = parseSource(input);
    if (!check.ok) throw new Error(`bad test source ${input}: ${check.reason}`);
    return check.source;
  });
}

export function spec(inputs: string[], options: Partial<JobOptions> = {}): JobSpec {
  return {
    sources: sources(...inputs),
    skipped: [],
    options: { langs: ['orig'], includeTimestamp: true, sendMetadata: true, ...options },
  };
}

export interface Harness {
  sim: RunningSimulator;
  db: Database;
  dbFile: string;
  clock: FastClock;
  client: TranscriptClient;
  engine: Engine;
  /** The credit ledger beside the engine, on the same database and clock. */
  ledger: CreditLedger;
  /** A client for the same simulator with another key (or the same key, fresh). */
  makeClient(apiKey?: string): TranscriptClient;
  /** A new engine over the same database (as after a restart). */
  makeEngine(client?: TranscriptClient): Engine;
  close(): Promise<void>;
}

/** A simulator, a fresh database file in a temp dir, a client on a fast clock, and an engine. */
export async function startHarness(options: SimulatorOptions & { apiKey?: string } = {}): Promise<Harness> {
  const sim = await startSimulator({ latencyMs: 0, ...options });
  const temp = tempDir();
  const dbFile = join(temp.dir, 'scriptorium.db');
  const db = openDatabase(dbFile);
  const clock = new FastClock();
  const clients: TranscriptClient[] = [];
  const makeClient = (apiKey = sim.key): TranscriptClient => {
    const client = createClient({ baseUrl: sim.url, apiKey, userAgent: 'Scriptorium/test', clock });
    clients.push(client);
    return client;
  };
  const client = makeClient(options.apiKey);
  const makeEngine = (engineClient: TranscriptClient = client): Engine =>
    new Engine({ db, client: engineClient, clock });
  return {
    sim,
    db,
    dbFile,
    clock,
    client,
    engine: makeEngine(),
    ledger: new CreditLedger({ db, clock }),
    makeClient,
    makeEngine,
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await sim.close();
      db.close();
      temp.remove();
    },
  };
}
