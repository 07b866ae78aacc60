import { createStore } from 'zustand';
import type { CreditView, ScriptoriumApi } from '../../../shared/contract';
import { describeError } from '../lib/errors';

export interface CreditsState {
  /** null until the first answer. */
  view: CreditView | null;
  loadError: string | null;
  load(): Promise<void>;
  changed(view: CreditView): void;
  /** Records the balance the user read on their account (null forgets it); rejects with the reason. */
  setBalance(credits: number | null): Promise<void>;
}

/** The credits spent and the balance estimate, fed by creditStatus once and creditsChanged after. */
export function createCreditsStore(api: ScriptoriumApi) {
  return createStore<CreditsState>()((set) => ({
    view: null,
    loadError: null,
    async load() {
      try {
        set({ view: await api.creditStatus({}), loadError: null });
      } catch (error) {
        set({ loadError: describeError(error).message });
      }
    },
    changed(view) {
      set({ view });
    },
    async setBalance(credits) {
      set({ view: await api.setBalance({ credits }) });
    },
  }));
}
