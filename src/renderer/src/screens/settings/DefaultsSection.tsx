import { useState } from 'react';
import type { JobDefaults } from '../../../../shared/contract';
import { ErrorMessage } from '../../components/ErrorMessage';
import { OptionFields } from '../../components/OptionFields';
import { describeError } from '../../lib/errors';
import { fieldsOf, readOptionFields, type OptionProblems } from '../../lib/job-options';
import { newJobStore, settingsStore } from '../../stores';

/** The options a new job starts with. */
export function DefaultsSection({ defaults }: { defaults: JobDefaults }) {
  const [fields, setFields] = useState(() => fieldsOf(defaults));
  const [problems, setProblems] = useState<OptionProblems>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState('');

  const save = async () => {
    setDone('');
    const read = readOptionFields(fields);
    if (!read.ok) {
      setProblems(read.problems);
      setProblem('Some defaults are not valid: see the fields marked above.');
      return;
    }
    setProblems({});
    setProblem(null);
    try {
      await settingsStore.getState().saveDefaults(read.value);
      newJobStore.getState().applyDefaults(read.value);
      setDone('Defaults saved: new jobs start with them.');
    } catch (error) {
      setProblem(describeError(error).message);
    }
  };

  return (
    <section className="card" aria-labelledby="defaults-heading">
      <h2 id="defaults-heading">Defaults for new jobs</h2>
      <OptionFields
        idPrefix="defaults"
        fields={fields}
        problems={problems}
        onChange={(change) => setFields((current) => ({ ...current, ...change }))}
      />
      <div className="form-actions">
        <button type="button" className="button-primary" onClick={() => void save()}>
          Save defaults
        </button>
      </div>
      <p role="status" className={done ? 'message message-success' : 'visually-hidden'}>
        {done}
      </p>
      <ErrorMessage error={problem} />
    </section>
  );
}
