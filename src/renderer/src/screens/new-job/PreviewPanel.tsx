import { useEffect, useRef } from 'react';
import type { JobDetail, SourceLine } from '../../../../shared/contract';
import { formatCount, plural, sourceKindLabel } from '../../lib/format';
import { newJobStore, useJobs, useNewJob } from '../../stores';
import { PreviewSelection } from './PreviewSelection';

/**
 * The preview: its progress while the lists are read, then what the job holds and will cost (a
 * preview that failed is said under its button, by NewJobScreen).
 */
export function PreviewPanel() {
  const preview = useNewJob((state) => state.preview);
  const heading = useRef<HTMLHeadingElement>(null);
  // Below a long paste the result would appear out of sight: bring it into view, and the focus with it.
  useEffect(() => {
    if (preview.phase !== 'done') return;
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, [preview.phase]);
  // Nothing to show before a preview, nor for one that failed (said under its button).
  if (preview.phase !== 'walking' && preview.phase !== 'done') return null;
  return (
    <section className="preview" aria-labelledby="preview-heading">
      <h2 id="preview-heading" ref={heading} tabIndex={-1}>
        Preview
      </h2>
      {preview.phase === 'walking' && <Walking jobId={preview.jobId} stopping={preview.stopping} />}
      {preview.phase === 'done' && (
        <PreviewResult
          detail={preview.detail}
          rejected={preview.rejected}
          stoppedByUser={preview.stoppedByUser}
        />
      )}
    </section>
  );
}

function Walking({ jobId, stopping }: { jobId: number | null; stopping: boolean }) {
  const job = useJobs((state) => (jobId === null ? undefined : state.byId[jobId]));
  return (
    <div className="walking" role="status">
      <span className="spinner" aria-hidden="true" />
      <p>
        {stopping ? 'Stopping the preview…' : 'Reading the lists…'}
        {job !== undefined &&
          ` ${formatCount(job.sourcesWalked)} of ${plural(job.sourcesTotal, 'source')} read, ${plural(job.counts.total, 'video')} found, ${plural(job.creditsSpent, 'list page')} bought.`}
      </p>
      <button
        type="button"
        onClick={() => void newJobStore.getState().stopPreview()}
        aria-disabled={stopping || jobId === null || undefined}
      >
        Stop preview
      </button>
    </div>
  );
}

function PreviewResult({
  detail,
  rejected,
  stoppedByUser,
}: {
  detail: JobDetail;
  rejected: SourceLine[];
  stoppedByUser: boolean;
}) {
  const { job, estimate, lists } = detail;
  const pagesBought = lists.reduce((sum, list) => sum + list.pages, 0);
  const partial = job.sourcesWalked < job.sourcesTotal || !estimate.exact;
  const budgetShort = job.budget !== null && estimate.transcripts > job.budget - job.creditsSpent;
  return (
    <div className="preview-result">
      {stoppedByUser && (
        <p className="note note-stop">
          You stopped the preview after {formatCount(job.sourcesWalked)} of{' '}
          {plural(job.sourcesTotal, 'source')}: the numbers below count what was read. Preview again to read
          the rest; no page is bought twice.
        </p>
      )}
      <dl className="preview-facts">
        <div>
          <dt>Videos</dt>
          <dd>
            {partial ? 'at least ' : ''}
            {formatCount(job.counts.total)} from {plural(job.sourcesTotal, 'source')}
          </dd>
        </div>
        {detail.filters.length > 0 && (
          <div>
            <dt>Kept by the selection</dt>
            <dd>
              {formatCount(job.counts.total - job.counts.skipped)} ({formatCount(job.counts.skipped)} left
              out, at no cost)
            </dd>
          </div>
        )}
        <div>
          <dt>List pages bought</dt>
          <dd>
            {formatCount(pagesBought)}, already paid: Start does not buy them again
            {estimate.pages > 0 && `; at least ${plural(estimate.pages, 'more page')} to read`}
          </dd>
        </div>
        <div>
          <dt>Transcripts will cost</dt>
          <dd>
            at most {plural(estimate.transcripts, 'credit')}
            {!estimate.exact && ' for the videos found so far'}
          </dd>
        </div>
      </dl>
      {detail.filters.length > 0 ? (
        <PreviewSelection filters={detail.filters} skippedByFilter={detail.skippedByFilter} />
      ) : (
        job.counts.skipped > 0 && (
          <p className="help">{plural(job.counts.skipped, 'video')} left out by the options cost nothing.</p>
        )
      )}
      {budgetShort && job.budget !== null && (
        <p className="note note-warning">
          Your budget of {plural(job.budget, 'credit')} does not cover every transcript: the job will pause
          once it is spent.
        </p>
      )}
      {lists.length > 0 && (
        <table className="data-table">
          <caption>Lists read</caption>
          <thead>
            <tr>
              <th scope="col">List</th>
              <th scope="col">Kind</th>
              <th scope="col">Videos</th>
              <th scope="col">Pages</th>
            </tr>
          </thead>
          <tbody>
            {lists.map((list) => (
              <tr key={list.input}>
                <td>
                  {list.title ?? list.input}
                  {list.title !== null && <span className="muted"> · {list.input}</span>}
                  {list.error !== null && (
                    <span className="count-problem"> · could not be read: {list.error}</span>
                  )}
                </td>
                <td>{sourceKindLabel(list.kind)}</td>
                <td>{formatCount(list.videos)}</td>
                <td>{formatCount(list.pages)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rejected.length > 0 && (
        <p className="help">
          {plural(rejected.length, 'line')} left out because {rejected.length === 1 ? 'it is' : 'they are'}{' '}
          not a source (see above).
        </p>
      )}
    </div>
  );
}
