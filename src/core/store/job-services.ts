import type { Database } from './database';
import { preparedFor } from './prepared';

/**
 * The Transcript Service's addresses a job's runs used, with the API version of their paths: the
 * corpus names them (docs/product.md, "ZIP layout"), so that a methods section can say where its
 * transcripts came from. An address never holds the key, nor a name or password (refused).
 */

const statements = preparedFor((db) => ({
  record: db.prepare<[number, string, string, string]>(
    `INSERT OR IGNORE INTO job_services (job_id, address, api_version, first_used_at) VALUES (?, ?, ?, ?)`,
  ),
}));

/** Records that a run of the job talks to the service at `address` (once per address and API version). */
export function recordJobService(
  db: Database,
  service: { jobId: number; address: string; apiVersion: string; at: string },
): void {
  statements(db).record.run(service.jobId, service.address, service.apiVersion, service.at);
}
