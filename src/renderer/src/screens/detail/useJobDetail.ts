import { useEffect, useState } from 'react';
import type { JobDetail, JobView } from '../../../../shared/contract';
import { describeError } from '../../lib/errors';
import { api, useSyncs } from '../../stores';

/**
 * The job's detail (its lists, filters and syncs), asked again when a list is done, the job's state
 * changes or a sync ends; not on every page: the detail holds the job's estimate, which
 * is not free to work out on a large job.
 */
export function useJobDetail(job: JobView): { detail: JobDetail | null; problem: string | null } {
  const [detail, setDetail] = useState<JobDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { id, sourcesWalked, sourcesFailed, status } = job;
  // The sync is recorded after the job's last change: its end is a reason of its own to ask again.
  const sync = useSyncs((state) => state.byJob[id]);
  const automaticSyncs = useSyncs((state) => state.automaticEnded[id] ?? 0);

  useEffect(() => {
    let current = true;
    api.jobDetail({ jobId: id }).then(
      (answer) => {
        if (!current) return;
        setDetail(answer);
        setProblem(null);
      },
      (error: unknown) => current && setProblem(describeError(error).message),
    );
    return () => {
      current = false;
    };
  }, [id, sourcesWalked, sourcesFailed, status, sync, automaticSyncs]);

  return { detail, problem };
}
