import type { JobView } from '../../../../shared/contract';
import { JOB_STATUS } from '../../../../shared/vocabulary';
import { ProgressBar, type Tone } from '../../components/ProgressBar';
import { useSecondsUntil } from '../../components/useSecondsUntil';
import { formatCount, formatDuration, formatRate, formatWhen, plural, sentence } from '../../lib/format';
import { describeGaps, describeStop, runsElsewhere, shortfall, videosDone } from '../../lib/job-state';
import { useJobs } from '../../stores';
import type { RetryWait } from '../../stores/jobs';

const TONES: Readonly<Record<JobView['status'], Tone>> = {
  draft: 'stopped',
  queued: 'active',
  running: 'active',
  paused: 'stopped',
  waiting_credits: 'warning',
  completed: 'done',
  failed: 'warning',
  cancelled: 'stopped',
};

/** A job's progress bar, counts, pace, credits and why it stopped: the body of a job's card. */
export function JobProgress({ job }: { job: JobView }) {
  const done = videosDone(job);
  const { total } = job.counts;
  const readingLists = job.sourcesWalked < job.sourcesTotal;
  const valueText =
    total === 0 && readingLists ? 'Reading the lists' : `${formatCount(done)} of ${plural(total, 'video')}`;

  return (
    <div className="job-progress">
      <ProgressBar
        label={job.title}
        value={done}
        max={total}
        valueText={valueText}
        tone={shortfall(job) === null ? TONES[job.status] : 'warning'}
      />
      <p className="job-counts">
        <span>{valueText}</span>
        <Count label="fetched" value={job.counts.ok} />
        <Count label="unavailable" value={job.counts.unavailable} />
        <Count label="failed" value={job.counts.failed} tone="problem" />
        <Count label="skipped" value={job.counts.skipped} />
        <Count label="to fetch" value={job.counts.pending} />
        {readingLists && total > 0 && (
          <span>
            {formatCount(job.sourcesWalked)} of {plural(job.sourcesTotal, 'source')} read
          </span>
        )}
      </p>
      <dl className="job-facts">
        {job.status === JOB_STATUS.running && (
          <>
            <div>
              <dt>Rate</dt>
              <dd>{formatRate(job.ratePerSecond)}</dd>
            </div>
            <div>
              <dt>Time left</dt>
              <dd>
                {job.etaSeconds === null ? 'working it out' : `about ${formatDuration(job.etaSeconds)}`}
              </dd>
            </div>
          </>
        )}
        <div>
          <dt>Credits</dt>
          <dd>
            {formatCount(job.creditsSpent)}
            {job.budget !== null &&
              (job.budget === 0
                ? ', none to spend: it uses transcripts already bought'
                : ` of a ${formatCount(job.budget)} budget`)}
            {job.creditsPossible > 0 && ` (${formatCount(job.creditsPossible)} maybe charged)`}
          </dd>
        </div>
        {job.finishedAt !== null && job.status === JOB_STATUS.completed && (
          <div>
            <dt>Finished</dt>
            <dd>{formatWhen(job.finishedAt)}</dd>
          </div>
        )}
      </dl>
      <JobNotes job={job} />
    </div>
  );
}

function Count({ label, value, tone }: { label: string; value: number; tone?: 'problem' }) {
  if (value === 0) return null;
  return (
    <span className={tone === 'problem' ? 'count-problem' : undefined}>
      {formatCount(value)} {label}
    </span>
  );
}

/** Why the job stopped, what runs it, and a request's wait before its next attempt. */
function JobNotes({ job }: { job: JobView }) {
  const wait = useJobs((state) => state.retryWaits[job.id]);
  const stop = describeStop(job);
  const gaps = describeGaps(job);
  return (
    <>
      {runsElsewhere(job) && (
        <p className="note">
          Another Scriptorium process (such as the command line) is running this job: stop it there.
        </p>
      )}
      {job.waitingFor !== null && (
        <p className="note note-warning">
          It cannot start yet. {sentence(job.waitingFor)} It starts by itself once that is done.
        </p>
      )}
      {stop && (
        <p className={`note note-${job.status === JOB_STATUS.waiting_credits ? 'warning' : 'stop'}`}>
          {stop}
        </p>
      )}
      {gaps && <p className="note note-warning">{gaps}</p>}
      {job.status === JOB_STATUS.running && wait !== undefined && (
        <RetryWaitNote key={wait.until} wait={wait} />
      )}
    </>
  );
}

/** "waiting 4 s", counting down; mounted afresh for each wait. */
function RetryWaitNote({ wait }: { wait: RetryWait }) {
  const secondsLeft = useSecondsUntil(wait.until);
  if (secondsLeft <= 0) return null;
  return (
    <p className="note">
      The service answered {wait.status}: waiting {secondsLeft} s before trying again.
    </p>
  );
}
