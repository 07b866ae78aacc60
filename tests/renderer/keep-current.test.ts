import { describe, expect, it } from 'vitest';
import { formatWhen } from '../../src/renderer/src/lib/format';
import { describeSyncProblem, describeSyncTimes, everyHours } from '../../src/renderer/src/lib/keep-current';
import { readSyncSettingsFields, syncSettingsFieldsOf } from '../../src/renderer/src/lib/sync-settings';
import { KeepCurrentSettingsSchema, type KeepCurrentView } from '../../src/shared/contract';
import { DAILY_CREDIT_LIMIT, SYNC_EVERY_HOURS } from '../../src/shared/vocabulary';

const NOW = Date.parse('2030-03-12T12:00:00.000Z');
const LAST = '2030-03-12T08:05:00.000Z';
const NEXT = '2030-03-13T08:05:00.000Z';

function kept(change: Partial<KeepCurrentView> = {}): KeepCurrentView {
  return {
    available: true,
    marked: true,
    lastSyncAt: null,
    nextSyncAt: null,
    autoExportPath: null,
    limitMessage: null,
    syncProblem: null,
    ...change,
  };
}

describe('the times a job kept current shows', () => {
  it('say when it was last synced and when it is synced next', () => {
    expect(describeSyncTimes(kept({ lastSyncAt: LAST, nextSyncAt: NEXT }), NOW)).toBe(
      `Last synced ${formatWhen(LAST)} · next sync due ${formatWhen(NEXT)}`,
    );
  });

  it('say so for a job never synced automatically', () => {
    expect(describeSyncTimes(kept({ nextSyncAt: NEXT }), NOW)).toBe(
      `Not synced automatically yet · next sync due ${formatWhen(NEXT)}`,
    );
  });

  it('call a sync whose time has come due now: it waits for its turn', () => {
    for (const nextSyncAt of ['2030-03-12T12:00:00.000Z', '2030-03-12T11:00:00.000Z'])
      expect(describeSyncTimes(kept({ nextSyncAt }), NOW)).toBe(
        'Not synced automatically yet · next sync due now',
      );
  });

  it('send a job nothing here syncs to the next start', () => {
    expect(describeSyncTimes(kept(), NOW)).toBe(
      'Not synced automatically yet · next sync when Scriptorium starts',
    );
  });

  it('give no time to a sync that waits for a key or an address, and say it runs once they are given', () => {
    const missing =
      'No service address is set: enter it in Settings. No key is set. Enter it in Settings. Nothing was sent.';
    const waiting = kept({ lastSyncAt: LAST, nextSyncAt: null, syncProblem: missing });
    expect(describeSyncTimes(waiting, NOW)).toBe(`Last synced ${formatWhen(LAST)}`);
    expect(describeSyncProblem(waiting)).toBe(
      `Its last automatic sync could not run. ${missing} It runs as soon as that is done.`,
    );
    // Another failure (a full disk) is tried again at the next sync, whose time is given.
    const failed = kept({ lastSyncAt: LAST, nextSyncAt: NEXT, syncProblem: 'The disk is full.' });
    expect(describeSyncTimes(failed, NOW)).toBe(
      `Last synced ${formatWhen(LAST)} · next sync due ${formatWhen(NEXT)}`,
    );
    expect(describeSyncProblem(failed)).toBe(
      'Its last automatic sync could not run. The disk is full. It is tried again at the next sync.',
    );
    expect(describeSyncProblem(kept())).toBeNull();
  });

  it('read "every hour" for one hour', () => {
    expect(everyHours(1)).toBe('every hour');
    expect(everyHours(24)).toBe('every 24 hours');
  });
});

describe("Settings' sync fields", () => {
  const read = (syncEveryHours: string, dailyCreditLimit = '') =>
    readSyncSettingsFields({ syncEveryHours, dailyCreditLimit });

  it('start from the settings, an empty limit meaning none', () => {
    expect(syncSettingsFieldsOf({ syncEveryHours: 24, dailyCreditLimit: null })).toEqual({
      syncEveryHours: '24',
      dailyCreditLimit: '',
    });
    expect(read('24', ' ')).toEqual({ ok: true, value: { syncEveryHours: 24, dailyCreditLimit: null } });
  });

  it('accept what the contract accepts, at the edges of every bound, and nothing beyond', () => {
    const hours = [
      SYNC_EVERY_HOURS.min - 1,
      SYNC_EVERY_HOURS.min,
      SYNC_EVERY_HOURS.max,
      SYNC_EVERY_HOURS.max + 1,
    ];
    const limits = [
      DAILY_CREDIT_LIMIT.min - 1,
      DAILY_CREDIT_LIMIT.min,
      DAILY_CREDIT_LIMIT.max,
      DAILY_CREDIT_LIMIT.max + 1,
    ];
    for (const syncEveryHours of hours)
      for (const dailyCreditLimit of limits) {
        const form = read(String(syncEveryHours), String(dailyCreditLimit)).ok;
        const contract = KeepCurrentSettingsSchema.safeParse({ syncEveryHours, dailyCreditLimit }).success;
        expect(form, `${syncEveryHours} hours, ${dailyCreditLimit} credits`).toBe(contract);
      }
  });

  it('say in plain words what each field needs, one problem per field', () => {
    expect(read('', '2.5')).toEqual({
      ok: false,
      problems: {
        syncEveryHours: 'Enter a whole number of hours from 1 to 720 (30 days).',
        dailyCreditLimit:
          'Enter a whole number of credits from 1 to 1,000,000, or leave it empty for no limit.',
      },
    });
    expect(read('1e3')).toMatchObject({ ok: false, problems: { syncEveryHours: expect.any(String) } });
  });
});
