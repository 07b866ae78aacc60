import type { JobView } from '../../../../shared/contract';
import { jobStatusLabel } from '../../lib/format';
import { shortfall } from '../../lib/job-state';

/** The job's status; a finished job with failures says how many, in the warning style. */
export function StatusBadge({ job }: { job: JobView }) {
  const lacking = shortfall(job);
  if (lacking !== null)
    return (
      <span className="badge badge-completed-with-gaps">{`${jobStatusLabel(job.status)}, ${lacking}`}</span>
    );
  return <span className={`badge badge-${job.status}`}>{jobStatusLabel(job.status)}</span>;
}
