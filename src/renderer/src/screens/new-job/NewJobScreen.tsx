import { useEffect, useRef } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/FormFields';
import { OptionFields } from '../../components/OptionFields';
import { ScreenHeading } from '../../components/ScreenHeading';
import type { ShownError } from '../../lib/errors';
import { navigate, routeHref } from '../../routing';
import { jobsStore, newJobStore, useNewJob } from '../../stores';
import { LineChecks } from './LineChecks';
import { PreviewPanel } from './PreviewPanel';
import { SelectionGroup } from './SelectionGroup';
import { SourcesInput } from './SourcesInput';

/** What the user calls the job; left empty, it is named after what it holds. */
function JobNameField() {
  const name = useNewJob((state) => state.name);
  return (
    <TextField
      id="new-job-name"
      label="Job name"
      help="Optional. Left empty, the job is named after what it holds: a list's title, or “3 playlists and 2 channels”."
      value={name}
      problem={undefined}
      onChange={(value) => newJobStore.getState().setName(value)}
    />
  );
}

/**
 * Sources in, options set, a preview of the cost, then Start: Preview, its result and Start come in
 * that order, so that from the result the next Tab is Start, and each button's problem is said
 * under it.
 */
export function NewJobScreen() {
  const fields = useNewJob((state) => state.fields);
  const fieldProblems = useNewJob((state) => state.fieldProblems);
  const formProblem = useNewJob((state) => state.formProblem);
  const formProblemAt = useNewJob((state) => state.formProblemAt);
  const preview = useNewJob((state) => state.preview);
  const starting = useNewJob((state) => state.starting);
  const startError = useNewJob((state) => state.startError);

  const start = async () => {
    const jobId = await newJobStore.getState().start();
    if (jobId === null) return;
    jobsStore.getState().select(jobId);
    navigate(routeHref.jobs);
  };

  return (
    <>
      <ScreenHeading>New job</ScreenHeading>
      {/* Not a form: Enter in a field must never start a job that spends credits. */}
      <div className="new-job">
        <section className="card" aria-labelledby="sources-heading">
          <h2 id="sources-heading">What to export</h2>
          <SourcesInput />
          <LineChecks />
          <JobNameField />
        </section>

        <section className="card" aria-labelledby="options-heading">
          <h2 id="options-heading">Options</h2>
          {fields === null ? (
            <p className="muted">Reading your defaults…</p>
          ) : (
            <OptionFields
              idPrefix="new-job"
              fields={fields}
              problems={fieldProblems}
              onChange={(change) => newJobStore.getState().setFields(change)}
            />
          )}
          <SelectionGroup />
        </section>

        <div className="form-actions">
          <button
            type="button"
            onClick={() => void newJobStore.getState().runPreview()}
            aria-disabled={preview.phase === 'walking' || fields === null || undefined}
          >
            Preview
          </button>
          <p className="help">
            Preview reads the lists and says what the transcripts will cost; it buys no transcript.
          </p>
        </div>
        <ProblemInView
          error={
            formProblemAt === 'preview' && formProblem !== null
              ? formProblem
              : preview.phase === 'failed'
                ? preview.error
                : null
          }
        />
        <PreviewPanel />
        <div className="form-actions">
          <button
            type="button"
            className="button-primary"
            onClick={() => void start()}
            aria-disabled={starting || fields === null || undefined}
          >
            Start
          </button>
        </div>
        <ProblemInView error={formProblemAt === 'start' && formProblem !== null ? formProblem : startError} />
      </div>
    </>
  );
}

/** A button's problem, right under it and scrolled into view: the button may sit at the window's edge. */
function ProblemInView({ error }: { error: ShownError | string | null }) {
  const shown = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error !== null) shown.current?.scrollIntoView({ block: 'nearest' });
  }, [error]);
  return (
    <div ref={shown}>
      <ErrorMessage error={error} />
    </div>
  );
}
