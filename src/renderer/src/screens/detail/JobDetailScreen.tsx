import { useEffect, useRef, useState } from 'react';
import type { JobDetail, JobView, VideoRow } from '../../../../shared/contract';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ScreenHeading } from '../../components/ScreenHeading';
import { useClamped } from '../../components/useClamped';
import { formatCount, listStatusLabel, plural, sourceKindLabel } from '../../lib/format';
import { navigate, routeHref } from '../../routing';
import { jobsStore, readerStore, useJobs, useVideoPages, videoPagesStore } from '../../stores';
import { TranscriptReader } from '../library/TranscriptReader';
import { JobActions } from '../jobs/JobActions';
import { JobProgress } from '../jobs/JobProgress';
import { KeepCurrent } from '../jobs/KeepCurrent';
import { StatusBadge } from '../jobs/StatusBadge';
import { SelectionLine, SyncsTable } from './JobHistory';
import { RenameJob } from './RenameJob';
import { useJobDetail } from './useJobDetail';
import { VideoDetails } from './VideoDetails';
import { VideoFilters } from './VideoFilters';
import { VideoTable } from './VideoTable';

/** One job: its progress, selection and actions, its syncs, every video in a table, and the lists it read. */
export function JobDetailScreen({ jobId }: { jobId: number }) {
  const job = useJobs((state) => state.byId[jobId]);
  const loaded = useJobs((state) => state.loaded);

  useEffect(() => {
    jobsStore.getState().select(jobId);
    videoPagesStore.getState().open(jobId);
    // A transcript opened on another job's screen is not this job's.
    if (readerStore.getState().open?.place === 'job') readerStore.getState().close();
  }, [jobId]);

  if (job === undefined) {
    return (
      <>
        <ScreenHeading>{loaded ? `There is no job ${jobId}` : 'Job'}</ScreenHeading>
        {loaded && (
          <p>
            It may have been deleted. <a href={routeHref.jobs}>See every job</a>
          </p>
        )}
      </>
    );
  }
  return <JobSections job={job} />;
}

function JobSections({ job }: { job: JobView }) {
  const { detail, problem } = useJobDetail(job);
  const filter = useVideoPages((state) => state.filter);
  const search = useVideoPages((state) => state.search);
  const [shown, setShown] = useState<VideoRow | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The heading takes two lines at most: a longer title is shown whole below it.
  const clamped = useClamped(heading, job.title);
  return (
    <>
      <p className="back-link">
        <a href={routeHref.jobs}>All jobs</a>
      </p>
      <div className="detail-title">
        <ScreenHeading clampTitle={job.title} headingRef={heading}>
          {job.title}
        </ScreenHeading>
        <StatusBadge job={job} />
        <RenameJob job={job} />
      </div>
      {clamped && (
        <p className="full-title" aria-hidden="true">
          {job.title}
        </p>
      )}
      <section className="card" aria-label="Progress">
        <JobProgress job={job} />
        {detail !== null && <SelectionLine filters={detail.filters} />}
        {detail !== null && <FailureReasons failures={detail.failures} />}
        <KeepCurrent job={job} />
        <JobActions job={job} onDeleted={() => navigate(routeHref.jobs)} />
      </section>
      {detail !== null && <SyncsTable syncs={detail.syncs} />}
      <section className="card videos" aria-labelledby="videos-heading">
        <h2 id="videos-heading">Videos</h2>
        <VideoFilters job={job} />
        <VideoTable key={`${filter}\n${search}`} onShow={setShown} />
        {shown !== null && <VideoDetails row={shown} onClose={() => setShown(null)} />}
        <TranscriptReader place="job" />
      </section>
      <ErrorMessage error={problem} />
      {detail !== null && <Lists detail={detail} />}
    </>
  );
}

/** Why its videos failed, a line for each way they did: what the service answered, and whether it was retried. */
function FailureReasons({ failures }: { failures: JobDetail['failures'] }) {
  if (failures.length === 0) return null;
  return (
    <ul className="failure-reasons">
      {failures.map(({ videos, reason }) => (
        <li key={reason}>
          {plural(videos, 'video')} failed: {reason}.
        </li>
      ))}
    </ul>
  );
}

/** The playlists, channels and searches the job reads, with what reading them found. */
function Lists({ detail }: { detail: JobDetail }) {
  if (detail.lists.length === 0 && detail.skipped.length === 0) return null;
  return (
    <section className="card" aria-labelledby="lists-heading">
      <h2 id="lists-heading">Sources</h2>
      {detail.lists.length > 0 && (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">List</th>
              <th scope="col">Kind</th>
              <th scope="col">State</th>
              <th scope="col">Videos</th>
              <th scope="col">Pages</th>
            </tr>
          </thead>
          <tbody>
            {detail.lists.map((list) => (
              <tr key={list.input}>
                <td>
                  {list.title ?? list.input}
                  {list.title !== null && <span className="muted"> · {list.input}</span>}
                </td>
                <td>{sourceKindLabel(list.kind)}</td>
                <td>
                  {list.error === null ? (
                    listStatusLabel(list.status)
                  ) : (
                    <span className="count-problem">
                      Could not be read{list.httpStatus !== null && ` (HTTP ${list.httpStatus})`}:{' '}
                      {list.error}
                    </span>
                  )}
                </td>
                <td>
                  {formatCount(list.videos)}
                  {list.expectedVideos !== null &&
                    list.expectedVideos !== list.videos &&
                    ` of ${formatCount(list.expectedVideos)}`}
                </td>
                <td>{formatCount(list.pages)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {detail.skipped.length > 0 && (
        <>
          <h3 className="subheading">Left out</h3>
          <ul className="skipped">
            {detail.skipped.map((skipped, index) => (
              <li key={`${index}:${skipped.input}`}>
                <span className="line-input">{skipped.input}</span>: {skipped.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
