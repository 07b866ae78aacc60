import { create } from 'zustand';
import type { CreditView, JobView, ScriptoriumApi } from '../../shared/contract';

interface AppState {
  jobs: JobView[];
  credits: CreditView | null;
  snapshots: Record<number, JobView>;
  error: string | null;
  refresh(api: ScriptoriumApi): Promise<void>;
  applySnapshot(snapshot: JobView): void;
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
    set((state) => ({ snapshots: { ...state.snapshots, [snapshot.id]: snapshot } }));
  },
}));
