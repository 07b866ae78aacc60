import type { CallControl, Clock, TranscriptClient } from '../api/types';
import type { Database } from '../store';
import type { CreditBudget } from './budget';
import type { TranscriptPreparation } from './transcript-preparation';
import type { ResultWriter } from './result-writer';
import type { RunControl } from './run-control';
import type { ServiceHealth } from './service-health';
import type { EngineEvents, JobOptions, RequestPacer } from './types';

/** The facts the walk and the fetch loop report while they work. */
export type RunFact = 'item' | 'page' | 'credit' | 'wait';

/** Everything the walk and the fetch loop of one run share. */
export interface RunContext {
  readonly db: Database;
  readonly client: TranscriptClient;
  readonly clock: Clock;
  readonly pacer: RequestPacer | undefined;
  readonly jobId: number;
  readonly options: JobOptions;
  readonly concurrency: number;
  readonly control: RunControl;
  readonly budget: CreditBudget;
  /** An automatic sync's run: its ledger rows are marked for the daily credit limit. */
  readonly automatic: boolean;
  readonly health: ServiceHealth;
  /** Writes each video's outcome in groups; listeners hear of it once written. */
  readonly writer: ResultWriter;
  /** Prepares the transcripts the run stores, for search and export, once they are stored. */
  readonly preparation: TranscriptPreparation;
  /** Names this run in transcript claims (see claims.ts). */
  readonly claimOwner: string;
  /** How every request of this run may be stopped, cut, and report its waits. */
  readonly call: CallControl;
  /** The clock's time as an ISO string, for the database. */
  now(): string;
  /** Reports a fact (item, page, credit, wait) to listeners and to the snapshot throttle. */
  emit<K extends RunFact>(event: K, payload: EngineEvents[K]): void;
}
