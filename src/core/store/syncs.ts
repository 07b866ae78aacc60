import type { Database } from './database';
import { preparedFor } from './prepared';

const statements = preparedFor((db) => ({
  start: db.prepare<[number, string, number]>(
    'INSERT INTO syncs (job_id, started_at, automatic) VALUES (?, ?, ?)',
  ),
  lastAutomatic: db.prepare<[number], { at: string | null }>(
    'SELECT max(started_at) AS at FROM syncs WHERE job_id = ? AND automatic = 1',
  ),
  finish: db.prepare<[string, number, number, number]>(
    'UPDATE syncs SET finished_at = ?, new_videos = ?, credits = ? WHERE id = ?',
  ),
}));

/** Records a sync as it starts; `automatic` when the schedule or `sync --all` started it, not the user. */
export function startSync(db: Database, jobId: number, at: string, automatic: boolean): number {
  return Number(statements(db).start.run(jobId, at, Number(automatic)).lastInsertRowid);
}

/** When the job's last automatic sync started; null when it never had one. */
export function lastAutomaticSyncOf(db: Database, jobId: number): string | null {
  return statements(db).lastAutomatic.get(jobId)?.at ?? null;
}

export function finishSync(
  db: Database,
  syncId: number,
  result: { at: string; newVideos: number; credits: number },
): void {
  statements(db).finish.run(result.at, result.newVideos, result.credits, syncId);
}
