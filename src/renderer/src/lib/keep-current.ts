import type { KeepCurrentView } from '../../../shared/contract';
import { formatWhen, sentence } from './format';

/** "every hour", "every 24 hours": how often the schedule syncs, from Settings' "Sync every (hours)". */
export function everyHours(hours: number): string {
  return hours === 1 ? 'every hour' : `every ${hours} hours`;
}

/**
 * When a job kept current was last synced and is synced next, in one line: "Last synced 12 Mar, 14:02
 * · next sync due 13 Mar, 14:02". A next sync already due waits for its turn (one job runs at a time).
 */
export function describeSyncTimes(view: KeepCurrentView, now: number): string {
  const last =
    view.lastSyncAt === null ? 'Not synced automatically yet' : `Last synced ${formatWhen(view.lastSyncAt)}`;
  // Waiting for a key or an address: no time to give, syncProblem says what it waits for.
  if (waitsForSetup(view)) return last;
  return `${last} · ${nextSyncWords(view.nextSyncAt, now)}`;
}

/** Whether the job's automatic sync could not run for want of a key or an address, and runs once given. */
function waitsForSetup(view: KeepCurrentView): boolean {
  return view.syncProblem !== null && view.nextSyncAt === null;
}

/** Why the last automatic sync could not run and when it runs, in one note; null when it ran. */
export function describeSyncProblem(view: KeepCurrentView): string | null {
  if (view.syncProblem === null) return null;
  const next = waitsForSetup(view)
    ? 'It runs as soon as that is done.'
    : 'It is tried again at the next sync.';
  return `Its last automatic sync could not run. ${sentence(view.syncProblem)} ${next}`;
}

function nextSyncWords(nextSyncAt: string | null, now: number): string {
  if (nextSyncAt === null) return 'next sync when Scriptorium starts';
  const due = Date.parse(nextSyncAt);
  if (Number.isNaN(due) || due <= now) return 'next sync due now';
  return `next sync due ${formatWhen(nextSyncAt)}`;
}
