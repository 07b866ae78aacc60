import { BUILT_IN_JOB_DEFAULTS, SettingsSchema, type Settings } from '../../shared/contract/settings';
import { DAILY_CREDIT_LIMIT, SYNC_EVERY_HOURS } from '../../shared/vocabulary';
import type { Database } from '../store';
import { readSetting } from '../store/queries/settings';
import { writeSetting } from '../store/settings';

const SETTINGS_KEY = 'app_settings';

/** What a new job starts from until the user changes it in Settings. */
export const DEFAULT_SETTINGS: Settings = {
  serviceUrl: null,
  billingUrl: null,
  defaults: BUILT_IN_JOB_DEFAULTS,
  corpus: { authors: [], license: null },
  keepCurrent: { syncEveryHours: SYNC_EVERY_HOURS.default, dailyCreditLimit: DAILY_CREDIT_LIMIT.default },
  updates: { check: true },
};

/** A change to Settings: any part, and of the job defaults and Keep current settings any field. */
export type SettingsChange = Partial<Omit<Settings, 'defaults' | 'keepCurrent'>> & {
  defaults?: Partial<Settings['defaults']>;
  keepCurrent?: Partial<Settings['keepCurrent']>;
};

/**
 * The user's Settings (the service's address, the billing page, a new job's defaults, a corpus's
 * authors and license, Keep current's schedule and limit, whether to look for updates), kept as one value in the settings table.
 * A service beside the Engine, the one writer of Settings.
 */
export class UserSettings {
  readonly #db: Database;

  constructor(deps: { db: Database }) {
    this.#db = deps.db;
  }

  /** The settings in force; a value written by another version that no longer parses reads as the defaults. */
  read(): Settings {
    const text = readSetting(this.#db, SETTINGS_KEY);
    if (text === undefined) return DEFAULT_SETTINGS;
    const parsed = SettingsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : DEFAULT_SETTINGS;
  }

  /** Saves `change` over the settings in force and returns the result; what it leaves out stays. */
  update(change: SettingsChange): Settings {
    const current = this.read();
    const next = SettingsSchema.parse({
      serviceUrl: change.serviceUrl === undefined ? current.serviceUrl : change.serviceUrl,
      billingUrl: change.billingUrl === undefined ? current.billingUrl : change.billingUrl,
      defaults: { ...current.defaults, ...change.defaults },
      corpus: change.corpus ?? current.corpus,
      keepCurrent: { ...current.keepCurrent, ...change.keepCurrent },
      updates: change.updates ?? current.updates,
    });
    writeSetting(this.#db, SETTINGS_KEY, JSON.stringify(next));
    return next;
  }
}
