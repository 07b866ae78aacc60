import { useState } from 'react';
import type { Settings } from '../../../../shared/contract';
import { CitationFieldset } from '../../components/CitationFieldset';
import { ErrorMessage } from '../../components/ErrorMessage';
import {
  authorLines,
  citationFieldsOf,
  readCitationFields,
  type CitationProblems,
} from '../../lib/citation-fields';
import { describeError } from '../../lib/errors';
import { settingsStore } from '../../stores';

/** The authors and license an Export dialog starts with, for a job never exported with its own. */
export function CorpusDefaultsSection({ corpus }: { corpus: Settings['corpus'] }) {
  const [fields, setFields] = useState(() => citationFieldsOf(null, corpus));
  const [problems, setProblems] = useState<CitationProblems>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState('');

  const save = async () => {
    setDone('');
    const read = readCitationFields(fields);
    if (!read.ok) {
      setProblems(read.problems);
      setProblem(null);
      return;
    }
    setProblems({});
    setProblem(null);
    try {
      const license = read.value.license ?? null;
      await settingsStore.getState().saveCorpusDefaults({ authors: authorLines(fields.authors), license });
      setDone('Saved: the Export dialog starts with them for jobs not yet exported with a name.');
    } catch (error) {
      setProblem(describeError(error).message);
    }
  };

  return (
    <section className="card" aria-labelledby="corpus-defaults-heading">
      <h2 id="corpus-defaults-heading">Defaults for corpora</h2>
      <CitationFieldset
        idPrefix="corpus-defaults"
        fields={fields}
        problems={problems}
        defaultsOnly
        onChange={(change) => setFields((current) => ({ ...current, ...change }))}
      />
      <div className="form-actions">
        <button type="button" className="button-primary" onClick={() => void save()}>
          Save corpus defaults
        </button>
      </div>
      <p role="status" className={done ? 'message message-success' : 'visually-hidden'}>
        {done}
      </p>
      <ErrorMessage error={problem} />
    </section>
  );
}
