import type { Clock, TranscriptClient } from '../api/types';
import type { Database } from '../store';
import type { CreditBudget } from './budget';
import type { RunControl } from './run-control';
import type { EngineEvents, JobOptions, RequestPacer } from './types';

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
  /** The clock's time as an ISO string, for the database. */
  now(): string;
  /** Reports a fact (item, page, credit) to listeners and to the snapshot throttle. */
  emit<K extends 'item' | 'page' | 'credit'>(event: K, payload: EngineEvents[K]): void;
}
