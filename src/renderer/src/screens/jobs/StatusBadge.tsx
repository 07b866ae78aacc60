import type { JobStatus } from '../../../../shared/contract';
import { jobStatusLabel } from '../../lib/format';

export function StatusBadge({ status }: { status: JobStatus }) {
  return <span className={`badge badge-${status}`}>{jobStatusLabel(status)}</span>;
}
