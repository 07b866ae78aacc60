import { SettingsSchema, type Settings } from '../../shared/contract';
import {
  CONCURRENCY,
  DAILY_CREDIT_LIMIT,
  DEFAULT_LANGUAGES,
  defaultFormats,
  SYNC_EVERY_HOURS,
} from '../../shared/vocabulary';
import type { Database } from '../store';
import { readSetting, writeSetting } from '../store/settings';

const SETTINGS_KEY = 'app_settings';

/** What a new job starts from until the user changes it in Settings. */
export const DEFAULT_SETTINGS: Settings = {
  serviceUrl: null,
  billingUrl: null,
  defaults: {
    languages: DEFAULT_LANGUAGES,
    includeTimestamp: true,
    sendMetadata: true,
    maxVideos: null,
    budget: null,
    concurrency: CONCURRENCY.default,
    formats: defaultFormats(),
  },
  corpus: { authors: [], license: null },
  keepCurrent: { syncEveryHours: SYNC_EVERY_HOURS.default, dailyCreditLimit: DAILY_CREDIT_LIMIT.default },
};

/** The user's settings; a value written by another version that no longer parses reads as the defaults. */
export function readSettings(db: Database): Settings {
  const text = readSetting(db, SETTINGS_KEY);
  if (text === undefined) return DEFAULT_SETTINGS;
  const parsed = SettingsSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : DEFAULT_SETTINGS;
}

export function writeSettings(
  db: Database,
  change: Partial<Omit<Settings, 'defaults' | 'keepCurrent'>> & {
    defaults?: Partial<Settings['defaults']>;
    keepCurrent?: Partial<Settings['keepCurrent']>;
  },
): Settings {
  const current = readSettings(db);
  const next = SettingsSchema.parse({
    serviceUrl: change.serviceUrl === undefined ? current.serviceUrl : change.serviceUrl,
    billingUrl: change.billingUrl === undefined ? current.billingUrl : change.billingUrl,
    defaults: { ...current.defaults, ...change.defaults },
    corpus: change.corpus ?? current.corpus,
    keepCurrent: { ...current.keepCurrent, ...change.keepCurrent },
  });
  writeSetting(db, SETTINGS_KEY, JSON.stringify(next));
  return next;
}
