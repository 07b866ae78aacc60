import { ErrorMessage } from '../../components/ErrorMessage';
import { ScreenHeading } from '../../components/ScreenHeading';
import { startedNotice } from '../../lib/job-state';
import { routeHref } from '../../routing';
import { newJobStore, useJobs, useNewJob } from '../../stores';
import { focusedJobId } from '../../stores/jobs';
import { JobCard } from './JobCard';

/** Every job, newest first, live from the app's events (jobs the command line runs included). */
export function JobsScreen() {
  const order = useJobs((state) => state.order);
  const loaded = useJobs((state) => state.loaded);
  const loadError = useJobs((state) => state.loadError);
  const selected = useJobs(focusedJobId);

  const focusHeading = () => document.querySelector<HTMLElement>('.screen-title')?.focus();

  return (
    <>
      <ScreenHeading>Jobs</ScreenHeading>
      <StartedNotice />
      <ErrorMessage error={loadError} />
      {!loaded ? (
        <p className="muted" role="status">
          Reading the jobs…
        </p>
      ) : order.length === 0 ? (
        <div className="empty-state">
          <h2>No jobs yet</h2>
          <p>
            To export transcripts, <a href={routeHref.newJob}>paste your sources in a new job</a>: videos,
            playlists, channels or searches. Preview what they will cost, then start. Jobs started from the
            command line (scriptorium export) show up here too.
          </p>
        </div>
      ) : (
        <ul className="job-list">
          {order.map((jobId) => (
            <li key={jobId}>
              <JobCard jobId={jobId} selected={jobId === selected} onDeleted={focusHeading} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Says which job the New job screen's Start queued, or that it matched an existing job. */
function StartedNotice() {
  const started = useNewJob((state) => state.lastStarted);
  const job = useJobs((state) => (started === null ? undefined : state.byId[started.jobId]));
  if (started === null) return null;
  // The job's number first: a long title is cut at two lines, the number stays in view.
  const name = job === undefined ? `job ${started.jobId}` : `job ${started.jobId}, “${job.title}”`;
  const text = startedNotice(started.started, name, job?.status);
  return (
    <div className="message message-info" role="status">
      <p className="clamp-2" title={text}>
        {text}
      </p>
      <button type="button" className="link-button" onClick={() => newJobStore.getState().dismissStarted()}>
        Dismiss
      </button>
    </div>
  );
}
