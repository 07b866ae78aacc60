import type { Database } from '../store';

/** How often the database is asked whether another process wrote to it. */
const POLL_MS = 250;

/**
 * Notices what another process (the CLI beside the window) writes to the same database, so that
 * faces show it live. SQLite's data_version changes exactly when another connection commits, and
 * asking for it costs next to nothing.
 */
export class DatabaseWatcher {
  readonly #db: Database;
  readonly #onChange: () => void;
  readonly #timer: NodeJS.Timeout;
  #version: number;

  constructor(db: Database, onChange: () => void, intervalMs = POLL_MS) {
    this.#db = db;
    this.#onChange = onChange;
    this.#version = this.#read();
    this.#timer = setInterval(() => this.#poll(), intervalMs).unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  #read(): number {
    return Number(this.#db.pragma('data_version', { simple: true }));
  }

  #poll(): void {
    if (!this.#db.open) return;
    const version = this.#read();
    if (version === this.#version) return;
    this.#version = version;
    this.#onChange();
  }
}
