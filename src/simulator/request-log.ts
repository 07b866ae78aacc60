/** The last requests (a fixed-size ring, so memory stays bounded) and running counters. */
import type { LoggedRequest } from './index';

const REQUEST_LOG_CAPACITY = 5000;

export class RequestLog {
  readonly #capacity: number;
  #ring: LoggedRequest[] = [];
  /** Where the next entry goes once the ring is full. */
  #next = 0;
  #requests = 0;
  #charged = 0;
  #byStatus: Record<string, number> = {};

  constructor(capacity = REQUEST_LOG_CAPACITY) {
    this.#capacity = capacity;
  }

  record(entry: LoggedRequest): void {
    if (this.#ring.length < this.#capacity) this.#ring.push(entry);
    else this.#ring[this.#next] = entry;
    this.#next = (this.#next + 1) % this.#capacity;
    this.#requests += 1;
    if (entry.charged) this.#charged += 1;
    const status = String(entry.status);
    this.#byStatus[status] = (this.#byStatus[status] ?? 0) + 1;
  }

  /** Oldest first. */
  entries(): LoggedRequest[] {
    const ordered =
      this.#ring.length < this.#capacity
        ? this.#ring
        : [...this.#ring.slice(this.#next), ...this.#ring.slice(0, this.#next)];
    return ordered.map((entry) => ({ ...entry, query: { ...entry.query } }));
  }

  stats(): { requests: number; charged: number; byStatus: Record<string, number> } {
    return { requests: this.#requests, charged: this.#charged, byStatus: { ...this.#byStatus } };
  }

  clear(): void {
    this.#ring = [];
    this.#next = 0;
    this.#requests = 0;
    this.#charged = 0;
    this.#byStatus = {};
  }
}
