import type { JobDetail } from '../../../../shared/contract';
import { capitalize, plural } from '../../lib/format';

/** The preview's word on the selection: the job's filters, and how many videos each left out. */
export function PreviewSelection({
  filters,
  skippedByFilter,
}: Pick<JobDetail, 'filters' | 'skippedByFilter'>) {
  const leftOut = skippedByFilter;
  return (
    <div className="preview-selection">
      <h3 className="subheading" id="preview-selection-heading">
        Selection
      </h3>
      <ul aria-labelledby="preview-selection-heading">
        {filters.map((words) => (
          <li key={words}>{capitalize(words)}</li>
        ))}
      </ul>
      {leftOut.length === 0 ? (
        <p className="help">No video of the lists read is left out.</p>
      ) : (
        <>
          <p id="preview-left-out-heading">Left out:</p>
          <ul aria-labelledby="preview-left-out-heading">
            {leftOut.map(({ reason, videos }) => (
              <li key={reason}>
                {capitalize(reason)}: {plural(videos, 'video')} left out
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
