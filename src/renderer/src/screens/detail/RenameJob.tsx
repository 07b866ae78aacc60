import { useState, type FormEvent } from 'react';
import type { JobView } from '../../../../shared/contract';
import { ErrorMessage } from '../../components/ErrorMessage';
import { describeError, type ShownError } from '../../lib/errors';
import { jobsStore } from '../../stores';

/**
 * Renames the job: a button beside its title opens a one-field form; an empty name gives the job
 * back the name of what it holds.
 */
export function RenameJob({ job }: { job: JobView }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<ShownError | null>(null);

  const open = () => {
    setName(job.name ?? '');
    setProblem(null);
    setEditing(true);
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await jobsStore.getState().rename(job.id, name.trim() === '' ? null : name.trim());
      setEditing(false);
    } catch (error) {
      setProblem(describeError(error));
    }
  };

  if (!editing) {
    return (
      <button type="button" className="link-button" onClick={open}>
        Rename
      </button>
    );
  }
  return (
    <form className="inline-form rename-form" onSubmit={(event) => void save(event)}>
      <div className="field">
        <label htmlFor={`rename-${job.id}`}>Job name</label>
        <input
          id={`rename-${job.id}`}
          type="text"
          value={name}
          autoFocus
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`rename-${job.id}-help`}
          onChange={(event) => setName(event.target.value)}
        />
        <p id={`rename-${job.id}-help`} className="help">
          Left empty, the job is named after what it holds.
        </p>
      </div>
      <div className="form-actions">
        <button type="submit" className="button-primary">
          Save name
        </button>
        <button type="button" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
      <ErrorMessage error={problem} />
    </form>
  );
}
