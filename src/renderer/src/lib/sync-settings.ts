import type { KeepCurrentSettings } from '../../../shared/contract';
import { DAILY_CREDIT_LIMIT, SYNC_EVERY_HOURS } from '../../../shared/vocabulary';
import { formatCount } from './format';
import { wholeNumber } from './job-options';

/** Settings' "Sync every (hours)" and "Daily credit limit" as typed, so that a half-typed value stays. */
export interface SyncSettingsFields {
  syncEveryHours: string;
  /** '' means no limit. */
  dailyCreditLimit: string;
}

export type SyncSettingsProblems = Partial<Record<keyof SyncSettingsFields, string>>;

export function syncSettingsFieldsOf(settings: KeepCurrentSettings): SyncSettingsFields {
  return {
    syncEveryHours: String(settings.syncEveryHours),
    dailyCreditLimit: settings.dailyCreditLimit === null ? '' : String(settings.dailyCreditLimit),
  };
}

/** The fields as settings, or what is wrong with each field that is not valid, in plain words. */
export function readSyncSettingsFields(
  fields: SyncSettingsFields,
): { ok: true; value: KeepCurrentSettings } | { ok: false; problems: SyncSettingsProblems } {
  const problems: SyncSettingsProblems = {};
  const hours = wholeNumber(fields.syncEveryHours, SYNC_EVERY_HOURS.min, SYNC_EVERY_HOURS.max);
  if (hours === undefined || hours === null)
    problems.syncEveryHours = `Enter a whole number of hours from ${SYNC_EVERY_HOURS.min} to ${formatCount(SYNC_EVERY_HOURS.max)} (${SYNC_EVERY_HOURS.max / 24} days).`;
  const limit = wholeNumber(fields.dailyCreditLimit, DAILY_CREDIT_LIMIT.min, DAILY_CREDIT_LIMIT.max);
  if (limit === undefined)
    problems.dailyCreditLimit = `Enter a whole number of credits from ${DAILY_CREDIT_LIMIT.min} to ${formatCount(DAILY_CREDIT_LIMIT.max)}, or leave it empty for no limit.`;
  if (hours === undefined || hours === null || limit === undefined) return { ok: false, problems };
  return { ok: true, value: { syncEveryHours: hours, dailyCreditLimit: limit } };
}
