import { createStore } from 'zustand';
import type { JobDefaults, KeyStatus, ScriptoriumApi, Settings } from '../../../shared/contract';
import { describeError } from '../lib/errors';

export interface SettingsState {
  settings: Settings | null;
  /** Whether a key is set and where it is kept; the key itself never reaches the renderer. */
  keyStatus: KeyStatus | null;
  loadError: string | null;
  load(): Promise<void>;
  /** The actions below reject with the app's error, for the screen to show. */
  saveKey(key: string): Promise<KeyStatus>;
  removeKey(): Promise<KeyStatus>;
  /** Saves the address ('' keeps the one in force) and reads the key's status for it, then asks the service something free. */
  testConnection(serviceUrl: string): Promise<{ ok: boolean; message: string }>;
  saveBillingUrl(billingUrl: string): Promise<void>;
  saveDefaults(defaults: JobDefaults): Promise<void>;
}

/** The app's settings and the key's status: read once, changed only from the Settings screen. */
export function createSettingsStore(api: ScriptoriumApi) {
  return createStore<SettingsState>()((set) => ({
    settings: null,
    keyStatus: null,
    loadError: null,
    async load() {
      try {
        const [settings, keyStatus] = await Promise.all([api.getSettings({}), api.keyStatus({})]);
        set({ settings, keyStatus, loadError: null });
      } catch (error) {
        set({ loadError: describeError(error).message });
      }
    },
    async saveKey(key) {
      const keyStatus = await api.setKey({ key });
      set({ keyStatus });
      return keyStatus;
    },
    async removeKey() {
      const keyStatus = await api.removeKey({});
      set({ keyStatus });
      return keyStatus;
    },
    async testConnection(serviceUrl) {
      const address = serviceUrl.trim();
      if (address !== '') {
        // A key is kept for one address: a new address shows that the key is wanted again.
        set({
          settings: await api.updateSettings({ serviceUrl: address }),
          keyStatus: await api.keyStatus({}),
        });
      }
      return api.testConnection({});
    },
    async saveBillingUrl(billingUrl) {
      const address = billingUrl.trim();
      set({ settings: await api.updateSettings({ billingUrl: address === '' ? null : address }) });
    },
    async saveDefaults(defaults) {
      set({ settings: await api.updateSettings({ defaults }) });
    },
  }));
}
