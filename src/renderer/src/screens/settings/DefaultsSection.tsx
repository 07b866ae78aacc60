import type { JobDefaults } from '../../../../shared/contract';
import { OptionFields } from '../../components/OptionFields';
import { fieldsOf, readOptionFields } from '../../lib/job-options';
import { newJobStore, settingsStore } from '../../stores';
import { useSettingsForm } from './settings-form';

/** The options a new job starts with. */
export function DefaultsSection({ defaults }: { defaults: JobDefaults }) {
  const form = useSettingsForm({
    initial: () => fieldsOf(defaults),
    read: readOptionFields,
    invalid: 'Some defaults are not valid: see the fields marked above.',
    write: async (value: JobDefaults) => {
      await settingsStore.getState().saveDefaults(value);
      newJobStore.getState().applyDefaults(value);
      return 'Defaults saved: new jobs start with them.';
    },
  });

  return (
    <section className="card" aria-labelledby="defaults-heading">
      <h2 id="defaults-heading">Defaults for new jobs</h2>
      <OptionFields
        idPrefix="defaults"
        fields={form.fields}
        problems={form.problems}
        onChange={form.change}
      />
      <div className="form-actions">
        <button type="button" className="button-primary" onClick={() => void form.save()}>
          Save defaults
        </button>
      </div>
      {form.outcome}
    </section>
  );
}
