import { createStore } from 'zustand';
import type { EventPayload, ScriptoriumApi } from '../../../shared/contract';
import { describeError, type ShownError } from '../lib/errors';
import { describeSync } from '../lib/sync-words';

export type SyncState =
  | { phase: 'syncing' }
  /** `message` says what it found and cost. */
  | { phase: 'done'; message: string }
  | { phase: 'failed'; error: ShownError };

export interface SyncsState {
  /** The last sync of each job started here; kept across screens, so that the Jobs screen and the job's own both show it. */
  byJob: Readonly<Record<number, SyncState>>;
  /**
   * How many automatic syncs (the schedule's, for jobs marked Keep current) of each job have ended
   * since the window opened: the job's screen reads its syncs again after each.
   */
  automaticEnded: Readonly<Record<number, number>>;
  /** Brings a finished job up to date; resolves when done (progress comes as jobChanged meanwhile). */
  sync(jobId: number): Promise<void>;
  /** A sync run by the app has ended (the jobSynced event). */
  ended(event: EventPayload<'jobSynced'>): void;
}

export function createSyncsStore(api: ScriptoriumApi) {
  return createStore<SyncsState>()((set, get) => {
    const put = (jobId: number, state: SyncState) =>
      set((current) => ({ byJob: { ...current.byJob, [jobId]: state } }));

    return {
      byJob: {},
      automaticEnded: {},
      async sync(jobId) {
        if (get().byJob[jobId]?.phase === 'syncing') return;
        put(jobId, { phase: 'syncing' });
        try {
          put(jobId, { phase: 'done', message: describeSync(await api.syncJob({ jobId })) });
        } catch (error) {
          put(jobId, { phase: 'failed', error: describeError(error) });
        }
      },
      ended({ jobId, automatic }) {
        // A sync started here is followed by its own answer (byJob) already.
        if (!automatic) return;
        set((current) => ({
          automaticEnded: { ...current.automaticEnded, [jobId]: (current.automaticEnded[jobId] ?? 0) + 1 },
        }));
      },
    };
  });
}
