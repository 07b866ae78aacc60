import type { FormEvent } from 'react';
import type { KeepCurrentSettings } from '../../../../shared/contract';
import { DAILY_CREDIT_LIMIT, SYNC_EVERY_HOURS } from '../../../../shared/vocabulary';
import { NumberField } from '../../components/FormFields';
import { formatCount } from '../../lib/format';
import { everyHours } from '../../lib/keep-current';
import { readSyncSettingsFields, syncSettingsFieldsOf } from '../../lib/sync-settings';
import { settingsStore } from '../../stores';
import { useSettingsForm } from './settings-form';

/** How often jobs marked Keep current are synced, and what all automatic syncs may spend in a day. */
export function KeepCurrentSection({ settings }: { settings: KeepCurrentSettings }) {
  const form = useSettingsForm({
    initial: () => syncSettingsFieldsOf(settings),
    read: readSyncSettingsFields,
    invalid: 'Some sync settings are not valid: see the fields marked above.',
    write: async (value: KeepCurrentSettings) => {
      await settingsStore.getState().saveKeepCurrent(value);
      const { syncEveryHours, dailyCreditLimit } = value;
      const limit =
        dailyCreditLimit === null
          ? 'with no daily limit'
          : `within ${formatCount(dailyCreditLimit)} credits a day`;
      return `Saved: jobs marked Keep current are synced ${everyHours(syncEveryHours)}, ${limit}.`;
    },
  });
  const { fields, problems, change } = form;
  const save = (event: FormEvent) => {
    event.preventDefault();
    void form.save();
  };

  return (
    <section className="card" aria-labelledby="keep-current-heading">
      <h2 id="keep-current-heading">Keep current</h2>
      <p className="help">
        A job with a playlist or a channel can be marked <strong>Keep current</strong> on the Jobs screen or
        its own. Scriptorium then syncs it when it starts and again at the interval below while it runs,
        buying only the videos that are new, and each sync stays within the job’s budget. From the command
        line, <code>scriptorium sync --all</code> does the same.
      </p>
      <form onSubmit={save} noValidate>
        <div className="sync-fields">
          <NumberField
            id="sync-every-hours"
            label="Sync every (hours)"
            help={`From ${SYNC_EVERY_HOURS.min} to ${SYNC_EVERY_HOURS.max}; ${SYNC_EVERY_HOURS.default} unless changed. Counted from the start of the last round of syncs.`}
            min={SYNC_EVERY_HOURS.min}
            max={SYNC_EVERY_HOURS.max}
            value={fields.syncEveryHours}
            problem={problems.syncEveryHours}
            onChange={(syncEveryHours) => change({ syncEveryHours })}
          />
          <NumberField
            id="daily-credit-limit"
            label="Daily credit limit"
            help="What all automatic syncs together may spend in a day, from midnight; empty for no limit. A sync that reaches it stops, says so on its job, and the first automatic sync after midnight continues it. Syncs you start yourself are not counted."
            min={DAILY_CREDIT_LIMIT.min}
            max={DAILY_CREDIT_LIMIT.max}
            value={fields.dailyCreditLimit}
            problem={problems.dailyCreditLimit}
            onChange={(dailyCreditLimit) => change({ dailyCreditLimit })}
          />
        </div>
        <div className="form-actions">
          <button type="submit" className="button-primary">
            Save sync settings
          </button>
        </div>
      </form>
      {form.outcome}
    </section>
  );
}
