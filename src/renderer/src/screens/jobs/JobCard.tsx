import type { JobView } from '../../../../shared/contract';
import { formatWhen } from '../../lib/format';
import { routeHref } from '../../routing';
import { jobsStore, useJobs } from '../../stores';
import { JobActions } from './JobActions';
import { JobProgress } from './JobProgress';
import { KeepCurrent } from './KeepCurrent';
import { StatusBadge } from './StatusBadge';

/** One job on the Jobs screen. Clicking or focusing in it makes it the credits bar's job. */
export function JobCard({
  jobId,
  selected,
  onDeleted,
}: {
  jobId: number;
  selected: boolean;
  onDeleted(): void;
}) {
  const job = useJobs((state) => state.byId[jobId]);
  if (job === undefined) return null;
  const select = () => jobsStore.getState().select(jobId);
  const titleId = `job-${jobId}-title`;
  return (
    <article
      className={`card job-card${selected ? ' job-card-selected' : ''}`}
      aria-labelledby={titleId}
      onClick={select}
      onFocus={select}
    >
      <header className="job-card-header">
        <h2 id={titleId} className="job-title clamp-2">
          <a href={routeHref.job(jobId)} title={job.title}>
            {job.title}
          </a>
        </h2>
        <StatusBadge job={job} />
      </header>
      <p className="job-meta">
        Job {job.id} · created {formatWhen(job.createdAt)} · {describeSources(job)}
      </p>
      <JobProgress job={job} />
      <KeepCurrent job={job} />
      <JobActions job={job} onDeleted={onDeleted} />
    </article>
  );
}

function describeSources(job: JobView): string {
  const [first, second, ...rest] = job.sources;
  if (first === undefined) return 'no sources';
  if (second === undefined) return first;
  return rest.length === 0 ? `${first}, ${second}` : `${first}, ${second} and ${rest.length} more`;
}
