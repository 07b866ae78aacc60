import type { AddressInUse, CommandInput, CommandName, CommandOutput } from '../../../shared/contract';
import type { CreditLedger, Engine, IndexingProgress, KeepCurrent, UserSettings } from '../../engine';
import type { Database } from '../../store/database';
import type { EventHub } from '../events';
import type { KeyStore } from '../keys';
import type { SearchExportWriter } from '../search-export';
import type { ServiceSession } from '../service';
import type { Updates } from '../updates';
import type { JobHere } from '../views';

/** One handler per contract command: what every face dispatches into. */
export type AppHandlers = { [N in CommandName]: (input: CommandInput<N>) => Promise<CommandOutput<N>> };

/** The handlers of one domain (jobs, runs, …): some of the commands, by name. */
export type DomainHandlers<N extends CommandName> = Pick<AppHandlers, N>;

/**
 * What every domain's handlers work with; built once by openApp (compose.ts). The handlers write
 * only through the engine and the services beside it (keepCurrent, ledger, settings), and read the
 * database only through the store's query modules (store/queries/), given `db` (DESIGN.md, "Who
 * reads and who writes").
 */
export interface AppContext {
  db: Database;
  engine: Engine;
  keepCurrent: KeepCurrent;
  ledger: CreditLedger;
  settings: UserSettings;
  events: EventHub;
  keys: KeyStore;
  dataDir: string;
  /** The service's address in force; undefined when none is set. */
  serviceUrl(): string | undefined;
  /** The same, with where it comes from. */
  addressInUse(): AddressInUse;
  /** Opens a client on the service with the key and address in force; throws AppError when one is missing. */
  openSession(): ServiceSession;
  /** Jobs queued here are run by this process's runner, when it has one. */
  wakeRunner(): void;
  /** What this process knows of the job beyond the database: its pace, its next sync, what it waits for. */
  here(jobId: number): JobHere;
  /** Settings' "Sync every (hours)" may have changed: the schedule measures its wait again. */
  rescheduleSyncs(): void;
  /** The key or the service address changed: what waited for them runs now. */
  setupChanged(): void;
  /** Exports written for download (browser mode), by id; a ZIP unless `contentType` says otherwise. */
  downloads: Map<string, { path: string; fileName: string; contentType?: string }>;
  /** Exports under way, by job, so that an interrupt can stop them. */
  exporting: Map<number, Set<AbortController>>;
  /** Writes Export results: on a worker thread, or on this one (openApp's options choose). */
  searchExport: SearchExportWriter;
  /** Export results under way, by export id, so that the user or the app closing can cancel them. */
  searchExports: Map<string, { cancel(): void; settled: Promise<unknown> }>;
  /** A newer release of the app: the desktop app's updater, or NO_UPDATES. */
  updates: Updates;
  /**
   * How far indexing stored transcripts for search has come in this process (after an upgrade): its
   * last progress, `done` equal to `total` once finished; null when there was nothing to index.
   */
  indexing: IndexingProgress | null;
}
