import { createStore } from 'zustand';
import type { ScriptoriumApi, UpdateStatus } from '../../../shared/contract';
import { describeError } from '../lib/errors';

export interface UpdatesState {
  /** What the app knows of a newer release; null until read. */
  status: UpdateStatus | null;
  /** Why the last action could not be done, in the app's words. */
  problem: string | null;
  load(): Promise<void>;
  /** The app's updateChanged event. */
  changed(status: UpdateStatus): void;
  check(): Promise<void>;
  download(): Promise<void>;
  install(): Promise<void>;
}

/** A newer release of the desktop app (the contract's updates domain), for Settings and the shell. */
export function createUpdatesStore(api: ScriptoriumApi) {
  return createStore<UpdatesState>()((set) => {
    const act = async (action: () => Promise<UpdateStatus>) => {
      set({ problem: null });
      try {
        set({ status: await action() });
      } catch (error) {
        set({ problem: describeError(error).message });
      }
    };
    return {
      status: null,
      problem: null,
      load: () => act(() => api.updateStatus({})),
      changed: (status) => set({ status }),
      check: () => act(() => api.checkForUpdates({})),
      download: () => act(() => api.downloadUpdate({})),
      install: () => act(() => api.installUpdate({})),
    };
  });
}
