import type { KeepCurrentView } from '../../../shared/contract';
import { formatWhen } from './format';

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
  return `${last} · ${nextSyncWords(view.nextSyncAt, now)}`;
}

function nextSyncWords(nextSyncAt: string | null, now: number): string {
  if (nextSyncAt === null) return 'next sync when Scriptorium starts';
  const due = Date.parse(nextSyncAt);
  if (Number.isNaN(due) || due <= now) return 'next sync due now';
  return `next sync due ${formatWhen(nextSyncAt)}`;
}
