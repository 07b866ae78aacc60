import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { reportBackgroundFailure, type BackgroundLogger } from './background-failure';
import { openedWith, type Database } from './database';

/** How often the thread copies what the WAL holds into the database file. */
const INTERVAL_MS = 100;
/**
 * While the thread works, the writing connection checkpoints by itself only once the WAL holds this
 * many pages (40 MiB at 4 KiB). SQLite can start the WAL over only at a moment when all of it is
 * copied, which a run writing without pause rarely leaves the thread; the writer's own checkpoint
 * then finds little left to copy. It is also the backstop should the thread fail to start.
 */
const BACKSTOP_PAGES = 10_000;

/** Where the thread's failure is told (the engine's Logger). */
export type CheckpointLogger = BackgroundLogger;

/**
 * The thread's whole program, inline so that it needs no file of its own beside the bundles. A
 * PASSIVE checkpoint never waits for the writer nor for readers: it copies what no reader still needs.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true, nativeBinding: workerData.nativeBinding });
const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Copies the WAL into the database file on a thread of its own, with its own connection, while a
 * run writes. SQLite otherwise does it inside the commit that fills the WAL past 1,000 pages, on the
 * thread that wrote, and that copy (with its fsync) was a tenth of a run's walk + fetch phase,
 * during which no request could start or finish (bench/RESULTS.md, fifth pass). A thread that fails
 * costs only that speed: the run's own connection then checkpoints at the backstop, and the failure
 * is logged.
 */
export class BackgroundCheckpoints {
  readonly #db: Database;
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  readonly #ownPages: number;

  private constructor(db: Database, logger: CheckpointLogger) {
    this.#db = db;
    this.#ownPages = db.pragma('wal_autocheckpoint', { simple: true }) as number;
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        file: db.name,
        nativeBinding: openedWith(db)?.nativeBinding,
        intervalMs: INTERVAL_MS,
      },
    });
    // The backstop covers a thread that cannot open the file or whose checkpoint fails (a full disk
    // is then the run's own connection's to report, at its next write).
    this.#worker.on('error', (error) =>
      reportBackgroundFailure(
        logger,
        'The thread that copies the database log into the database failed; the run goes on and copies it itself',
        error,
      ),
    );
    this.#exited = new Promise((resolve) => this.#worker.once('exit', () => resolve()));
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  }

  /** Starts the thread for a database in WAL mode; undefined for any other (one in memory has no WAL). */
  static start(db: Database, logger: CheckpointLogger): BackgroundCheckpoints | undefined {
    if (db.pragma('journal_mode', { simple: true }) !== 'wal') return undefined;
    return new BackgroundCheckpoints(db, logger);
  }

  /** Gives checkpoints back to the writing connection and ends the thread. */
  async stop(): Promise<void> {
    if (this.#db.open) this.#db.pragma(`wal_autocheckpoint = ${this.#ownPages}`);
    this.#worker.postMessage('stop');
    await this.#exited;
  }
}
