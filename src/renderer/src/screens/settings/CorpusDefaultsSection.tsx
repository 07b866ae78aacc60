import type { Settings } from '../../../../shared/contract';
import { CitationFieldset } from '../../components/CitationFieldset';
import { authorLines, citationFieldsOf, readCitationFields } from '../../lib/citation-fields';
import { settingsStore } from '../../stores';
import { useSettingsForm } from './settings-form';

/** The authors and license an Export dialog starts with, for a job never exported with its own. */
export function CorpusDefaultsSection({ corpus }: { corpus: Settings['corpus'] }) {
  const form = useSettingsForm({
    initial: () => citationFieldsOf(null, corpus),
    read: readCitationFields,
    invalid: null,
    write: async (value, fields) => {
      const license = value.license ?? null;
      await settingsStore.getState().saveCorpusDefaults({ authors: authorLines(fields.authors), license });
      return 'Saved: the Export dialog starts with them for jobs not yet exported with a name.';
    },
  });

  return (
    <section className="card" aria-labelledby="corpus-defaults-heading">
      <h2 id="corpus-defaults-heading">Defaults for corpora</h2>
      <CitationFieldset
        idPrefix="corpus-defaults"
        fields={form.fields}
        problems={form.problems}
        defaultsOnly
        onChange={form.change}
      />
      <div className="form-actions">
        <button type="button" className="button-primary" onClick={() => void form.save()}>
          Save corpus defaults
        </button>
      </div>
      {form.outcome}
    </section>
  );
}
