import { create } from 'zustand';
import type { CreditView, JobView, ScriptoriumApi, Snapshot } from '../../shared/contract';

interface AppState {
  jobs: JobView[];
  credits: CreditView | null;
  snapshots: Record<number, Snapshot>;
  error: string | null;
  refresh(api: ScriptoriumApi): Promise<void>;
  applySnapshot(snapshot: Snapshot): void;
}

/** The renderer's state: what the contract last told us, nothing more. */
export const useAppStore = create<AppState>((set) => ({
  jobs: [],
  credits: null,
  snapshots: {},
  error: null,
  async refresh(api) {
    try {
      const [jobs, credits] = await Promise.all([api.listJobs({}), api.creditStatus({})]);
      set({ jobs, credits, error: null });
    } catch (error) {
      set({ error: error instanceof Error ? error.message : String(error) });
    }
  },
  applySnapshot(snapshot) {
    set((state) => ({ snapshots: { ...state.snapshots, [snapshot.jobId]: snapshot } }));
  },
}));
