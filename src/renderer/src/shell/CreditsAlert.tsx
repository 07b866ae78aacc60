import { useMemo, useState } from 'react';
import type { JobView } from '../../../shared/contract';
import { ExternalLink } from '../components/ExternalLink';
import { describeError } from '../lib/errors';
import { capitalize } from '../lib/format';
import { api, useJobs, useSettings } from '../stores';
import { jobsWaitingForCredits } from '../stores/jobs';

/**
 * The service answered 402: an alert on every screen naming what the code means and what to do,
 * with the billing page when one is known, until the job runs again.
 */
export function CreditsAlert() {
  const byId = useJobs((state) => state.byId);
  const order = useJobs((state) => state.order);
  const waiting = useMemo(() => jobsWaitingForCredits({ byId, order }), [byId, order]);
  if (waiting.length === 0) return null;
  return (
    <div className="alert alert-credits" role="alert">
      <h2 className="alert-title">
        {waiting.length === 1
          ? 'A job is waiting for credits'
          : `${waiting.length} jobs are waiting for credits`}
      </h2>
      <ul className="alert-items">
        {waiting.map((jobId) => {
          const job = byId[jobId];
          return job === undefined ? null : <WaitingJob key={jobId} job={job} />;
        })}
      </ul>
    </div>
  );
}

function WaitingJob({ job }: { job: JobView }) {
  const eventBillingUrl = useJobs((state) => state.billingUrls[job.id] ?? null);
  const settingsBillingUrl = useSettings((state) => state.settings?.billingUrl ?? null);
  const billingUrl = eventBillingUrl ?? settingsBillingUrl;
  const [resuming, setResuming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const meaning = capitalize(job.stop?.message ?? 'The service asked for payment');
  const code = job.stop?.code ?? 'HTTP 402';

  const resume = async () => {
    setResuming(true);
    setProblem(null);
    try {
      await api.resumeJob({ jobId: job.id });
    } catch (error) {
      setProblem(describeError(error).message);
    } finally {
      setResuming(false);
    }
  };

  return (
    <li>
      <p>
        <strong className="clamp-2" title={job.title}>
          {job.title}
        </strong>{' '}
        (job {job.id}) stopped: {meaning} ({code}).
      </p>
      <p>
        Once you have credits again, press Resume: the job continues where it stopped, and nothing already
        fetched is bought again.
      </p>
      <p className="alert-actions">
        <ExternalLink href={billingUrl}>Open the billing page</ExternalLink>
        <button type="button" onClick={() => void resume()} disabled={resuming}>
          Resume job {job.id}
        </button>
      </p>
      {problem && <p className="message message-error">{problem}</p>}
    </li>
  );
}
