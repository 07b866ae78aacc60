import { createStore } from 'zustand';
import type {
  AddressInUse,
  JobDefaults,
  KeyStatus,
  ScriptoriumApi,
  Settings,
} from '../../../shared/contract';
import { describeError } from '../lib/errors';

/** What Settings' Save key or Test connection did: what it saved, and how the test went. */
export interface ConnectOutcome {
  savedAddress: boolean;
  savedKey: boolean;
  test: { ok: boolean; message: string };
}

export interface SettingsState {
  settings: Settings | null;
  /** Whether a key is set and where it is kept; the key itself never reaches the renderer. */
  keyStatus: KeyStatus | null;
  /** The service address requests go to, and where it comes from. */
  addressInUse: AddressInUse | null;
  loadError: string | null;
  load(): Promise<void>;
  /** The actions below reject with the app's error, for the screen to show. */
  saveKey(key: string): Promise<KeyStatus>;
  removeKey(): Promise<KeyStatus>;
  /**
   * Settings' one action for the service: saves the address when `serviceUrl` is given (which is
   * then the one in use; '' forgets the saved one, and the address the app started with is used
   * again, if any), then the key when `key` is given (for that address), then asks the service
   * something free with both. Resolves with what was saved and how the test went.
   */
  connect(change: { serviceUrl?: string; key?: string }): Promise<ConnectOutcome>;
  saveBillingUrl(billingUrl: string): Promise<void>;
  saveDefaults(defaults: JobDefaults): Promise<void>;
  saveCorpusDefaults(corpus: Settings['corpus']): Promise<void>;
  saveKeepCurrent(keepCurrent: Settings['keepCurrent']): Promise<void>;
  saveUpdates(updates: Settings['updates']): Promise<void>;
}

/** The app's settings and the key's status: read once, changed only from the Settings screen. */
export function createSettingsStore(api: ScriptoriumApi) {
  return createStore<SettingsState>()((set, get) => ({
    settings: null,
    keyStatus: null,
    addressInUse: null,
    loadError: null,
    async load() {
      try {
        const [settings, keyStatus, addressInUse] = await Promise.all([
          api.getSettings({}),
          api.keyStatus({}),
          api.addressInUse({}),
        ]);
        set({ settings, keyStatus, addressInUse, loadError: null });
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
    async connect({ serviceUrl, key }) {
      if (serviceUrl !== undefined) {
        const address = serviceUrl.trim();
        // A key is kept for one address: a new address shows that the key is wanted again.
        set({
          settings: await api.updateSettings({ serviceUrl: address === '' ? null : address }),
          keyStatus: await api.keyStatus({}),
          addressInUse: await api.addressInUse({}),
        });
      }
      if (key !== undefined) await get().saveKey(key);
      return {
        savedAddress: serviceUrl !== undefined,
        savedKey: key !== undefined,
        test: await api.testConnection({}),
      };
    },
    async saveBillingUrl(billingUrl) {
      const address = billingUrl.trim();
      set({ settings: await api.updateSettings({ billingUrl: address === '' ? null : address }) });
    },
    async saveDefaults(defaults) {
      set({ settings: await api.updateSettings({ defaults }) });
    },
    async saveCorpusDefaults(corpus) {
      set({ settings: await api.updateSettings({ corpus }) });
    },
    async saveKeepCurrent(keepCurrent) {
      set({ settings: await api.updateSettings({ keepCurrent }) });
    },
    async saveUpdates(updates) {
      set({ settings: await api.updateSettings({ updates }) });
    },
  }));
}
