import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/FormFields';
import { OptionFields } from '../../components/OptionFields';
import { ScreenHeading } from '../../components/ScreenHeading';
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

/** Sources in, options set, a preview of the cost, then Start. */
export function NewJobScreen() {
  const fields = useNewJob((state) => state.fields);
  const fieldProblems = useNewJob((state) => state.fieldProblems);
  const formProblem = useNewJob((state) => state.formProblem);
  const walking = useNewJob((state) => state.preview.phase === 'walking');
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
            aria-disabled={walking || fields === null || undefined}
          >
            Preview
          </button>
          <button
            type="button"
            className="button-primary"
            onClick={() => void start()}
            aria-disabled={starting || fields === null || undefined}
          >
            Start
          </button>
          <p className="help">
            Preview reads the lists and says what the transcripts will cost; it buys no transcript.
          </p>
        </div>
        <ErrorMessage error={formProblem} />
        <ErrorMessage error={startError} />
        <PreviewPanel />
      </div>
    </>
  );
}
