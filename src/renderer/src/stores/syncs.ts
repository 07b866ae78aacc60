import { createStore } from 'zustand';
import type { ScriptoriumApi } from '../../../shared/contract';
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
  /** Brings a finished job up to date; resolves when done (progress comes as jobChanged meanwhile). */
  sync(jobId: number): Promise<void>;
}

export function createSyncsStore(api: ScriptoriumApi) {
  return createStore<SyncsState>()((set, get) => {
    const put = (jobId: number, state: SyncState) =>
      set((current) => ({ byJob: { ...current.byJob, [jobId]: state } }));

    return {
      byJob: {},
      async sync(jobId) {
        if (get().byJob[jobId]?.phase === 'syncing') return;
        put(jobId, { phase: 'syncing' });
        try {
          put(jobId, { phase: 'done', message: describeSync(await api.syncJob({ jobId })) });
        } catch (error) {
          put(jobId, { phase: 'failed', error: describeError(error) });
        }
      },
    };
  });
}
